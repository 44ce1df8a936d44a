// `hetvp run --progress` with the workload's own count of its work (HostApi::progress,
// platform/work_progress.h): transfer reports its points, gpu_bench its runs, the coherence
// programs their iterations or random programs. On a log (stderr is a file here) a line each time
// the count passes another tenth of the total, and one where the run ends: the percent goes up to
// 100 %, and the total is the workload's.
#include <regex>
#include <sstream>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
struct Work {
  uint64_t done, total;
  int percent;
};
// The "work D/T (P %)" of each progress line, in order.
std::vector<Work> work_lines(const std::string& err) {
  static const std::regex re(R"(^progress: work (\d+)/(\d+) \((\d+) %\), ETA )");
  std::vector<Work> out;
  std::istringstream in(err);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, re)) out.push_back({std::stoull(m[1]), std::stoull(m[2]), std::stoi(m[3])});
  }
  return out;
}
// The lines go up to all of `total`, never back, and show the steps between.
void expect_up_to_all(const std::vector<Work>& w, uint64_t total, const std::string& err) {
  ASSERT_GE(w.size(), 3u) << "a line per tenth of the work: " << err;
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].total, total) << err;
    if (i) EXPECT_GE(w[i].done, w[i - 1].done) << err;
  }
  EXPECT_EQ(w.back().done, total) << err;
  EXPECT_EQ(w.back().percent, 100) << err;
  EXPECT_LT(w.front().percent, 100) << err;
}
}  // namespace

// 2 directions x 2 methods x 13 sizes (4 B .. 16 KiB) = 52 points.
TEST(WorkProgress, TransferReportsItsPoints) {
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --set workload.args.max_size=16KiB --set workload.args.methods=dma,iorw --progress -q");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_up_to_all(work_lines(r.err), 52, r.err);
}

TEST(WorkProgress, GpuBenchReportsItsRuns) {
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --workload gpu_bench --set workload.args.runs=4 --progress -q");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_up_to_all(work_lines(r.err), 4, r.err);
}

// The coherence programs count their Algorithm 2 iterations (square, matrix_transpose, shfl2d) or
// their random programs (coh_random).
TEST(WorkProgress, CoherenceSquareReportsItsIterations) {
  RunResult r = run_hetvp("run " + config("coherence.yaml") + " --set workload.args.iterations=5 --progress -q");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_up_to_all(work_lines(r.err), 5, r.err);
}

TEST(WorkProgress, CoherenceRandomProgramsReportTheirCount) {
  RunResult r = run_hetvp("run " + config("coherence.yaml") +
                          " --workload coh_random --set workload.args.programs=10 --set workload.args.rounds=1"
                          " --progress -q");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_up_to_all(work_lines(r.err), 10, r.err);
}
