// hetvp — the symbols `hetvp debug` knows for a microcontroller: names of code addresses for
// breakpoints, disassembly and stop messages. RV32: the function and object symbols of the ELF image
// the session booted or loaded. Falcon: a symbols file (`0x%08x <section> <label>` per line, '#'
// comments: what `hetvp falcon-as --symbols` writes), the labels of an envyas-style header
// (`/* 0xADDR: label */` lines inside `static uint32_t <section>[] = {`), or nouveau's own labels
// built into hetvp (models/mcu/falcon/nouveau_symbols.h). A section whose name ends in "code" holds
// code addresses; any other holds data addresses (not used for breakpoints).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/elf_image.h"

namespace hetvp::sw {

struct DebugSymbol {
  uint32_t addr = 0;
  std::string name;
  bool code = true;
};

class DebugSymbols {
 public:
  // A symbols file's text; a malformed line throws McuError "WHERE:LINE: ..." (WHERE names the file).
  static DebugSymbols from_symbols_text(const std::string& text, const std::string& where);
  // An envyas-style header's labels (`/* 0xADDR: label */`); none found: McuError naming the file.
  static DebugSymbols from_header_text(const std::string& text, const std::string& where);
  // A file of either form (a header has a "static uint32_t" line): read, bounded, as a regular file.
  static DebugSymbols from_file(const std::string& path);
  static DebugSymbols from_elf(const ElfImage& img);
  // nouveau's labels for `chip`'s `unit` ("hub"/"gpc"); empty when not built in.
  static DebugSymbols nouveau(const std::string& chip, const std::string& unit);

  bool empty() const { return syms_.empty(); }
  size_t size() const { return syms_.size(); }
  const std::string& source() const { return source_; }
  // The code address of `name`, if a code symbol has it.
  std::optional<uint32_t> find(const std::string& name) const;
  // "main" or "main+0x6" for a code address at or after a code symbol (within 64 KiB), else "".
  std::string describe(uint32_t addr) const;
  // The code symbol that starts exactly at addr ("" when none).
  std::string at(uint32_t addr) const;

 private:
  void add(uint32_t addr, const std::string& name, bool code) { syms_.push_back({addr, name, code}); }
  std::vector<DebugSymbol> syms_;
  std::string source_;
};

}  // namespace hetvp::sw
