// hetvp — `hetvp run`'s progress line (progress.h).
#include "platform/cli/progress.h"
#include "platform/run_stop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

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

}  // namespace

void simulate_with_progress(const sc_core::sc_time& limit, std::ostream& err, bool terminal) {
  using Clock = std::chrono::steady_clock;
  const double report_every_s = terminal ? 0.25 : 1.0;
  const double target_slice_wall_s = 0.1;
  const Clock::time_point start = Clock::now();
  Clock::time_point last_report = start;
  bool shown = false;
  // Clears the terminal's progress line however the run ends (an exception from sc_start too).
  struct Clear {
    std::ostream& err;
    const bool& shown;
    bool terminal;
    ~Clear() {
      if (terminal && shown) err << "\r\033[K" << std::flush;
    }
  } clear{err, shown, terminal};

  auto report = [&](Clock::time_point now) {
    const double sim_s = sc_core::sc_time_stamp().to_seconds();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.1f", elapsed);
    const std::string line = "progress: simulated " + sim_time_text(sim_s) + " in " + wall + " s wall, " +
                             sim_time_text(elapsed > 0 ? sim_s / elapsed : 0) + " simulated per wall second";
    if (terminal)
      err << "\r\033[K" << line << std::flush;
    else
      err << line << "\n" << std::flush;
    shown = true;
  };

  sc_core::sc_time slice = sc_core::sc_time(1, sc_core::SC_US);
  while (sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_time_stamp() < limit &&
         !run_stop_requested()) {  // an interrupt at a slice's very end: no next slice
    const Clock::time_point t0 = Clock::now();
    const sc_core::sc_time slice_end = sc_core::sc_time_stamp() + std::min(slice, limit - sc_core::sc_time_stamp());
    sc_core::sc_start(slice_end - sc_core::sc_time_stamp());
    const Clock::time_point t1 = Clock::now();
    // The run ended inside the slice (RunState's sc_pause: the workload finished or failed; or
    // sc_stop): sc_start returned before the slice's end. A pause requested by a process at the
    // slice's end time happens in the next slice (its processes run there), so this catches it.
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || sc_core::sc_time_stamp() < slice_end) break;
    // Aim the next slice at target_slice_wall_s, changing it by at most 8x at a time.
    const double wall = std::chrono::duration<double>(t1 - t0).count();
    const double factor = wall > 0 ? std::clamp(target_slice_wall_s / wall, 0.125, 8.0) : 8.0;
    slice = std::max(sc_core::sc_time(1, sc_core::SC_NS), slice * factor);
    if (std::chrono::duration<double>(t1 - last_report).count() < report_every_s) continue;
    last_report = t1;
    report(t1);
  }
  if (!terminal) report(Clock::now());  // a log's last progress line: where the run ended, at what rate
}

}  // namespace hetvp::cli
