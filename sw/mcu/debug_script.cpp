#include "sw/mcu/debug_script.h"

#include <cstdio>
#include <sstream>

#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

std::vector<std::string> debug_script_lines(const std::string& script, const std::string& commands) {
  std::vector<std::string> lines;
  std::stringstream in(script);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::stringstream cs(commands);
  for (std::string l; std::getline(cs, l, ';');) lines.push_back(l);
  return lines;
}

std::string debug_script_problem(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') {
      char b[96];
      std::snprintf(b, sizeof b, "not a text file (byte 0x%02x at offset %zu)", c, i);
      return std::string(b) + ": a debug script is text, one command per line";
    }
  }
  const std::vector<std::string> lines = debug_script_lines(text, "");
  for (size_t i = 0; i < lines.size(); ++i)
    if (!parse_debug_line(lines[i], i + 1).words.empty()) return "";
  return "no debug command in it (empty, or only blank lines and '#' comments)";
}

DebugLine parse_debug_line(const std::string& raw, size_t number) {
  DebugLine l;
  l.number = number;
  l.text = raw;
  if (auto h = l.text.find('#'); h != std::string::npos) l.text.erase(h);
  std::stringstream ss(l.text);
  for (std::string t; ss >> t;) l.words.push_back(t);
  return l;
}

std::string debug_echo_text(const DebugLine& l) {
  const size_t p = l.text.find("echo") + 5;  // "echo" alone has no text after it
  return p < l.text.size() ? l.text.substr(p) : std::string();
}

uint64_t DebugValues::value(const std::string& t) const {
  if (t == "$last") return last;
  if (!t.empty() && t[0] == '$') {
    std::string n = t.substr(1);
    int part = 0;  // $NAME.lo / $NAME.hi: the low / high 32 bits of a 64-bit value (GPU VAs)
    if (n.size() > 3 && (n.compare(n.size() - 3, 3, ".lo") == 0 || n.compare(n.size() - 3, 3, ".hi") == 0)) {
      part = n.back() == 'o' ? 1 : 2;
      n.resize(n.size() - 3);
    }
    auto it = vars.find(n);
    if (it != vars.end() && part) return part == 1 ? (it->second & 0xffffffffu) : (it->second >> 32);
    if (it == vars.end()) throw McuError("debug: unknown variable " + t);
    return it->second;
  }
  size_t pos = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(t, &pos, 0);
  } catch (const std::out_of_range&) {  // the line's handler catches McuError, not this
    throw McuError("debug: number out of range (64 bits): '" + t + "'");
  }
  if (pos != t.size()) throw McuError("debug: not a number: '" + t + "'");
  return v;
}

}  // namespace hetvp::sw
