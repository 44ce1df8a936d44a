#include "platform/run_state.h"

#include <systemc>

#include "platform/simulation.h"

namespace hetvp {

RunState& RunState::get() {
  if (SimulationContext* c = SimulationContext::current()) return c->run_state;
  static RunState s;
  return s;
}

void RunState::fail(const std::string& who, const std::string& why) {
  failures_.push_back(who + ": " + why);
  sc_core::sc_stop();
}

void RunState::finish(int code, const std::string& summary) {
  finished_ = true;
  code_ = code;
  (void)summary;
  sc_core::sc_stop();
}

}  // namespace hetvp
