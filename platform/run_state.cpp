#include "platform/run_state.h"

#include <systemc>

namespace hetvp {

// Both pause rather than stop the simulation: it ends at the end of the current delta cycle
// either way, but a paused simulation can still run the one delta in which run_platform ends the
// threads left suspended (platform/simulation.cpp, end_unfinished_threads), so that what their
// frames own is released. After sc_stop, SystemC 2.3.4 lets no process run again.
void RunState::fail(const std::string& who, const std::string& why) {
  failures_.push_back(who + ": " + why);
  sc_core::sc_pause();
}

void RunState::finish(int code, const std::string& summary) {
  finished_ = true;
  code_ = code;
  (void)summary;
  sc_core::sc_pause();
}

}  // namespace hetvp
