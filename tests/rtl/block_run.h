// One run of a configuration text in a child process, for the tests of RTL blocks behind the
// register bridges (test_rtl_targets.cpp, test_rtl_relax.cpp): SystemC elaborates once per
// process, so each run is a child process.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "platform/simulation.h"

namespace hetvp::test {

struct Outcome {
  int status;
  std::string text, stats;  // stdout + stderr; the --stats file
};

// The child is this test program run again (exec), entering RtlTargetsChild.DISABLED_Run
// (test_rtl_targets.cpp): a fresh process whose exit LeakSanitizer checks as it checks any
// program's. (A forked child that ran SystemC and checked itself with __lsan_do_leak_check
// reported what the parent's stack frames hold as leaked under Debian's GCC 12 sanitizer runtime.)
constexpr const char* kBlockRunChildEnv = "HETVP_RTL_TARGETS_CHILD";  // config, stats, text file, overrides: one a line

inline Outcome run(const std::string& config_text, std::vector<std::string> sets) {
  static int n = 0;
  const std::string dir = scratch(), tag = std::to_string(getpid()) + "_" + std::to_string(n++);
  const std::string config = write_file("targets_" + tag + ".yaml", config_text);
  const std::string stats = dir + "/stats_" + tag + ".json", text_path = dir + "/text_" + tag + ".txt";
  std::string request = config + "\n" + stats + "\n" + text_path;
  for (const std::string& s : sets) request += "\n" + s;
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv(kBlockRunChildEnv, request.c_str(), 1);
    if (!freopen("/dev/null", "w", stdout)) _exit(126);  // the child's gtest banner
    execl("/proc/self/exe", "rtl_block_run_child", "--gtest_also_run_disabled_tests",
          "--gtest_filter=RtlTargetsChild.DISABLED_Run", static_cast<char*>(nullptr));
    _exit(127);  // exec failed: nothing of the parent's to check
  }
  int ws = 0;
  waitpid(pid, &ws, 0);
  return {WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, read_file(text_path), read_file(stats)};
}

// The child's side of run(), called by RtlTargetsChild.DISABLED_Run: runs the request, writes the
// text, and ends the process with the run's status through exit() (LeakSanitizer's check included).
[[noreturn]] inline void block_run_child(const char* request) {
  std::istringstream lines(request);
  std::string stats, text_path;
  RunOptions opt;
  std::getline(lines, opt.config);
  std::getline(lines, stats);
  std::getline(lines, text_path);
  opt.stats_path = stats;
  for (std::string s; std::getline(lines, s);) opt.overrides.push_back(s);
  std::ostringstream out, err;
  const int st = run_platform(opt, out, err);
  std::ofstream(text_path) << out.str() << err.str();
  std::exit(st);
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
