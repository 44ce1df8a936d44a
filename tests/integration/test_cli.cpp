// The `hetvp` program end to end: exit statuses, error messages that name where, deterministic
// stats, and the default topology's behaviour (tests/integration/test_transfer.cpp).
#include <gtest/gtest.h>

#include "common/run_hetvp.h"

using namespace hetvp::test;

TEST(Cli, HelpAndUsageErrors) {
  RunResult h = run_hetvp("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("run CONFIG"), std::string::npos);
  RunResult rh = run_hetvp("run --help");
  EXPECT_EQ(rh.status, 0);
  EXPECT_NE(rh.out.find("--set PATH=VALUE"), std::string::npos);
  EXPECT_EQ(run_hetvp("frobnicate").status, 2);
  EXPECT_EQ(run_hetvp("run").status, 2);
  RunResult bad = run_hetvp("run " + config("default.yaml") + " --bogus");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("unknown option '--bogus'"), std::string::npos);
}

TEST(Cli, CheckValidatesWithoutSimulating) {
  RunResult ok = run_hetvp("check " + config("default.yaml"));
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("OK"), std::string::npos);
  std::string bad =
      write_file("bad.yaml", read_file(config("default.yaml")) + "\nextra:\n  type: memory\n  sise: 1 MiB\n");
  RunResult r = run_hetvp("check " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'size'"), std::string::npos) << r.err;
}

TEST(Cli, ConfigErrorsNeverReachTheSimulation) {
  std::string bad =
      write_file("range.yaml", read_file(config("default.yaml")) + "\nextra: {type: memory, size: 1 MiB}\n");
  RunResult r = run_hetvp("run " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("extra: target port 'in' is not connected"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("simulated"), std::string::npos) << "a config error must stop before sc_start";
  RunResult lanes = run_hetvp("run " + config("default.yaml") + " --set pcie0.lanes=12");
  EXPECT_EQ(lanes.status, 2);
  EXPECT_NE(lanes.err.find("--set pcie0.lanes"), std::string::npos) << lanes.err;
  RunResult wl = run_hetvp("run " + config("default.yaml") + " --workload trasnfer");
  EXPECT_EQ(wl.status, 2);
  EXPECT_NE(wl.err.find("did you mean 'transfer'"), std::string::npos) << wl.err;
  std::string overlap = write_file("overlap.yaml", [] {
    std::string s = read_file(config("default.yaml"));
    auto p = s.find("    - {to: rc.ecam");
    return s.insert(p, "    - {to: rc.ecam, base: 0x3FF00000, size: 2 MiB}\n");
  }());
  RunResult ov = run_hetvp("run " + overlap);
  EXPECT_EQ(ov.status, 2);
  EXPECT_NE(ov.err.find("overlaps"), std::string::npos) << ov.err;
}

TEST(Cli, StatsAreByteIdenticalForTheSameInputs) {
  std::string a = scratch() + "/a.json", b = scratch() + "/b.json";
  std::string args = "run " + config("default.yaml") + " --set workload.args.max_size=256KiB --quiet --stats ";
  ASSERT_EQ(run_hetvp(args + a).status, 0);
  ASSERT_EQ(run_hetvp(args + b).status, 0);
  // Byte for byte but the two wall-clock fields (run.host_seconds, run.sim_rate), which are there.
  std::string sa = read_file(a), sb = read_file(b);
  EXPECT_GT(sa.size(), 1000u);
  EXPECT_NE(sa.find("\"host_seconds\": "), std::string::npos);
  EXPECT_NE(sa.find("\"sim_rate\": "), std::string::npos);
  EXPECT_EQ(hetvp::test::without_host_time(sa), hetvp::test::without_host_time(sb));
}

TEST(Cli, UnmappedAddressNamesAddressAndInitiator) {
  RunResult r = run_hetvp("run " + config("default.yaml") + " --workload mmio --set workload.args.address=0x70000000");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unmapped address 0x70000000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("by cpu"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("uncached load of 4 bytes at 0x70000000 failed"), std::string::npos) << r.err;
}

TEST(Cli, BarAccessBeforeEnumerationIsRefused) {
  RunResult r = run_hetvp("run " + config("default.yaml") + " --workload mmio --set workload.args.address=0x80000000");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no root port claims address 0x80000000"), std::string::npos) << r.err;
}

TEST(Cli, IllegalRegisterAccessIsAnError) {
  // PMC_BOOT_0 is read-only: the write is refused by the GPU's register bank.
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --workload mmio --set workload.args.enumerate=true --set workload.args.address=0x80000000"
                          " --set workload.args.op=write --set workload.args.value=1");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("pmc: write to read-only register BOOT_0"), std::string::npos) << r.err;
  // A hole in the copy engine's block.
  RunResult h = run_hetvp("run " + config("default.yaml") +
                          " --workload mmio --set workload.args.enumerate=true --set workload.args.address=0x801040F0");
  EXPECT_EQ(h.status, 1);
  EXPECT_NE(h.err.find("copy0: read of an unmapped register"), std::string::npos) << h.err;
}

TEST(Cli, BadDmaRequestsAreReported) {
  RunResult fault = run_hetvp("run " + config("default.yaml") + " --workload dma --set workload.args.dst=0x7700000000");
  EXPECT_EQ(fault.status, 1);
  EXPECT_NE(fault.err.find("GPU virtual address 0x7700000000"), std::string::npos) << fault.err;
  EXPECT_NE(fault.err.find("copy engine 0 error 2 at GPU address 0x7700000000"), std::string::npos) << fault.err;
  RunResult zero = run_hetvp("run " + config("default.yaml") + " --workload dma --set workload.args.size=0");
  EXPECT_EQ(zero.status, 1);
  EXPECT_NE(zero.out.find("error code 3"), std::string::npos) << zero.out;
  RunResult missing = run_hetvp("run " + config("default.yaml") + " --workload dma --set workload.args.engine=5");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("copy engine 5 does not exist"), std::string::npos) << missing.err;
}

TEST(Cli, TimeLimitEndsARunClearly) {
  RunResult r = run_hetvp("run " + config("default.yaml") + " --set simulation.time_limit=1ms");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("did not finish within simulation.time_limit"), std::string::npos) << r.err;
}

TEST(Cli, TraceIsAChromeTraceFile) {
  std::string t = scratch() + "/trace.json";
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --set workload.args.max_size=64KiB --set workload.args.methods=dma --quiet --trace " + t);
  EXPECT_EQ(r.status, 0) << r.err;
  std::string s = read_file(t);
  EXPECT_EQ(s.rfind("{\"traceEvents\":[", 0), 0u);
  EXPECT_NE(s.find("\"ph\":\"X\""), std::string::npos);
}

// `hetvp list TYPE` prints the schema the loader validates against: every parameter with its
// kind, default and range, nested groups indented.
TEST(Cli, ListTypeDescribesEveryParameter) {
  RunResult r = run_hetvp("list pcie_link");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("component type pcie_link"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  lanes (integer: 1|2|4|8|16|32) default 16 — link width"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  generation (integer) default 2 range 1..5 — "), std::string::npos) << r.out;
  r = run_hetvp("list square");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("    gpu_sync (choice: kernel|hub) default kernel — "), std::string::npos) << r.out;
  r = run_hetvp("list squre");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no component type or host program 'squre' (did you mean 'square'?)"), std::string::npos)
      << r.err;
}

// `hetvp list` names the experiments apart from the programs that exist for the test suite
// (issue #42 item 9): coh_bad and qpu_regcheck come after the heading of the test programs.
TEST(Cli, ListSeparatesTestProgramsFromExperiments) {
  RunResult r = run_hetvp("list");
  EXPECT_EQ(r.status, 0) << r.err;
  const size_t workloads = r.out.find("host programs (workloads):\n");
  const size_t tests = r.out.find("test programs (used by the test suite, not experiments):\n");
  ASSERT_NE(workloads, std::string::npos) << r.out;
  ASSERT_NE(tests, std::string::npos) << r.out;
  EXPECT_LT(workloads, tests);
  for (const char* t : {"  coh_bad — ", "  qpu_regcheck — "}) EXPECT_GT(r.out.find(t), tests) << t;
  for (const char* w : {"  transfer — ", "  gpu_bench — ", "  square — ", "  coalesce_probe — "}) {
    const size_t at = r.out.find(w);
    EXPECT_GT(at, workloads) << w;
    EXPECT_LT(at, tests) << w;
  }
}

TEST(Cli, VersionNamesTheProjectVersion) {
  RunResult r = run_hetvp("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("hetvp 0.2.0 (", 0), 0u) << r.out;
}

// The stats' run section says what produced the numbers: version, config and every --set.
TEST(Cli, StatsRecordVersionConfigAndOverrides) {
  const std::string stats = scratch() + "/run_record.json";
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --quiet --workload boot --set pcie0.lanes=8 --set simulation.seed=3 --stats " + stats);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string s = read_file(stats);
  EXPECT_NE(s.find("\"hetvp\": \"0.2.0 ("), std::string::npos) << s.substr(0, 400);
  const size_t o = s.find("\"overrides\": ["), a = s.find("\"pcie0.lanes=8\"", o),
               b = s.find("\"simulation.seed=3\"", a);
  EXPECT_NE(o, std::string::npos) << s.substr(0, 400);
  EXPECT_NE(a, std::string::npos) << s.substr(0, 400);
  EXPECT_NE(b, std::string::npos) << "both --set lines, in command-line order\n" << s.substr(0, 400);
  EXPECT_LT(b, s.find("\"workload\"")) << s.substr(0, 400);
  EXPECT_NE(s.find("\"seed\": 3"), std::string::npos) << s.substr(0, 400);
}
