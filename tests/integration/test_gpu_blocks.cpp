// The GPU's on-chip blocks are chosen in YAML (`gpu.blocks`): a GPU without microcontrollers or
// without compute is a valid configuration; an unknown or repeated block is a located error.
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
  RunResult r = run_hetvp("run " + with_blocks("no_mcu.yaml", "compute") +
                          " --set workload.args.microcontrollers=false --set workload.args.methods=dma,iorw"
                          " --set workload.args.max_size=16KiB --stats " +
                          stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0 data mismatches"), std::string::npos) << r.out;
  std::string s = read_file(stats);
  EXPECT_EQ(s.find("\"microcontrollers\""), std::string::npos);
  EXPECT_NE(s.find("\"compute\""), std::string::npos);
}

TEST(GpuBlocks, WithoutComputeBootRuns) {
  std::string stats = scratch() + "/no_compute.json";
  RunResult r =
      run_hetvp("run " + with_blocks("no_compute.yaml", "microcontrollers") + " --workload boot --stats " + stats);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("init-done"), std::string::npos) << r.out;
  std::string s = read_file(stats);
  EXPECT_EQ(s.find("\"compute\""), std::string::npos);
  EXPECT_NE(s.find("\"microcontrollers\""), std::string::npos);
}

TEST(GpuBlocks, UnknownBlockIsALocatedError) {
  RunResult r = run_hetvp("check " + with_blocks("unknown.yaml", "compute,mcu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown GPU block 'mcu' (GPU blocks: compute, microcontrollers)"), std::string::npos) << r.err;
}

TEST(GpuBlocks, RepeatedBlockIsALocatedError) {
  RunResult r = run_hetvp("check " + with_blocks("twice.yaml", "compute,compute"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("twice.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("GPU block 'compute' listed twice"), std::string::npos) << r.err;
}
