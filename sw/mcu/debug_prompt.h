// hetvp — the interactive prompt of `hetvp debug CONFIG` (no --script, no --commands): one debug
// line at a time from the terminal, with line editing and history through Debian's libedit when
// hetvp was built with it (libedit-dev), else a plain line reader with its own history. The
// simulation waits while the prompt does (it runs in the host program's thread).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace hetvp::sw {

class DebugPrompt {
 public:
  DebugPrompt(std::istream& in, std::ostream& out);
  // The next line; false at end of input (Ctrl-D) or after `quit`/`exit`.
  bool next(std::string& line);
  // Lines entered so far (what `history` prints).
  const std::vector<std::string>& history() const { return history_; }
  // "libedit" or "plain": how lines are read.
  static const char* editor();

 private:
  std::istream& in_;
  std::ostream& out_;
  std::vector<std::string> history_;
  bool edit_;  // libedit on a terminal
};

// What `help` prints: every debug command with its arguments (docs/firmware.md has the same list).
const char* debug_help_text();

}  // namespace hetvp::sw
