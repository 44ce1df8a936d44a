// Reservations of a shared resource (a link direction, a bus) in absolute simulated time.
//
// With temporal decoupling, initiators call a shared resource out of time order: one running
// a quantum ahead reserves its slot before another, behind it, asks for an earlier one. A
// single "busy until" cursor would queue the earlier request behind the later one, so results
// would depend on the quantum. A Calendar instead places every request in the first gap at or
// after its own time that is long enough, whatever the order of the calls. Adjacent
// reservations merge, so a saturated stream stays one block and a search stays short.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

namespace hetvp {

class Calendar {
 public:
  // Reserves `len` at the earliest time >= `at` where the resource is free that long; returns
  // the start of the reservation.
  sc_core::sc_time reserve(sc_core::sc_time at, const sc_core::sc_time& len);
  // Forgets reservations over before `t`: no request starts before SystemC's current time.
  void forget_before(const sc_core::sc_time& t);
  // End of the last reservation (SC_ZERO_TIME when none is remembered).
  sc_core::sc_time busy_until() const {
    return head_ == busy_.size() ? sc_core::SC_ZERO_TIME : sc_core::sc_time::from_value(busy_.back().end);
  }
  size_t blocks() const { return busy_.size() - head_; }

 private:
  // [start, end) blocks in time order (integer picoseconds, SystemC's time unit), disjoint and
  // never touching, in busy_[head_..]. Requests come mostly at the end and old blocks leave at the
  // front: forgetting moves head_, and the vector is compacted when the dead prefix outgrows the
  // live part. A contiguous vector (a few hundred blocks at most) makes the binary search and the
  // occasional mid-insert cheap — a std::deque's mid-inserts were 14 % of coherence square (#31).
  struct Block {
    uint64_t start, end;
  };
  std::vector<Block> busy_;
  size_t head_ = 0;
};

}  // namespace hetvp
