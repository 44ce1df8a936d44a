// nouveau's GF100 firmware on the Falcon context controllers, through the `hetvp` program:
// `hetvp run configs/gf100_nouveau.yaml --workload boot` with 1, 4 and 16 GPCs, and the bad inputs.
#include "common/run_hetvp.h"
#include "nouveau_boot_expect.h"
#include "models/gpu/gr/gf100_lists.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <cstdio>
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

// The expected sizes: nouveau_boot_expect.h, GF100's lists (docs/falcon.md "Context size").
long expected_size(unsigned gpcs, bool gr_block = true, unsigned strand_words = 0x40) {
  return expected_context_size("gf100", gpcs, gr_block, strand_words);
}
#define SKIP_WITHOUT_GF100()                                                                     \
  do {                                                                                          \
    if (!hetvp::mcu::falcon::nouveau_gf100().available) GTEST_SKIP() << hetvp::mcu::falcon::nouveau_gf100().reason; \
    if (!hetvp::gpu::gr::gf100_lists().available) GTEST_SKIP() << hetvp::gpu::gr::gf100_lists().reason;         \
  } while (0)
}  // namespace

TEST(FalconBoot, NouveauFirmwareReachesInitDoneWithGpcCounts) {
  SKIP_WITHOUT_GF100();
  for (unsigned gpcs : {1u, 4u, 16u}) {
    auto r = run_hetvp(boot("--set gpu0.gpcs=" + std::to_string(gpcs)), 120);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("init-done"), std::string::npos) << r.out;
    EXPECT_EQ(context_size(r.out), expected_size(gpcs)) << r.out;
  }
}

// What the boot prints: per pack its entries and words, the list words uploaded and their bytes.
TEST(FalconBoot, PrintsGf100ListLengthsAndTheComputedSize) {
  SKIP_WITHOUT_GF100();
  namespace gr = hetvp::gpu::gr;
  const auto& l = gr::gf100_lists();
  auto r = run_hetvp(boot(), 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto hub = gr::csdata_words(l.pack("hub"), 0), tpc = gr::csdata_words(l.pack("tpc"), 0x419800);
  for (const std::string& want : std::vector<std::string>
       {std::string("GF100 register lists (nouveau ctxgf100.c, gf100.c):"),
        "hub " + std::to_string(l.pack("hub").entries()) + " entries/" + std::to_string(l.pack("hub").words()) +
            " words -> " + std::to_string(hub.size()) + " list words (" + std::to_string(gr::mmctx_bytes(hub)) + " bytes)",
        "tpc " + std::to_string(l.pack("tpc").entries()) + " entries/" + std::to_string(l.pack("tpc").words()) +
            " words -> " + std::to_string(tpc.size()) + " list words (" + std::to_string(gr::mmctx_bytes(tpc)) + " bytes)",
        "icmd " + std::to_string(l.pack("icmd").entries()) + " entries/" + std::to_string(l.pack("icmd").words()) + " words",
        "mmio " + std::to_string(l.pack("mmio").words()) + " words written before the start",
        "context size " + std::to_string(expected_size(4)) + " bytes"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

// Without the pgraph block GF100's mmio list has nowhere to go: the boot fails at its first word,
// saying what is missing, before any firmware is uploaded.
TEST(FalconBoot, Gf100WithoutTheRegisterFileFailsAtTheFirstListWord) {
  SKIP_WITHOUT_GF100();
  expect_stop_at_first_mmio_word(run_hetvp(boot("--set gpu0.blocks=microcontrollers"), 120), "gf100",
                                 "(gf100_gr_pack_mmio; GF100's GR registers need the pgraph block");
}

// Without the gr block (boot only), the controllers answer the strand registers themselves, from
// YAML strands / strand_words, and no compute context runs are appended (no compute block).
TEST(FalconBoot, BootOnlyControllersWithoutTheGrBlock) {
  SKIP_WITHOUT_GF100();
  auto r = run_hetvp(boot("--set gpu0.gpcs=4 --set gpu0.blocks=microcontrollers,pgraph"), 120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(context_size(r.out), expected_size(4, false, 0x40)) << r.out;
}

TEST(FalconBoot, StrandWordsChangeTheSizeTheFirmwareComputes) {
  SKIP_WITHOUT_GF100();
  // 0x100 words per strand: (0x100 >> 6) + 1 = 5 units of 256 bytes instead of 2, HUB and each GPC.
  // (the controllers' own strand registers: boot only, no gr block)
  auto r = run_hetvp(boot("--set gpu0.gpcs=2 --set gpu0.blocks=microcontrollers,pgraph "
                          "--set gpu0.microcontrollers.strand_words=256"),
                     120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(context_size(r.out), expected_size(2, false, 256)) << r.out;
  EXPECT_EQ(context_size(r.out) - expected_size(2, false, 0x40), 3 * (5 - 2) * 256) << "3 strands (HUB, 2 GPCs) grow by 3 units";
}

// nouveau's firmware needs core falcon; core falcon with firmware hetvp is configs/gf100_own.yaml
// (tests/mcu/falcon/test_falcon_own.cpp).
TEST(FalconBoot, CoreAndFirmwareMustMatch) {
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
// the Falcon block refuses it, naming the YAML key and where to move it (configs/gf100_nouveau.yaml
// moves it to 0x440000).
TEST(FalconBoot, ComputeBlockCollidesWithPgraph404170) {
  auto r = run_hetvp(boot("--set gpu0.compute.bar0=0x404000"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("(--set gpu0.compute.bar0): the Falcon microcontrollers serve PGRAPH 0x404170, inside the "
                       "compute block's window at 0x404000; move it (compute: {bar0: 0x440000"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(r.out.find("init-done"), std::string::npos) << r.out;
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
    auto r = run_hetvp(boot(std::string("--set gpu0.blocks=microcontrollers,pgraph,gr,fifo --set simulation.quantum=") + q +
                            " --stats " + stats),
                       120);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("init-done at [0-9.]+ us")));
    std::string s = read_file(stats);
    s = s.substr(s.find("\"components\""));  // the run section records the differing --set
    s = std::regex_replace(s, std::regex("\"(wall|host)[a-z_]*\": [0-9.e+-]+"), "");  // host-time figures
    // A burst is at most one quantum of the core's time (docs/falcon.md "Time"): with GF100's real
    // register lists the HUB's mmctx_size loop runs longer than 100 ns between two I/O accesses, so
    // at 100 ns it takes more bursts. How the host splits the run, not a result: left out.
    s = std::regex_replace(s, std::regex("\"bursts\": [0-9]+"), "");
    if (first_line.empty()) {
      first_line = m[0];
      first_stats = s;
    } else {
      EXPECT_EQ(m[0], first_line) << "quantum " << q;
      EXPECT_EQ(s, first_stats) << "quantum " << q;
    }
  }
}
