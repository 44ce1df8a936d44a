#include "platform/arrival_queue.h"
#include "platform/sim_time.h"

namespace hetvp {

ArrivalQueue::ArrivalQueue(sc_core::sc_module_name n) : sc_core::sc_module(n) {
  SC_HAS_PROCESS(ArrivalQueue);
  SC_METHOD(fire);
  sensitive << wake_;
  dont_initialize();
}

void ArrivalQueue::at(const sc_core::sc_time& delay, std::function<void()> work) {
  if (delay == sc_core::SC_ZERO_TIME) return work();
  due_.emplace(hetvp::sim_now() + delay, std::move(work));
  wake_.notify(due_.begin()->first - hetvp::sim_now());  // an earlier notification wins
}

void ArrivalQueue::fire() {
  const sc_core::sc_time now = hetvp::sim_now();
  while (!due_.empty() && due_.begin()->first <= now) {
    auto work = std::move(due_.begin()->second);
    due_.erase(due_.begin());
    work();  // may queue more work
  }
  if (!due_.empty()) wake_.notify(due_.begin()->first - now);
}

}  // namespace hetvp
