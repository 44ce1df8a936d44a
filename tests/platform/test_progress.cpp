// `hetvp run --progress`'s line (platform/cli/progress.h): the percent and ETA from the workload's
// count of work when it has one, else from simulation.time_limit, else simulated time and rate only.
#include <gtest/gtest.h>

#include "platform/cli/progress.h"

using hetvp::cli::ProgressDisplay;

TEST(Progress, WorkCountGivesPercentAndEta) {
  // 5 of 20 points in 2 s: 6 s to go at that pace.
  EXPECT_EQ(ProgressDisplay::line(1e-3, 2.0, 600, 5, 20),
            "progress: work 5/20 (25 %), ETA 6 s; simulated 1.000 ms in 2.0 s wall, 500.000 us simulated per wall "
            "second");
  EXPECT_EQ(ProgressDisplay::line(1e-3, 2.0, 600, 0, 20).rfind("progress: work 0/20 (0 %), ETA ?; ", 0), 0u);
  EXPECT_EQ(ProgressDisplay::line(1e-3, 200.0, 600, 1, 3).rfind("progress: work 1/3 (33 %), ETA 6 min 40 s; ", 0), 0u);
}

TEST(Progress, WithoutACountTheTimeLimitGivesAnUpperBound) {
  // 1.5 s of a 600 s limit in 3 s wall: 0.25 %, and at 0.5 simulated s per wall second at most
  // 1197 s (19 min 57 s) to the limit.
  EXPECT_EQ(ProgressDisplay::line(1.5, 3.0, 600, 0, 0),
            "progress: 0.2 % of the 600.000 s time limit, ETA <= 19 min 57 s; simulated 1.500 s in 3.0 s wall, "
            "500.000 ms simulated per wall second");
  EXPECT_EQ(ProgressDisplay::line(0, 0.5, 600, 0, 0).rfind("progress: 0.0 % of the 600.000 s time limit, ETA <= ?; ", 0),
            0u);
}

TEST(Progress, NothingKnownShowsSimulatedTimeAndRate) {
  EXPECT_EQ(ProgressDisplay::line(2e-6, 1.0, 0, 0, 0),
            "progress: simulated 2.000 us in 1.0 s wall, 2.000 us simulated per wall second");
}
