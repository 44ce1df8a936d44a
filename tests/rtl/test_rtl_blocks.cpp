// The example RTL block rtl.crc32 (rtl/examples/crc32) through the `hetvp` program: the same
// results and byte-identical --stats in rtl, tlm and lockstep modes (interrupt-driven and
// polling host program, two quanta), waveforms, and the errors a user can get from YAML.
#include <gtest/gtest.h>
#include <fstream>

#include <regex>
#include <sstream>

#include "common/run_hetvp.h"
#include "tests/rtl/block_run.h"

namespace {

using hetvp::test::config;
using hetvp::test::read_file;
using hetvp::test::run_hetvp;
using hetvp::test::scratch;

// The stats without the run section's --set list (which names the mode).
// The simulated time and every component's statistics (the run record names the mode).
std::string stats_body(const std::string& path) {
  const std::string s = read_file(path);
  const size_t t = s.find("\"simulated_ns\"");
  return (t == std::string::npos ? std::string() : s.substr(t, s.find('\n', t) - t)) +
         hetvp::test::without_lockstep(hetvp::test::components_section(s));
}

struct Mode {
  std::string out, stats;
};

Mode run_mode(const std::string& mode, const std::string& extra) {
  const std::string stats = scratch() + "/crc_" + mode + std::to_string(std::hash<std::string>()(extra)) + ".json";
  auto r = run_hetvp(
      "run " + config("rtl_block_example.yaml") + " --set crc0.mode=" + mode + " " + extra + " --stats " + stats, 120);
  EXPECT_EQ(r.status, 0) << mode << "\n" << r.out << r.err;
  std::string lines;  // the program's lines and the verdict (not the wall time)
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("  rtl_crc32:", 0) == 0 || l.rfind("result:", 0) == 0) lines += l + "\n";
  return {lines, stats_body(stats)};
}

void expect_same_in_all_modes(const std::string& extra) {
  Mode rtl = run_mode("rtl", extra), tlm = run_mode("tlm", extra), ls = run_mode("lockstep", extra);
  EXPECT_NE(rtl.out.find("4093 bytes: status 0x2"), std::string::npos) << rtl.out;
  EXPECT_NE(rtl.out.find("result: PASS"), std::string::npos) << rtl.out;
  EXPECT_EQ(rtl.out.find("MISMATCH"), std::string::npos) << rtl.out;
  EXPECT_EQ(rtl.out, tlm.out);
  EXPECT_EQ(rtl.out, ls.out);
  EXPECT_EQ(rtl.stats, tlm.stats) << "rtl vs tlm --stats";
  EXPECT_EQ(rtl.stats, ls.stats) << "rtl vs lockstep --stats";
  EXPECT_NE(rtl.stats.find("\"mem_reads\""), std::string::npos);
}

TEST(RtlBlock, SameResultsAndStatsInAllModesIrq) { expect_same_in_all_modes(""); }
TEST(RtlBlock, SameResultsAndStatsInAllModesPolling) {
  expect_same_in_all_modes("--set workload.args.wait=poll --set 'simulation.quantum=100 ns'");
}
TEST(RtlBlock, SameResultsAndStatsInAllModesSlowClockSmallBurstQueue) {
  expect_same_in_all_modes("--set 'crc0.clock=33 MHz' --set crc0.max_outstanding=1 --set workload.args.size=5000");
}

TEST(RtlBlock, ListShowsTheBlockWithItsPorts) {
  auto r = run_hetvp("list");
  EXPECT_NE(r.out.find("rtl.crc32 — Verilated RTL block crc32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mem (initiator, AXI4 master)"), std::string::npos) << r.out;
  r = run_hetvp("list rtl.crc32");
  EXPECT_NE(r.out.find("ring_cycles"), std::string::npos) << r.out;
}

TEST(RtlBlock, UnknownBlockListsTheBuiltOnes) {
  auto r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.type=rtl.crc64");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.type): crc0.type: unknown component type 'rtl.crc64'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("RTL blocks built into this hetvp (hetvp_add_rtl_block): rtl.crc32"), std::string::npos)
      << r.err;
}

TEST(RtlBlock, BadParametersAreLocated) {
  auto r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.mode=gates");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("crc0.mode"), std::string::npos) << r.err;
  r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.max_outstanding=0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("crc0.max_outstanding"), std::string::npos) << r.err;
  r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.waves=/nonexistent/dir/x.vcd");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.waves): cannot write '/nonexistent/dir/x.vcd' (no such directory)"),
            std::string::npos)
      << r.err;
  // FST is asked for by the file name: a clear error, not VCD text in a .fst file (issue #27).
  r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.waves=" + scratch() + "/w.fst");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.waves): '" + scratch() + "/w.fst': rtl.crc32 writes VCD waveforms (hetvp_add_rtl_block "
                       "WAVES vcd; Verilator --trace): name the file .vcd (GTKWave's vcd2fst converts it), or build "
                       "the block with WAVES fst"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::ifstream(scratch() + "/w.fst").good()) << "nothing written";
  r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.ring_file=/nonexistent/dir/r.vcd");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.ring_file): cannot write"), std::string::npos) << r.err;
  r = run_hetvp("run " + config("rtl_block_example.yaml") +
                " --set 'crc0.waves_start=2 us' --set 'crc0.waves_stop=1 us'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.waves_stop): the window ends (1 us) before it starts (2 us)"), std::string::npos)
      << r.err;
  r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set 'crc0.clock=1000 GHz'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set crc0.clock): clock too fast"), std::string::npos) << r.err;
}

TEST(RtlBlock, CheckFindsAnUnconnectedMasterPort) {
  // A master's `mem` port is required: `check` (no simulation) says so, located, with exit 2.
  std::string yaml = read_file(config("rtl_block_example.yaml"));
  const std::string from = "connect: {mem: host_bus, irq: cpu.irq}";
  ASSERT_NE(yaml.find(from), std::string::npos);
  yaml.replace(yaml.find(from), from.size(), "connect: {irq: cpu.irq}");
  auto r = run_hetvp("check " + hetvp::test::write_file("crc_no_mem.yaml", yaml));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("crc0: required port 'mem' is not connected"), std::string::npos) << r.err;
}

TEST(RtlBlock, WaveformWindowIsAValidVcd) {
  const std::string vcd = scratch() + "/crc0.vcd";
  auto r = run_hetvp("run " + config("rtl_block_example.yaml") + " --set crc0.waves=" + vcd +
                     " --set 'crc0.waves_start=1 us' --set 'crc0.waves_stop=3 us'");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string v = read_file(vcd);
  ASSERT_NE(v.find("$enddefinitions"), std::string::npos) << v.substr(0, 500);
  EXPECT_NE(v.find("m_axi_arvalid"), std::string::npos);
  // every time stamp inside the window
  std::regex ts("\n#([0-9]+)");
  int n = 0;
  for (auto it = std::sregex_iterator(v.begin(), v.end(), ts); it != std::sregex_iterator(); ++it, ++n) {
    const double t = std::stod((*it)[1]);
    EXPECT_GE(t, 1e6);
    EXPECT_LE(t, 3e6);
  }
  EXPECT_GT(n, 10);
}

TEST(RtlBlock, IdleBlockCostsNoCycles) {
  // One simulated second with the block idle after one job: the run takes well under a second.
  auto r = run_hetvp("run " + config("rtl_block_example.yaml") +
                     " --workload mmio --set workload.args.address=0x40100020 " + "--set 'simulation.time_limit=2 s'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("= 0x43524332"), std::string::npos) << r.out;
}

}  // namespace
