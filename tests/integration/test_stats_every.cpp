// `hetvp run --stats-every T` (platform/stats_periodic.h): a snapshot of the statistics every T of
// simulated time, one JSON object per line in FILE.periodic.jsonl beside --stats FILE.json, the
// last one the --stats file's components; the run's statistics are the same bytes as without;
// its errors. And --progress on a stream that is not a terminal, with and without the snapshots.
#include <yaml-cpp/yaml.h>

#include <sstream>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
// A short main job (a few simulated ms).
const std::string kRun = "run " + config("default.yaml") +
                         " --set workload.args.max_size=16KiB --set workload.args.methods=dma,iorw --stats ";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
}  // namespace

TEST(StatsEvery, SnapshotsEveryPeriodAndTheLastIsTheStatsFile) {
  const std::string a = scratch() + "/every.json", b = scratch() + "/plain.json";
  RunResult with = run_hetvp(kRun + a + " --stats-every 200us");
  ASSERT_EQ(with.status, 0) << with.err;
  RunResult without = run_hetvp(kRun + b);
  ASSERT_EQ(without.status, 0) << without.err;
  // Snapshots change nothing the run computes.
  EXPECT_EQ(components_section(read_file(a)), components_section(read_file(b)));

  const std::vector<std::string> snaps = lines(read_file(scratch() + "/every.periodic.jsonl"));
  ASSERT_GE(snaps.size(), 3u);
  double last = 0;
  for (size_t i = 0; i < snaps.size(); ++i) {
    const YAML::Node n = YAML::Load(snaps[i]);  // one whole JSON object per line
    ASSERT_TRUE(n.IsMap()) << snaps[i].substr(0, 200);
    const double t = n["sim_time_ns"].as<double>();
    if (i + 1 < snaps.size())
      EXPECT_DOUBLE_EQ(t, 200000.0 * double(i + 1)) << i;  // at each multiple of the period
    else
      EXPECT_GE(t, last) << "the last line: where the run ended";
    EXPECT_TRUE(n["components"]["pcie0"]) << i;
    last = t;
  }
  // Cumulative counters never go down; the last line is the --stats file's components.
  const YAML::Node first = YAML::Load(snaps.front()), final_line = YAML::Load(snaps.back());
  const YAML::Node stats = YAML::LoadFile(a);
  EXPECT_DOUBLE_EQ(final_line["sim_time_ns"].as<double>(), stats["run"]["simulated_ns"].as<double>());
  EXPECT_EQ(YAML::Dump(final_line["components"]), YAML::Dump(stats["components"]));
  EXPECT_NE(YAML::Dump(first["components"]), YAML::Dump(final_line["components"]));
}

TEST(StatsEvery, ANameWithoutJsonGetsTheSuffixAppended) {
  const std::string s = scratch() + "/stats_out";
  RunResult r = run_hetvp(kRun + s + " --stats-every 1ms -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(read_file(s + ".periodic.jsonl").empty());
}

TEST(StatsEvery, BadValuesAreClearErrorsBeforeTheRun) {
  const std::string s = scratch() + "/bad.json";
  struct Case {
    std::string args, message;
  } cases[] = {
      {kRun + s + " --stats-every 5", "error: --stats-every 5: time '5' needs a unit"},
      {kRun + s + " --stats-every 0ms", "error: --stats-every 0ms: the period must be more than 0\n"},
      {"run " + config("default.yaml") + " --stats-every 1ms",
       "error: --stats-every 1ms needs --stats FILE.json (the snapshots go to FILE.periodic.jsonl)\n"},
      {kRun + "/no/such/dir/s.json --stats-every 1ms",
       "error: cannot write the periodic statistics to /no/such/dir/s.periodic.jsonl\n"},
  };
  for (const Case& c : cases) {
    RunResult r = run_hetvp(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind(c.message, 0), 0u) << c.args << "\n" << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << "one error and nothing else: " << r.err;
    EXPECT_EQ(r.out, "") << c.args;  // nothing ran
  }
}

// stderr is a file here: one progress line a second of wall time, one per tenth of the work and
// one where the run ends, not one per snapshot; the work is transfer's count of its points
// (tests/integration/test_work_progress.cpp).
TEST(StatsEvery, ProgressOnALogIsNotALinePerSnapshot) {
  const std::string s = scratch() + "/progress.json";
  RunResult r = run_hetvp(kRun + s + " --stats-every 20us --progress");
  ASSERT_EQ(r.status, 0) << r.err;
  size_t progress = 0;
  for (const std::string& l : lines(r.err)) {
    if (!has(l, "progress: ")) continue;
    ++progress;
    EXPECT_TRUE(has(l, "progress: work ") && has(l, "/52 (")) << l;
    EXPECT_TRUE(has(l, " simulated per wall second")) << l;
    EXPECT_EQ(l.find('\r'), std::string::npos) << "no terminal control on a log";
  }
  const size_t snaps = lines(read_file(scratch() + "/progress.periodic.jsonl")).size();
  EXPECT_GE(progress, 1u) << r.err;
  EXPECT_LT(progress * 4, snaps) << r.err;
}
