// How much of its work a workload has done, when it knows the whole (a sweep of transfer points, a
// number of benchmark runs): `hetvp run --progress` shows the percent and an ETA from it
// (platform/cli/progress.h). A run-wide service (RunContext::service): a host program reports as it
// goes through its CPU, `api.progress(points_done, points)` (models/host/host_api.h), which the
// host CPU model sets here; nothing set (total 0) means unknown, and the progress line falls back
// to simulation.time_limit's share.
#pragma once

#include <cstdint>
#include <functional>

#include "platform/run_context.h"

namespace hetvp {

struct WorkProgress {
  explicit WorkProgress(RunContext&) {}
  void set(uint64_t done_now, uint64_t of_total) {
    done = done_now;
    total = of_total;
    if (changed) changed();
  }
  uint64_t done = 0, total = 0;
  // Called after each set() by whoever shows the progress (platform/cli/progress.cpp: a log's line
  // per tenth of the work); may be empty.
  std::function<void()> changed;
};

}  // namespace hetvp
