#include "sw/mcu/debug_symbols.h"

#include <cctype>
#include <cstdio>
#include <sstream>

#include "models/mcu/falcon/nouveau_symbols.h"
#include "platform/file_input.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

namespace {
// nouveau's largest header is ~60 KiB; a symbols file of a 64 KiB code segment is smaller still.
// assumption: 4 MiB, far above either.
constexpr InputKind kSymbolsFile{"a symbols file or an envyas-style header", 4ull << 20};
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool is_label(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$')) return false;
  return true;
}
}  // namespace

DebugSymbols DebugSymbols::from_symbols_text(const std::string& text, const std::string& where) {
  DebugSymbols t;
  t.source_ = where;
  std::istringstream in(text);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    std::istringstream ls(line);
    std::string addr, section, label, extra;
    ls >> addr >> section >> label;
    const std::string at = where + ":" + std::to_string(n) + ": ";
    if (label.empty() || (ls >> extra))
      throw McuError(at + "expected '0xADDRESS SECTION LABEL' (hetvp falcon-as --symbols format), got '" + line + "'");
    size_t pos = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(addr, &pos, 16);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (addr.rfind("0x", 0) != 0 || pos != addr.size() || v > 0xffffffffu)
      throw McuError(at + "not a 32-bit hexadecimal address: '" + addr + "'");
    if (!is_label(label)) throw McuError(at + "not a label: '" + label + "'");
    t.add(static_cast<uint32_t>(v), label, ends_with(section, "code"));
  }
  return t;
}

DebugSymbols DebugSymbols::from_header_text(const std::string& text, const std::string& where) {
  DebugSymbols t;
  t.source_ = where;
  std::istringstream in(text);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    char name[128], label[128];
    unsigned addr = 0;
    if (std::sscanf(line.c_str(), "static uint32_t %127[A-Za-z0-9_][] = {", name) == 1) {
      section = name;
    } else if (std::sscanf(line.c_str(), "/* 0x%x: %127[A-Za-z0-9_.$] */", &addr, label) == 2) {
      t.add(addr, label, ends_with(section, "code"));
    }
  }
  if (t.empty()) throw McuError(where + ": no `/* 0xADDR: label */` lines (an envyas-style header has them)");
  return t;
}

DebugSymbols DebugSymbols::from_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_text(path, kSymbolsFile);
  } catch (const InputFileError& e) {
    throw McuError(std::string("symbols: ") + e.what());
  }
  if (text.find("static uint32_t") != std::string::npos) return from_header_text(text, path);
  return from_symbols_text(text, path);
}

DebugSymbols DebugSymbols::from_elf(const ElfImage& img) {
  DebugSymbols t;
  t.source_ = img.name();
  for (const ElfSymbol& s : img.symbols()) {
    // STT_NOTYPE/OBJECT/FUNC; not constants, the assembler's mapping symbols ("$xrv32i2p1...") or local labels (".L")
    if (s.name.empty() || s.absolute || s.name[0] == '$' || s.name[0] == '.' ||
        (s.type != 1 && s.type != 2 && s.type != 0))
      continue;
    t.add(s.value, s.name, s.type != 1);
  }
  return t;
}

DebugSymbols DebugSymbols::nouveau(const std::string& chip, const std::string& unit) {
  for (const auto& n : mcu::falcon::nouveau_symbols())
    if (chip == n.chip && unit == n.unit) {
      DebugSymbols t = from_symbols_text(n.text, std::string("nouveau ") + n.header);
      return t;
    }
  return DebugSymbols{};
}

std::optional<uint32_t> DebugSymbols::find(const std::string& name) const {
  for (const DebugSymbol& s : syms_)
    if (s.code && s.name == name) return s.addr;
  return std::nullopt;
}

std::string DebugSymbols::describe(uint32_t addr) const {
  const DebugSymbol* best = nullptr;
  for (const DebugSymbol& s : syms_)
    if (s.code && s.addr <= addr && addr - s.addr < 0x10000 && (!best || s.addr > best->addr)) best = &s;
  if (!best) return "";
  if (best->addr == addr) return best->name;
  char b[24];
  std::snprintf(b, sizeof b, "+0x%x", addr - best->addr);
  return best->name + b;
}

std::string DebugSymbols::at(uint32_t addr) const {
  for (const DebugSymbol& s : syms_)
    if (s.code && s.addr == addr) return s.name;
  return "";
}

}  // namespace hetvp::sw
