// What a run has come to: the place where models and host programs report the end of the
// run or a failure of the simulated system (a workload self-check, a firmware trap that ends
// the run, a lockstep mismatch). The `hetvp` program maps it to the exit status:
// 0 success, 1 simulated failure. Each run has its own (RunContext, platform/run_context.h);
// a model reaches it through run_state() of its Component base.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hetvp {

class RunState {
 public:
  // The simulated system failed: records who and why, and stops the simulation.
  void fail(const std::string& who, const std::string& why);
  // The workload finished (code 0 = success); stops the simulation.
  void finish(int code, const std::string& summary);
  // A model made progress (deadlock detection watches this).
  void progress() { ++progress_; }
  uint64_t progress_count() const { return progress_; }

  bool failed() const { return !failures_.empty(); }
  bool finished() const { return finished_; }
  int workload_code() const { return code_; }
  const std::vector<std::string>& failures() const { return failures_; }
  const std::vector<std::string>& summary() const { return summary_; }
  void add_summary(const std::string& line) { summary_.push_back(line); }

 private:
  std::vector<std::string> failures_;
  std::vector<std::string> summary_;
  bool finished_ = false;
  int code_ = 0;
  uint64_t progress_ = 0;
};

}  // namespace hetvp
