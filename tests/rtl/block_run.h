// One run of a configuration text in a child process, for the tests of RTL blocks behind the
// register bridges (test_rtl_targets.cpp, test_rtl_relax.cpp): SystemC elaborates once per
// process, so each run forks.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/child_exit.h"
#include "common/run_hetvp.h"
#include "platform/simulation.h"

namespace hetvp::test {

struct Outcome {
  int status;
  std::string text, stats;  // stdout + stderr; the --stats file
};

inline Outcome run(const std::string& config_text, std::vector<std::string> sets) {
  static int n = 0;
  const std::string dir = scratch(), tag = std::to_string(getpid()) + "_" + std::to_string(n++);
  RunOptions opt;
  opt.config = write_file("targets_" + tag + ".yaml", config_text);
  opt.overrides = std::move(sets);
  opt.stats_path = dir + "/stats_" + tag + ".json";
  const std::string text_path = dir + "/text_" + tag + ".txt";
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    std::ostringstream out, err;
    const int st = run_platform(opt, out, err);
    std::ofstream(text_path) << out.str() << err.str();
    fflush(nullptr);
    exit_child(st);  // LeakSanitizer's check first (tests/common/child_exit.h)
  }
  int ws = 0;
  waitpid(pid, &ws, 0);
  return {WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, read_file(text_path), read_file(opt.stats_path)};
}

// The line of `text` that starts with `prefix` ("" if none).
inline std::string line_of(const std::string& text, const std::string& prefix) {
  const size_t p = text.find(prefix);
  return p == std::string::npos ? std::string() : text.substr(p, text.find('\n', p) - p);
}

// A stats text without the lines of `mode: lockstep`'s own counters (lockstep_*) and without the
// commas at the ends of lines (whose place those lines change): what must be equal in every mode.
inline std::string without_lockstep(const std::string& stats) {
  std::istringstream in(stats);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    if (l.find("\"lockstep_") != std::string::npos) continue;
    if (!l.empty() && l.back() == ',') l.pop_back();
    out += l + "\n";
  }
  return out;
}

}  // namespace hetvp::test
