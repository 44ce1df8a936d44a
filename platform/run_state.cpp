#include "platform/run_state.h"

#include <systemc>

namespace hetvp {

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
