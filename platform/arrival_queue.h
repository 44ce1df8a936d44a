// Work that a register access starts, run at the access's arrival time.
//
// With temporal decoupling an initiator runs ahead of SystemC time, so a register write reaches
// its target "early", annotated with the delay until it really arrives (AccessContext). A target
// whose write starts work another process will see (a command interrupt, a wake-up) must not
// start it at the current SystemC time: it hands the work to an ArrivalQueue, which runs it at
// sc_time_stamp() + delay. Work due at the same time runs in the order it was queued.
#pragma once

#include <functional>
#include <map>

#include <systemc>

namespace hetvp {

class ArrivalQueue : public sc_core::sc_module {
 public:
  explicit ArrivalQueue(sc_core::sc_module_name name);
  // Runs `work` `delay` from now; at once when `delay` is zero.
  void at(const sc_core::sc_time& delay, std::function<void()> work);
  size_t pending() const { return due_.size(); }
  // Absolute time of the earliest queued work; sc_max_time() when none is queued.
  sc_core::sc_time next_due() const { return due_.empty() ? sc_core::sc_max_time() : due_.begin()->first; }

 private:
  void fire();
  std::multimap<sc_core::sc_time, std::function<void()>> due_;  // absolute time -> work
  sc_core::sc_event wake_;
};

}  // namespace hetvp
