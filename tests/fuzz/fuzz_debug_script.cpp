// Fuzz harness: the `hetvp debug` script language (sw/mcu/debug_script.*, executed by the debug
// host program in sw/mcu/debug_program.cpp). The input is a script (before the first 0 byte) and a
// ';'-separated command string (after it). Each line goes through what the debug program does
// before it touches the hardware: tokenizing, the argument count, the target name
// (McuId::parse), firmware command names (fw_command_number), the values of every numeric argument
// (numbers, $last, $NAME, $NAME.lo/.hi) and `set`. The debug program catches McuError and
// std::invalid_argument per line and reports "debug:LINE: error: ..."; anything else escaping a line
// would end the run without naming the line, so it is a finding here.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "sw/mcu/debug_script.h"
#include "sw/driver/mcu_driver.h"

using namespace hetvp::sw;

namespace {
// Words each command needs (including itself), as the debug program's need(): 0 = unknown command.
const std::map<std::string, size_t> kNeed{{"boot", 1},   {"load", 3},  {"start", 2}, {"stop", 2},  {"cont", 2},
                                          {"reset", 2},  {"step", 2},  {"wait", 3},  {"cmd", 3},   {"read", 3},
                                          {"write", 4},  {"regs", 2},  {"dump", 4},  {"alloc", 3}, {"set", 3},
                                          {"expect", 2}, {"state", 2}, {"echo", 1},  {"sleep", 2}};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  const char* p = reinterpret_cast<const char*>(data);
  const char* nul = static_cast<const char*>(std::memchr(p, 0, size));
  const std::string script(p, nul ? size_t(nul - p) : size);
  const std::string commands = nul ? std::string(nul + 1, size - (nul - p) - 1) : std::string();
  const auto lines = debug_script_lines(script, commands);
  DebugValues vals;
  for (size_t ln = 0; ln < lines.size(); ++ln) {
    const DebugLine l = parse_debug_line(lines[ln], ln + 1);
    if (l.words.empty()) continue;
    const auto& w = l.words;
    try {
      auto it = kNeed.find(w[0]);
      if (it == kNeed.end() || w.size() < it->second) continue;  // McuError in the program
      const std::string& op = w[0];
      if (op == "echo") {
        (void)debug_echo_text(l);
        continue;
      }
      if (op == "set") {
        vals.vars[w[1]] = vals.value(w[2]);
        continue;
      }
      if (op == "expect" || op == "sleep") {
        (void)vals.value(w[1]);
        continue;
      }
      if (op == "alloc") {
        (void)vals.value(w[2]);
        vals.vars[w[1]] = 0x100000000ull + ln * 0x1000;
        continue;
      }
      if (op != "boot") (void)McuId::parse(w[1], 4);
      if (op == "cmd") {
        (void)fw_command_number(w[2]);
        for (size_t i = 3; i < w.size(); ++i)
          if (w[i] != "notify") (void)vals.value(w[i]);
      } else if (op == "read" || op == "write" || op == "dump" || op == "step") {
        for (size_t i = 2; i < w.size() && i < it->second + 1; ++i) vals.last = uint32_t(vals.value(w[i]));
      } else if (op == "wait" && w.size() > 3) {
        (void)vals.value(w[3]);
      }
    } catch (const McuError&) {
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
