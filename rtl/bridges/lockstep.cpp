// hetvp — Divergence and LockstepMonitor (lockstep.h).
#include "rtl/bridges/lockstep.h"

namespace hetvp::rtl {

std::string Divergence::report() const {
  return "hetvp/lockstep: " + block + ": first divergence: " + field + " " + std::to_string(index) + ": " + detail +
         ", at " + when.to_string();
}

bool LockstepMonitor::diverge(const std::string& field, uint64_t index, const std::string& detail) {
  if (first_) return false;
  first_ = Divergence{block_, field, index, detail, sc_core::sc_time_stamp()};
  if (write_ring_) ring_note_ = write_ring_();
  return true;
}

}  // namespace hetvp::rtl
