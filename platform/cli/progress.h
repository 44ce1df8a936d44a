// hetvp — `hetvp run`'s progress line on stderr: simulated time and simulation rate, and where the
// amount of work is known, the percent done and an ETA:
//   - the workload's own count (platform/work_progress.h: transfer points, gpu_bench runs): "work 12/26
//     (46 %), ETA 8 s", the ETA from the wall time per unit of work so far;
//   - otherwise simulation.time_limit: "3.1 % of the 600 s time limit, ETA <= 9 min" (the run
//     ends at the limit at the latest: an upper bound at the current simulation rate).
// (`hetvp sweep` shows its points done, percent and ETA itself: platform/cli/sweep/runner.cpp.)
//
// The simulation runs as consecutive sc_start() slices up to the limit instead of one
// sc_start(limit); between two slices nothing is simulated and only sc_time_stamp() is read, so
// the models see the same events in the same order (SystemC triggers the notifications at a
// slice's end time and runs them at the start of the next slice, as one sc_start would). The
// slice length adapts so that a slice takes about a tenth of a second of wall time.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include <systemc>

namespace hetvp {
struct RunContext;
}

namespace hetvp::cli {

class ProgressDisplay {
 public:
  // On a terminal one line rewritten in place (cleared when a simulate() call returns), otherwise
  // a line a second, one each time the workload's count passes another tenth of its total (a
  // short run still shows its steps), and one where the run ends.
  ProgressDisplay(std::ostream& err, bool terminal);
  // Runs the simulation up to the absolute time `until` (RunOptions::simulate; `limit`:
  // simulation.time_limit), or until it pauses or stops before (RunState: the workload finished or
  // failed), printing progress (`run`: the workload's WorkProgress). Called again for the next
  // stretch (--stats-every), it goes on with the same clock and slice length.
  void simulate(const sc_core::sc_time& until, const sc_core::sc_time& limit, RunContext& run);

  // The line for simulated time `sim_s` after `wall_s` seconds, with the work done of `total`
  // (0: unknown, then the time limit's share).
  static std::string line(double sim_s, double wall_s, double limit_s, uint64_t done, uint64_t total);

 private:
  using Clock = std::chrono::steady_clock;
  void report(Clock::time_point now, const sc_core::sc_time& limit, RunContext& run);
  bool passed_a_tenth(RunContext& run);  // on a log: the work count passed another tenth since the last line
  std::ostream& err_;
  bool terminal_;
  Clock::time_point start_, last_report_;
  sc_core::sc_time slice_;
  bool shown_ = false;
  uint64_t tenths_ = 0;  // of the work count, at the last line on a log
};

}  // namespace hetvp::cli
