// How much of its work a workload has done, when it knows the whole (a sweep of transfer points, a
// number of benchmark runs): `hetvp run --progress` shows the percent and an ETA from it
// (platform/cli/progress.h). A run-wide service (RunContext::service): a host program sets it as
// it goes, `run_context().service<WorkProgress>().set(points_done, points)`; nothing set (total 0)
// means unknown, and the progress line falls back to simulation.time_limit's share.
#pragma once

#include <cstdint>

#include "platform/run_context.h"

namespace hetvp {

struct WorkProgress {
  explicit WorkProgress(RunContext&) {}
  void set(uint64_t done_now, uint64_t of_total) {
    done = done_now;
    total = of_total;
  }
  uint64_t done = 0, total = 0;
};

}  // namespace hetvp
