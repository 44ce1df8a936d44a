// The GPU's on-chip blocks are chosen in YAML (`gpu.blocks`): a GPU without microcontrollers,
// without compute or without copy engines is a valid configuration; an unknown or repeated block
// is a located error. Each block's BAR0 window is YAML too (`bar0`): a moved window works end to
// end (the driver finds it in PTOP), an overlap or a window outside BAR0 is a located error naming
// both blocks and their ranges.
#include <gtest/gtest.h>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
// default.yaml with `blocks: VALUE` added to gpu0 (after its `type: gpu` line).
std::string with_blocks(const std::string& file, const std::string& value) {
  std::string s = read_file(config("default.yaml"));
  auto p = s.find("  type: gpu\n");
  EXPECT_NE(p, std::string::npos);
  return write_file(file, s.insert(p + 12, "  blocks: " + value + "\n"));
}
}  // namespace

TEST(GpuBlocks, WithoutMicrocontrollersTransferRunsDmaAndIorw) {
  std::string stats = scratch() + "/no_mcu.json";
  RunResult r = run_hetvp("run " + with_blocks("no_mcu.yaml", "compute,copy_engine") +
                          " --set workload.args.microcontrollers=false --set workload.args.methods=dma,iorw"
                          " --set workload.args.max_size=16KiB --stats " +
                          stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0 data mismatches"), std::string::npos) << r.out;
  std::string s = components_section(read_file(stats));
  EXPECT_EQ(s.find("\"microcontrollers\""), std::string::npos);
  EXPECT_NE(s.find("\"compute\""), std::string::npos);
}

TEST(GpuBlocks, WithoutComputeBootRuns) {
  std::string stats = scratch() + "/no_compute.json";
  RunResult r =
      run_hetvp("run " + with_blocks("no_compute.yaml", "microcontrollers") + " --workload boot --stats " + stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("init-done"), std::string::npos) << r.out;
  std::string s = components_section(read_file(stats));
  EXPECT_EQ(s.find("\"compute\""), std::string::npos);
  EXPECT_NE(s.find("\"microcontrollers\""), std::string::npos);
}

TEST(GpuBlocks, UnknownBlockIsALocatedError) {
  RunResult r = run_hetvp("check " + with_blocks("unknown.yaml", "compute,mcu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown GPU block 'mcu' (GPU blocks: compute, copy_engine, fifo, gr, microcontrollers, pgraph)"),
            std::string::npos)
      << r.err;
}

TEST(GpuBlocks, RepeatedBlockIsALocatedError) {
  RunResult r = run_hetvp("check " + with_blocks("twice.yaml", "compute,compute"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("twice.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("GPU block 'compute' listed twice"), std::string::npos) << r.err;
}

TEST(GpuBlocks, WithoutCopyEnginesBootRunsAndDmaFailsClearly) {
  std::string stats = scratch() + "/no_copy.json";
  const std::string cfg = with_blocks("no_copy.yaml", "microcontrollers");
  RunResult r = run_hetvp("run " + cfg + " --workload boot --stats " + stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("init-done"), std::string::npos) << r.out;
  std::string s = components_section(read_file(stats));
  EXPECT_EQ(s.find("\"copy0\""), std::string::npos);
  EXPECT_NE(s.find("\"microcontrollers\""), std::string::npos);
  // The driver reads PTOP: a copy is refused with the reason, not sent to nowhere.
  r = run_hetvp("run " + cfg + " --workload dma");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE((r.out + r.err).find("the GPU on bus 1 has no copy engines (BAR0 0x2243c in PTOP reads 0"),
            std::string::npos)
      << r.out << r.err;
  r = run_hetvp("run " + cfg + " --workload transfer --set workload.args.methods=dma --set workload.args.max_size=4");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE((r.out + r.err).find("copy engine 0 does not exist (the GPU has 0; add copy_engine to gpu blocks)"),
            std::string::npos)
      << r.out << r.err;
}

TEST(GpuBlocks, NoBlocksAtAllBoots) {
  RunResult r = run_hetvp("run " + with_blocks("none.yaml", "\"\"") +
                          " --workload boot --set workload.args.microcontrollers=false");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(GpuBlocks, CountingCopyEnginesWithoutTheBlockIsALocatedError) {
  RunResult r = run_hetvp("check " + with_blocks("count.yaml", "compute") + " --set gpu0.copy_engines=1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.copy_engines)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gpu0.copy_engines is set, but the copy_engine block is not built"), std::string::npos) << r.err;
}

TEST(GpuBlocks, MovedCopyEngineWindowTransfersEndToEnd) {
  // Both engines move to 0x200000/0x201000; the old window is gone, so a driver that assumed it
  // would fail the copies. link_sharing uses both engines at once.
  std::string stats = scratch() + "/moved_copy.json";
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --set gpu0.copy_engine.bar0=0x200000 --set workload.args.microcontrollers=false"
                          " --set workload.args.methods=dma,dma+dma --set workload.args.max_size=64KiB --stats " +
                          stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0 data mismatches"), std::string::npos) << r.out;
  r = run_hetvp("run " + config("default.yaml") + " --workload link_sharing --set gpu0.copy_engine.bar0=0x200000");
  EXPECT_EQ(r.status, 0) << r.err;
  // The old position is now a hole in BAR0: the dma workload's raw register path uses PTOP too.
  r = run_hetvp("run " + config("default.yaml") +
                " --workload dma --set gpu0.copy_engine.bar0=0x7ff000"
                " --set gpu0.copy_engines=1");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(GpuBlocks, MovedComputeWindowsRunTheCoherenceWorkload) {
  RunResult r = run_hetvp("run " + config("coherence.yaml") +
                          " --set gpu0.compute.bar0=0x300000 --set gpu0.compute.cc_bar0=0x310000");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST(GpuBlocks, OverlappingWindowsAreALocatedErrorNamingBoth) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.copy_engine.bar0=0x404000");
  EXPECT_EQ(r.status, 2);
  // The compute front end (at its default) meets copy engine 0 (moved onto it): both named, both ranges.
  EXPECT_NE(r.err.find("gpu0.compute.bar0 (default), block gpu0.compute"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("range [0x404000, 0x405000) overlaps [0x404000, 0x405000) of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(--set gpu0.copy_engine.bar0), block gpu0.copy0"), std::string::npos) << r.err;

  // A window over a fixed block (PTOP) from a YAML file: file:line:col of the key.
  std::string s = read_file(config("coherence.yaml"));
  auto p = s.find("  compute:\n");
  ASSERT_NE(p, std::string::npos);
  std::string f = write_file("cc_on_ptop.yaml", s.insert(p + 11, "    cc_bar0: 0x22000\n"));
  r = run_hetvp("check " + f);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cc_on_ptop.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(gpu0.compute.cc_bar0), block gpu0.gpu_cc: gpu0.bar0: range [0x22000, 0x23000) overlaps "
                       "[0x22400, 0x22500) of gpu0.ptop (fixed)"),
            std::string::npos)
      << r.err;
}

TEST(GpuBlocks, WindowOutsideBar0IsALocatedError) {
  // Engine 1 would sit at 0x1000000, just past the 16 MiB BAR0.
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.copy_engine.bar0=0xfff000");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.copy_engine.bar0), block gpu0.copy1: gpu0.bar0: range [0x1000000, 0x1001000) "
                       "lies outside BAR0 of 0x1000000"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(gpu0.pcie.bar0_size)"), std::string::npos) << r.err;
  // A smaller BAR0 leaves the default compute window outside.
  r = run_hetvp("check " + config("default.yaml") + " --set gpu0.pcie.bar0_size=4MiB");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("block gpu0.compute: gpu0.bar0: range [0x404000, 0x405000) lies outside BAR0 of 0x400000"),
            std::string::npos)
      << r.err;
}

TEST(GpuBlocks, MisalignedWindowIsALocatedError) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.copy_engine.bar0=0x104800");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.copy_engine.bar0): 0x104800 is not a multiple of the window size 0x1000"),
            std::string::npos)
      << r.err;
  r = run_hetvp("check " + config("default.yaml") + " --set gpu0.compute.bar0=0x404100");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.compute.bar0): 0x404100 is not a multiple of the window size 0x1000"),
            std::string::npos)
      << r.err;
}

// The microcontrollers' windows move too: the driver and hetvp's HUB firmware (which polls every
// GPC's window at boot) find them in PTOP, so boot, commands and the HUB-driven coherence sync work
// (with Fermi's positions built in, the driver would address empty BAR0 and the boot would fail).
TEST(GpuBlocks, MovedMicrocontrollerWindowsBootAndServeCommands) {
  const std::string moved =
      " --set gpu0.microcontrollers.bar0=0x600000 --set gpu0.microcontrollers.gpc_bar0=0x700000"
      " --set gpu0.microcontrollers.gpc_stride=0x2000 --set gpu0.microcontrollers.broadcast_bar0=0x610000";
  const std::string stats = scratch() + "/moved_mcu.json";
  RunResult r = run_hetvp("run " + config("default.yaml") + " --workload mcu_context --stats " + stats + moved);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  r = run_hetvp("run " + config("coherence.yaml") + " --set workload.args.rt.gpu_sync=hub" + moved);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST(GpuBlocks, BadMicrocontrollerWindowsAreLocatedErrors) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.microcontrollers.gpc_bar0=0x409000");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.microcontrollers.gpc_bar0), block gpu0.gpc0: gpu0.bar0: range [0x409000, "
                       "0x40a000) overlaps [0x409000, 0x40a000) of gpu0.microcontrollers.bar0 (default), block gpu0.hub"),
            std::string::npos)
      << r.err;
  r = run_hetvp("check " + config("default.yaml") + " --set gpu0.microcontrollers.gpc_stride=0x1800");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.microcontrollers.gpc_stride): 0x1800 is not a multiple of the window size 0x1000"),
            std::string::npos)
      << r.err;
  // nouveau's firmware has Fermi's positions built in.
  r = run_hetvp("check " + config("gf100_nouveau.yaml") + " --set gpu0.microcontrollers.bar0=0x600000");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("(--set gpu0.microcontrollers.bar0): nouveau's Falcon firmware addresses"), std::string::npos)
      << r.err;
}
