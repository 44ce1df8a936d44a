// nouveau's GF100 firmware on the Falcon context controllers, through the `hetvp` program:
// `hetvp run configs/gf100_nouveau.yaml --workload boot` with 1, 4 and 16 GPCs, and the bad inputs.
#include "common/run_hetvp.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <regex>

using namespace hetvp::test;

namespace {
std::string boot(const std::string& extra = "") {
  return "run " + config("gf100_nouveau.yaml") + " --workload boot " + extra;
}
long context_size(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("context size ([0-9]+) bytes"))) return -1;
  return std::stol(m[1]);
}
}  // namespace

// Expected sizes worked out by hand from hub.fuc/gpc.fuc's init (docs/falcon.md "context size"), with
// the gr block's units answering the strand registers (configs/gf100_nouveau.yaml builds every block):
// HUB: 256 reserved + its list (2 boot words + the compute front end's 23 context words,
// sw/mcu/falcon_ctx_lists.cpp: 100 bytes) -> aligned to 512, + 1 empty strand ((0 >> 6) + 1 = one
// 256-byte unit) = 768; every GPC: 4 (GPC list) + 4 TPCs x 4 (TPC list) -> one 256-byte unit, + its
// strand 0 (the 3 compute words: one unit) = 512. Total 768 + 512 x GPCs.
TEST(FalconBoot, NouveauFirmwareReachesInitDoneWithGpcCounts) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  for (unsigned gpcs : {1u, 4u, 16u}) {
    auto r = run_hetvp(boot("--set gpu0.gpcs=" + std::to_string(gpcs)), 120);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("init-done"), std::string::npos) << r.out;
    EXPECT_EQ(context_size(r.out), 768 + 512 * long(gpcs)) << r.out;
  }
}

// Without the gr block (boot only), the controllers answer the strand registers themselves, from
// YAML strands / strand_words: HUB 256 + 8 -> 512 + 1 strand of 0x40 words (2 x 256) = 1024, each GPC
// 256 + 512 = 768.
TEST(FalconBoot, BootOnlyControllersWithoutTheGrBlock) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  auto r = run_hetvp(boot("--set gpu0.gpcs=4 --set gpu0.blocks=microcontrollers"), 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(context_size(r.out), 1024 + 768 * 4) << r.out;
}

TEST(FalconBoot, StrandWordsChangeTheSizeTheFirmwareComputes) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  // 0x100 words per strand: (0x100 >> 6) + 1 = 5 units of 256 bytes instead of 2, HUB and each GPC
  // (the controllers' own strand registers: boot only, no gr block).
  auto r = run_hetvp(
      boot("--set gpu0.gpcs=2 --set gpu0.blocks=microcontrollers --set gpu0.microcontrollers.strand_words=256"), 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(context_size(r.out), (512 + 5 * 256) + 2 * (256 + 5 * 256)) << r.out;
}

TEST(FalconBoot, CoreAndFirmwareMustMatch) {
  auto a = run_hetvp(boot("--set gpu0.microcontrollers.firmware=hetvp"));
  EXPECT_EQ(a.status, 2) << a.out << a.err;
  EXPECT_NE((a.out + a.err).find("gf100_nouveau.yaml"), std::string::npos) << a.err;
  EXPECT_NE((a.out + a.err).find("core falcon runs nouveau"), std::string::npos) << a.err;
  auto b = run_hetvp("run " + config("default.yaml") + " --workload boot --set gpu0.microcontrollers.firmware=nouveau");
  EXPECT_EQ(b.status, 2) << b.out << b.err;
  EXPECT_NE((b.out + b.err).find("set core: falcon"), std::string::npos) << b.err;
  auto c = run_hetvp(boot("--set gpu0.microcontrollers.core=arm"));
  EXPECT_EQ(c.status, 2) << c.out << c.err;
}

// hetvp's RV32 boot on a Falcon GPU: refused before anything is written, from PTOP_MCU_CORE,
// not after the boot timeout (it used to wait 10 ms for an init-done that could never come).
TEST(FalconBoot, RiscvBootOnFalconCoresIsRefusedAtOnce) {
  auto r = run_hetvp("run " + config("gf100_nouveau.yaml") + " --workload mcu_boot");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("the GPU's microcontrollers are Falcon cores (PTOP_MCU_CORE)"), std::string::npos) << all;
  EXPECT_EQ(all.find("did not report init-done"), std::string::npos) << all;
  std::smatch m;  // the refusal comes after PCIe enumeration and a few register reads: microseconds
  ASSERT_TRUE(std::regex_search(all, m, std::regex("simulated ([0-9.]+) us"))) << all;
  EXPECT_LT(std::stod(m[1]), 100.0) << all;
}

// The compute front end at its default window (0x404000) would hold PGRAPH 0x404160/0x404170:
// the BAR0 router refuses the overlap, naming the YAML key (configs/gf100_nouveau.yaml moves it).
TEST(FalconBoot, ComputeBlockCollidesWithPgraph404170) {
  auto r = run_hetvp(boot("--set gpu0.compute.bar0=0x404000"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("gpu0.compute.bar0"), std::string::npos) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("pgraph_4041"), std::string::npos) << r.out << r.err;
}

TEST(FalconBoot, ImageLargerThanTheSegmentIsRefusedByTheDriver) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  auto r = run_hetvp(boot("--set gpu0.microcontrollers.hub.data_size=256"), 120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(
      (r.out + r.err).find("nouveau GF100 HUB image (code 0xc00, data 0x304 bytes) does not fit the Falcon at 0x409000"),
      std::string::npos)
      << r.out << r.err;
}

TEST(FalconBoot, TraceDisassemblesEveryInstruction) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  auto r = run_hetvp(boot("--set gpu0.gpcs=1 --set gpu0.microcontrollers.trace=true"), 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // hubgf100's first instruction (f5 0e 9b 03) and the GPC's (f5 0e a1 03), as envydis prints them.
  EXPECT_NE(r.err.find("gpu0.hub 0000: bra 0x39b\n"), std::string::npos) << r.err.substr(0, 400);
  EXPECT_NE(r.err.find("gpu0.gpc0 0000: bra 0x3a1\n"), std::string::npos) << r.err.substr(0, 400);
}

TEST(FalconBoot, InitDoneTimeAndStatsDoNotDependOnTheQuantum) {
  const auto& fw = hetvp::mcu::falcon::nouveau_gf100();
  if (!fw.available) GTEST_SKIP() << fw.reason;
  std::string first_line, first_stats;
  for (const char* q : {"100ns", "1us", "100us"}) {
    const std::string stats = scratch() + "/falcon_q_" + q + ".json";
    // Without the compute block: with it the HUB's burst count (not its cycles, instructions or any
    // time) differs by one at a 100 ns quantum, the compute block's own events ending a burst.
    auto r = run_hetvp(boot(std::string("--set gpu0.blocks=microcontrollers,gr,fifo --set simulation.quantum=") + q +
                            " --stats " + stats),
                       120);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("init-done at [0-9.]+ us")));
    std::string s = read_file(stats);
    s = s.substr(s.find("\"components\""));  // the run section records the differing --set
    s = std::regex_replace(s, std::regex("\"(wall|host)[a-z_]*\": [0-9.e+-]+"), "");  // host-time figures
    if (first_line.empty()) {
      first_line = m[0];
      first_stats = s;
    } else {
      EXPECT_EQ(m[0], first_line) << "quantum " << q;
      EXPECT_EQ(s, first_stats) << "quantum " << q;
    }
  }
}
