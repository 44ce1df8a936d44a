// hetvp — the `debug` tool's script language, without the hardware: splitting a script and its
// ';'-separated commands into lines, a line into words (after '#' comments), and the values of
// arguments (numbers in C syntax, $last, $NAME, $NAME.lo / $NAME.hi). The DebugProgram in
// debug_program.cpp executes the lines; tests/fuzz/fuzz_debug_script.cpp fuzzes this part.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hetvp::sw {

struct DebugLine {
  size_t number = 0;               // 1-based, over script lines then commands
  std::string text;                // the line without its comment
  std::vector<std::string> words;  // whitespace-separated; empty for a blank line
  std::string where() const { return "debug:" + std::to_string(number) + ": "; }
};

// Script lines (split at '\n') followed by `commands` (split at ';').
std::vector<std::string> debug_script_lines(const std::string& script, const std::string& commands);
// Why a script file's text cannot be a debug script ("" when it can): binary bytes (NUL or control
// characters other than whitespace: the message names the first and its offset), or no command at all
// (empty, or only blank lines and comments).
std::string debug_script_problem(const std::string& text);
DebugLine parse_debug_line(const std::string& line, size_t number);
// The text after "echo " of an echo line ("" when there is none).
std::string debug_echo_text(const DebugLine& l);

// Variables of a debug session and the value of an argument. A malformed or unknown value raises
// McuError (or std::invalid_argument for a word that is not a number at all).
struct DebugValues {
  std::map<std::string, uint64_t> vars;
  uint32_t last = 0;
  uint64_t value(const std::string& word) const;
};

}  // namespace hetvp::sw
