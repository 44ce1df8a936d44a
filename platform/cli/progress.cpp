// hetvp — `hetvp run`'s progress line (progress.h).
#include "platform/cli/progress.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "platform/run_stop.h"
#include "platform/work_progress.h"

namespace hetvp::cli {
namespace {

// "12.345 ms": simulated time in the largest unit that keeps it >= 1.
std::string sim_time_text(double s) {
  const char* units[] = {"s", "ms", "us", "ns", "ps"};
  int u = 0;
  while (u < 4 && s != 0 && s < 1) s *= 1e3, ++u;
  char b[48];
  std::snprintf(b, sizeof b, "%.3f %s", s, units[u]);
  return b;
}

// "8 s", "3 min 20 s", "2 h 5 min": a wall-clock duration to the second.
std::string wall_text(double s) {
  const long t = static_cast<long>(s + 0.5);
  char b[48];
  if (t < 60)
    std::snprintf(b, sizeof b, "%ld s", t);
  else if (t < 3600)
    std::snprintf(b, sizeof b, "%ld min %ld s", t / 60, t % 60);
  else
    std::snprintf(b, sizeof b, "%ld h %ld min", t / 3600, t / 60 % 60);
  return b;
}

}  // namespace

std::string ProgressDisplay::line(double sim_s, double wall_s, double limit_s, uint64_t done, uint64_t total) {
  char b[160];
  std::string known;
  if (total > 0) {  // the workload's count: ETA from the wall time per unit done
    const uint64_t d = std::min(done, total);
    std::snprintf(b, sizeof b, "work %llu/%llu (%.0f %%), ETA ", static_cast<unsigned long long>(d),
                  static_cast<unsigned long long>(total), 100.0 * double(d) / double(total));
    known = b + (d > 0 ? wall_text(wall_s / double(d) * double(total - d)) : std::string("?")) + "; ";
  } else if (limit_s > 0) {  // the time limit: an upper bound at the current rate
    std::snprintf(b, sizeof b, "%.1f %% of the %s time limit, ETA <= ", 100.0 * std::min(sim_s / limit_s, 1.0),
                  sim_time_text(limit_s).c_str());
    known = b + (sim_s > 0 ? wall_text(wall_s / sim_s * (limit_s - std::min(sim_s, limit_s))) : std::string("?")) +
            "; ";
  }
  std::snprintf(b, sizeof b, "%.1f", wall_s);
  return "progress: " + known + "simulated " + sim_time_text(sim_s) + " in " + b + " s wall, " +
         sim_time_text(wall_s > 0 ? sim_s / wall_s : 0) + " simulated per wall second";
}

ProgressDisplay::ProgressDisplay(std::ostream& err, bool terminal)
    : err_(err), terminal_(terminal), start_(Clock::now()), last_report_(start_), slice_(1, sc_core::SC_US) {}

void ProgressDisplay::report(Clock::time_point now, const sc_core::sc_time& limit, RunContext& run) {
  const WorkProgress& work = run.service<WorkProgress>();
  const std::string l = line(sc_core::sc_time_stamp().to_seconds(), std::chrono::duration<double>(now - start_).count(),
                             limit.to_seconds(), work.done, work.total);
  if (terminal_)
    err_ << "\r\033[K" << l << std::flush;
  else
    err_ << l << "\n" << std::flush;
  shown_ = true;
}

bool ProgressDisplay::passed_a_tenth(RunContext& run) {
  const WorkProgress& work = run.service<WorkProgress>();
  if (terminal_ || work.total == 0) return false;
  const uint64_t tenths = std::min(work.done, work.total) * 10 / work.total;
  if (tenths == tenths_) return false;
  tenths_ = tenths;
  return true;
}

void ProgressDisplay::simulate(const sc_core::sc_time& until, const sc_core::sc_time& limit, RunContext& run) {
  const double report_every_s = terminal_ ? 0.25 : 1.0;
  const double target_slice_wall_s = 0.1;
  // Clears the terminal's progress line however the call ends (an exception from sc_start too).
  struct Clear {
    ProgressDisplay& d;
    WorkProgress& work;
    ~Clear() {
      if (d.terminal_ && d.shown_) d.err_ << "\r\033[K" << std::flush;
      d.shown_ = false;
      work.changed = nullptr;
    }
  } clear{*this, run.service<WorkProgress>()};
  // On a log, a line as the workload's count passes each tenth of its total, when it happens:
  // a short run's slices are too few to show its steps.
  if (!terminal_)
    clear.work.changed = [this, &run, limit] {
      if (!passed_a_tenth(run)) return;
      last_report_ = Clock::now();
      report(last_report_, limit, run);
    };

  bool ended = false;
  while (sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_time_stamp() < until) {
    if (run_stop_requested()) {  // an interrupt at a slice's very end: no next slice
      ended = true;
      break;
    }
    const Clock::time_point t0 = Clock::now();
    const sc_core::sc_time slice_end = sc_core::sc_time_stamp() + std::min(slice_, until - sc_core::sc_time_stamp());
    sc_core::sc_start(slice_end - sc_core::sc_time_stamp());
    const Clock::time_point t1 = Clock::now();
    // The run ended inside the slice (RunState's sc_pause: the workload finished or failed; or
    // sc_stop): sc_start returned before the slice's end. A pause requested by a process at the
    // slice's end time happens in the next slice (its processes run there), so this catches it.
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || sc_core::sc_time_stamp() < slice_end) {
      ended = true;
      break;
    }
    // Aim the next slice at target_slice_wall_s, changing it by at most 8x at a time.
    const double wall = std::chrono::duration<double>(t1 - t0).count();
    const double factor = wall > 0 ? std::clamp(target_slice_wall_s / wall, 0.125, 8.0) : 8.0;
    slice_ = std::max(sc_core::sc_time(1, sc_core::SC_NS), slice_ * factor);
    if (std::chrono::duration<double>(t1 - last_report_).count() < report_every_s) continue;
    last_report_ = t1;
    report(t1, limit, run);
  }
  // A log's last progress line: where the run ended, at what rate (not at a --stats-every stop).
  ended = ended || sc_core::sc_get_status() == sc_core::SC_STOPPED || run_stop_requested() || until >= limit;
  if (!terminal_ && ended) report(Clock::now(), limit, run);
}

}  // namespace hetvp::cli
