// hetvp tests — run test bodies inside an SC_THREAD across several gtest TESTs.
// SystemC elaborates once per process: every module (RTL engines included) must be constructed
// before the first sc_start. ScRunner's thread executes one job at a time; run() hands it a job
// and advances the simulation until the job is finished, re-throwing its exception in the caller.
#pragma once

#include <systemc>

#include <exception>
#include <functional>

#if defined(__SANITIZE_ADDRESS__)
#define HETVP_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HETVP_TEST_ASAN 1
#endif
#endif
#ifdef HETVP_TEST_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "common/test_run.h"

namespace hetvp::test {

// SystemC 2.3.4 tells AddressSanitizer about its coroutine switches but gives the switch back to
// the main stack an empty range. Until told otherwise ASan then ignores __asan_handle_no_return
// on the main stack ("ASan is ignoring requested __asan_handle_no_return: stack type: default
// top: 0x000000000000"), so the frames an exception unwinds there stay poisoned and the next call
// that reuses them is reported as a stack-use-after-scope. Tell ASan the main thread's stack again.
inline void resync_sanitizer_stack() {
#ifdef HETVP_TEST_ASAN
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* base = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  __sanitizer_start_switch_fiber(nullptr, base, size);
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

class ScRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ScRunner);
  explicit ScRunner(sc_core::sc_module_name n) : sc_core::sc_module(n) { SC_THREAD(loop); }

  void run(std::function<void()> job) {
    job_ = std::move(job);
    err_ = nullptr;
    while (job_) hetvp::test::start(sc_core::sc_time(1, sc_core::SC_US));
    resync_sanitizer_stack();  // before an exception unwinds frames of the main stack
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
