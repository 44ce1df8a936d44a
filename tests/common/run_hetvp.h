// Test helpers: run the `hetvp` program as a child process (every run is its own SystemC
// elaboration) and look at what it printed and wrote.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

namespace hetvp::test {

inline std::string source_dir() {
  const char* s = std::getenv("HETVP_SOURCE_DIR");
  return s ? s : HETVP_SOURCE_DIR;
}
inline std::string binary_dir() {
  const char* b = std::getenv("HETVP_BINARY_DIR");
  return b ? b : ".";
}
inline std::string config(const std::string& name) { return source_dir() + "/configs/" + name; }

// A scratch directory unique to this test process.
inline std::string scratch() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/hetvp-test-XXXXXX";
    return std::string(mkdtemp(tmpl));
  }();
  return dir;
}

inline std::string write_file(const std::string& name, const std::string& text) {
  std::string path = scratch() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// A --stats file without its two wall-clock fields (run.host_seconds, run.sim_rate): what two runs
// of the same seed give byte for byte.
inline std::string without_host_time(const std::string& stats) {
  std::string out;
  size_t b = 0;
  while (b < stats.size()) {
    size_t e = stats.find('\n', b);
    e = e == std::string::npos ? stats.size() : e + 1;
    const std::string line = stats.substr(b, e - b);
    if (line.find("\"host_seconds\"") == std::string::npos && line.find("\"sim_rate\"") == std::string::npos)
      out += line;
    b = e;
  }
  return out;
}

// A stats file's per-component statistics ("components" to the end): the run section before it
// holds the resolved configuration, whose keys repeat the instance and parameter-group names.
inline std::string components_section(const std::string& stats) {
  const auto p = stats.find("\"components\"");
  return p == std::string::npos ? stats : stats.substr(p);
}

struct RunResult {
  int status = -1;
  std::string out, err;
};

// A sanitizer's report in a child's output (AddressSanitizer, LeakSanitizer, UBSan: "runtime
// error:"), or "" when there is none. In a -DHETVP_SANITIZE=ON build a report is a failure of the
// test whatever exit status the test expects: a leak in a run that is meant to fail is still a leak.
inline std::string sanitizer_report(const std::string& text) {
  for (const char* mark : {"Sanitizer", "runtime error:"}) {
    const auto p = text.find(mark);
    if (p != std::string::npos) return text.substr(text.rfind('\n', p) == std::string::npos ? 0 : text.rfind('\n', p) + 1);
  }
  return "";
}
inline void expect_no_sanitizer_report(const std::string& what, const std::string& err) {
  const std::string rep = sanitizer_report(err);
  if (!rep.empty()) ADD_FAILURE() << what << ": sanitizer report in the child's stderr:\n" << rep.substr(0, 8000);
}

// Runs `hetvp ARGS` (ARGS is a shell-quoted string) and captures stdout, stderr and the exit status.
// With timeout_s > 0 a run still going after that many seconds is killed: status 124 (timeout(1)).
// Any sanitizer report in the child's stderr fails the calling test (expect_no_sanitizer_report).
inline RunResult run_hetvp(const std::string& args, int timeout_s = 0) {
  static int n = 0;
  std::string o = scratch() + "/out" + std::to_string(n), e = scratch() + "/err" + std::to_string(n);
  ++n;
  std::string limit = timeout_s > 0 ? "timeout -k 2 " + std::to_string(timeout_s) + " " : "";
  std::string cmd = limit + binary_dir() + "/hetvp " + args + " >" + o + " 2>" + e;
  int rc = std::system(cmd.c_str());
  RunResult r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  r.out = read_file(o);
  r.err = read_file(e);
  expect_no_sanitizer_report("hetvp " + args, r.err);
  return r;
}

// A CSV file as rows of cells (first row = header).
inline std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace hetvp::test
