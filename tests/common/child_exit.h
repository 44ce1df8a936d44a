// Ends a forked test child. _exit() skips what exit() would run, LeakSanitizer's check among them,
// so a child that leaked would pass unseen in the sanitizer build: exit_child runs the check first
// when the test is built with AddressSanitizer (a leak then ends the child with the sanitizer's
// exit status, 121 under bench/sanitize/run.sh, which its parent sees), then _exit(status).
#pragma once

#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HETVP_TEST_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HETVP_TEST_LSAN 1
#endif
#endif

#ifdef HETVP_TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

namespace hetvp::test {

// The exit status every sanitizer report ends a program with in the sanitizer pass
// (bench/sanitize/run.sh's `sanitizer_exit`); no hetvp command returns it (README.md, "Exit status").
constexpr int kSanitizerExitStatus = 121;

[[noreturn]] inline void exit_child(int status) {
#ifdef HETVP_TEST_LSAN
  __lsan_do_leak_check();
#endif
  _exit(status);
}

}  // namespace hetvp::test
