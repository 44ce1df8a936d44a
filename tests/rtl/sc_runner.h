// hetvp tests — run test bodies inside an SC_THREAD across several gtest TESTs.
// SystemC elaborates once per process: every module (RTL engines included) must be constructed
// before the first sc_start. ScRunner's thread executes one job at a time; run() hands it a job
// and advances the simulation until the job is finished, re-throwing its exception in the caller.
#pragma once

#include <systemc>

#include <exception>
#include <functional>

namespace hetvp::test {

class ScRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ScRunner);
  explicit ScRunner(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(loop); }

  void run(std::function<void()> job) {
    job_ = std::move(job);
    err_ = nullptr;
    while (job_) sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    if (err_) std::rethrow_exception(err_);
  }

 private:
  void loop() {
    for (;;) {
      if (job_) {
        try {
          job_();
        } catch (...) {
          err_ = std::current_exception();
        }
        job_ = nullptr;
      }
      wait(100, sc_core::SC_NS);
    }
  }
  std::function<void()> job_;
  std::exception_ptr err_;
};

}  // namespace hetvp::test
