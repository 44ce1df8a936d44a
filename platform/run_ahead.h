// A quantum keeper that synchronises only when the synchronisation can be observed (issue #31).
//
// tlm_quantumkeeper waits (two coroutine switches) every time an initiator's local time crosses a
// quantum boundary. An uncached read's round trip is often longer than the quantum (a BAR1 read:
// ~1.7 us against 1 us), so a read loop waits once per read — although, when no other process has
// anything to do before the initiator's local time, that wait only moves SystemC time forward:
// no other process runs during it, so nothing can observe whether it happened.
//
// RunAheadKeeper keeps the plain keeper's sync points (same quantum boundaries, computed from the
// initiator's own current time as the plain keeper would have computed them after its wait) and,
// at each one, waits only if another process has activity pending at or before the initiator's
// local time (or at the current time: a runnable process, a delta notification, an update).
// Otherwise it records the sync point as passed and goes on with its local offset. Everything a
// target computes from `sc_time_stamp() + delay` is the same either way; the order in which
// processes run is the same; results are identical to tlm_quantumkeeper's (tests/platform
// test_run_ahead.cpp, and the byte-identical stats in docs/benchmarks.md "Speed").
//
// Two bounds keep it honest: the offset never exceeds `max_lag` without a real wait (so a program
// that spins on an address nobody writes still reaches the simulation's time limit, within
// max_lag), and sync() / reset() keep their plain meaning for callers that must be at current time
// (waiting for an interrupt, sleeping, the end of the program).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm_utils/tlm_quantumkeeper.h>
#include "platform/sim_time.h"

namespace hetvp {

// No other process has anything to do within `ahead` of the current time, nor at the current time
// (a runnable process, a delta notification, an update): a wait of `ahead` would be seen by nobody.
// The test RunAheadKeeper applies at its sync points, for initiators that keep their own local time.
// sc_time_to_pending_activity() is zero when something is pending at the current time (IEEE 1666
// 4.5.7), so one call answers both questions (#31: the test runs at every sync point passed).
inline bool unobserved_for(const sc_core::sc_time& ahead) { return sc_core::sc_time_to_pending_activity() > ahead; }

class RunAheadKeeper : public tlm_utils::tlm_quantumkeeper {
 public:
  explicit RunAheadKeeper(const sc_core::sc_time& max_lag = sc_core::sc_time(100, sc_core::SC_US))
      : max_lag_(max_lag) {}

  // At a sync point (need_sync()): wait if someone else could observe the difference, else pass
  // the point in local time. Call instead of `if (need_sync()) sync();`.
  void sync_if_needed() {
    const sc_core::sc_time now = hetvp::sim_now();
    const sc_core::sc_time target = now + m_local_time;
    if (target < m_next_sync_point) return;  // need_sync(), with the current time read once
    if (m_local_time <= max_lag_ && unobserved_for(m_local_time)) {
      ++passed_;
      // The plain keeper's reset() after a wait ending at `target`.
      const sc_core::sc_time& q = tlm::tlm_global_quantum::instance().get();
      m_next_sync_point = q == sc_core::SC_ZERO_TIME ? target : target + (q - target % q);
      return;
    }
    ++waits_;
    sync();
  }

  uint64_t waits() const { return waits_; }    // sync points that waited
  uint64_t passed() const { return passed_; }  // sync points passed in local time

 private:
  sc_core::sc_time max_lag_;
  uint64_t waits_ = 0, passed_ = 0;
};

}  // namespace hetvp
