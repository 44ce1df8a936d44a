// The run that models a test builds by hand report to (platform/run_context.h): the builder gives
// each component its run; a test that builds models itself starts the simulation through
// hetvp::test::start, which gives every module it made the test's run first, and reads the outcome
// from hetvp::test::run(). Each gtest that simulates runs in its own process under ctest, so one
// run per process is one run per test.
#pragma once

#include <systemc>

#include "platform/run_context.h"

namespace hetvp::test {

inline RunContext& run() {
  static RunContext r;
  return r;
}
inline RunState& run_state() { return run().run_state; }

// Every module of the simulation joins the test's run, then sc_start(args...).
template <class... Args>
void start(Args&&... args) {
  for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) join_run(*o, run());
  sc_core::sc_start(std::forward<Args>(args)...);
}

}  // namespace hetvp::test
