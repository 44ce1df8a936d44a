// The RTL engine inside the platform with a VCD: the trace is written (also when lockstep stops
// the run at a mismatch) and the invalidation time stays the same as without it.
#include <gtest/gtest.h>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
// The directory's "ticks" statistic (in the components section: the run record before it repeats
// the configuration's names). Plain searches: std::regex recursed once per character here.
double total_ticks(const std::string& stats_json) {
  const std::string c = components_section(stats_json);
  const size_t d = c.find("\"directory\": {");
  const size_t t = d == std::string::npos ? d : c.find("\"ticks\": ", d);
  return t == std::string::npos ? -1 : std::stod(c.substr(t + 9));
}
}  // namespace

TEST(RtlVcd, TimedRtlWithVcdKeepsTheInvalidationTime) {
  const std::string base = "run " + config("coherence.yaml") + " --quiet --workload square --set directory.engine=rtl";
  const std::string plain = scratch() + "/plain.json", traced = scratch() + "/traced.json", vcd = scratch() + "/engine";
  ASSERT_EQ(run_hetvp(base + " --stats " + plain).status, 0);
  RunResult r = run_hetvp(base + " --set directory.vcd=" + vcd + " --stats " + traced);
  ASSERT_EQ(r.status, 0) << r.err;
  const double a = total_ticks(read_file(plain)), b = total_ticks(read_file(traced));
  ASSERT_GT(a, 0);
  EXPECT_NEAR(b, a, 0.01 * a) << "timed mode only adds the RTL's reset cycles";
  const std::string v = read_file(vcd + ".vcd");
  EXPECT_NE(v.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(v.find("in_valid"), std::string::npos);
}

TEST(RtlVcd, LockstepMismatchStopsTheRunAndLeavesTheVcd) {
  const std::string vcd = scratch() + "/mismatch";
  RunResult r = run_hetvp("run " + config("coherence.yaml") +
                          " --workload square --set directory.engine=lockstep --set directory.test_fault_index=0"
                          " --set directory.vcd=" +
                          vcd);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("RTL and TLM invalidation engines differ at output #0 (input position"), std::string::npos)
      << r.err;
  EXPECT_NE(read_file(vcd + ".vcd").find("$enddefinitions"), std::string::npos);
}
