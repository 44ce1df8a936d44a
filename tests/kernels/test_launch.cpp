// Kernel launches as the driver writes them (sw/driver/launch.h) and what the compute front end
// does with a bad one. In-process: test-only host programs drive the driver; run_platform builds
// configs/default.yaml (a Fermi-class GPU, sm_20). Each failing launch must fail the run with its
// one named error and nothing else.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "common/run_hetvp.h"
#include "common/text_match.h"
#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "models/gpu/compute/kernel_id.h"
#include "models/host/host_api.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/gpu_module.h"
#include "sw/driver/launch.h"
#include "sw/kernels/shipped.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

using hetvp::test::count;

// What lives across simulated time belongs to the program object (a failing kernel stops the
// simulation while run() waits; a local would leak under LeakSanitizer).
class LaunchProgram : public ProgramWithArgs<> {
 protected:
  void open(HostApi& api) {
    drv_ = std::make_unique<GpuDriver>(api);
    drv_->open(0);
    fe_ = std::make_unique<ComputeFrontEnd>(api, *drv_);
  }
  std::unique_ptr<GpuDriver> drv_;
  std::unique_ptr<ComputeFrontEnd> fe_;
  KernelLaunch k_;
};

// A launch that names no module (CMP_MODULE = 0).
class NoModule : public LaunchProgram {
 public:
  int run(HostApi& api, const NoArgs&) override {
    open(api);
    k_ = KernelLaunch{"gdev_madd", 1, 1, 32, 1, {}};
    k_.release = true;
    fe_->wait(fe_->start(k_), sc_core::sc_time(1, sc_core::SC_US), "launch");
    api.log("FAILED CHECK: a launch without a module completed");
    return 1;
  }
};
HETVP_REGISTER_PROGRAM("test_launch_no_module", NoModule, "test: a kernel launch that names no module");

// A grid 70000 blocks wide: within the driver's (Kepler's) limits, beyond the sm_20 units'.
class WideGrid : public LaunchProgram {
 public:
  int run(HostApi& api, const NoArgs&) override {
    open(api);
    const ShippedPtx& p = shipped_ptx("gdev", compute_arch(*drv_));
    module_ = std::make_unique<GpuModule>(
        load_module_bar(api, *drv_, p.text, p.file_name(), drv_->options().module_translate));
    k_ = KernelLaunch{"gdev_madd", 70000, 1, 32, 1, std::vector<uint32_t>(7, 0)};
    k_.module = module_->image.va;
    k_.release = true;
    fe_->wait(fe_->start(k_), sc_core::sc_time(1, sc_core::SC_US), "launch");
    api.log("FAILED CHECK: a 70000-block grid ran on sm_20");
    return 1;
  }

 private:
  std::unique_ptr<GpuModule> module_;
};
HETVP_REGISTER_PROGRAM("test_launch_wide_grid", WideGrid, "test: a grid wider than Fermi's limit");

std::string run(const char* workload, int& status) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = workload;
  std::ostringstream out, err;
  status = run_platform(opt, out, err);
  return out.str() + err.str();
}

TEST(Launch, ALaunchWithNoModuleFailsTheRunWithItsOneNamedError) {
  int status = -1;
  const std::string log = run("test_launch_no_module", status);
  EXPECT_EQ(status, kExitSimFailure) << log;
  char want[160];
  std::snprintf(want, sizeof want,
                "LAUNCH of kernel id 0x%08x with no module (CMP_MODULE = 0): a kernel is a function of a loaded "
                "PTX module",
                gpu::kernel_id("gdev_madd"));
  EXPECT_EQ(count(log, want), 1u) << log;
  EXPECT_EQ(count(log, "FAILED: "), 1u) << log;  // nothing else failed
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
}

TEST(Launch, TheFrontEndRefusesAGridWiderThanItsArchitectures) {
  int status = -1;
  const std::string log = run("test_launch_wide_grid", status);
  EXPECT_EQ(status, kExitSimFailure) << log;
  EXPECT_EQ(count(log, "kernel 'gdev_madd': grid (70000,1,1): grid x is at most 65535 on sm_20"), 1u) << log;
  EXPECT_EQ(count(log, "FAILED: "), 1u) << log;
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
}

// ---- the launch as compute methods (no simulation) ----

TEST(LaunchMethods, HeightAndDepthShareOneRegisterAsCmpDimYz) {
  KernelLaunch k{"k", 5, 6, 7, 8, {1, 2}};
  k.grid_z = 3;
  k.block_z = 4;
  const std::vector<uint32_t> w = launch_methods(k, 1);
  ASSERT_GE(w.size(), 6u);
  EXPECT_EQ(w[2], 5u);
  EXPECT_EQ(w[3], 6u | 2u << 16);
  EXPECT_EQ(w[4], 7u);
  EXPECT_EQ(w[5], 8u | 3u << 16);
  EXPECT_EQ(CMP_DIM_Y(w[3]), 6u);
  EXPECT_EQ(CMP_DIM_Z(w[3]), 3u);
  // A 2-D launch writes the height alone, as before.
  EXPECT_EQ(grid_methods(9, 10, 0, 0, 1)[2], 10u);
  EXPECT_EQ(grid_methods(9, 10, 0, 0, 1, 2)[2], 10u | 1u << 16);
}

TEST(LaunchMethods, MoreThan16WordsTravelInTheParameterBufferTheLaunchNames) {
  KernelLaunch k{"big", 1, 1, 32, 1, std::vector<uint32_t>(46, 7)};
  try {
    launch_methods(k, 1);
    ADD_FAILURE() << "no error without a parameter buffer";
  } catch (const HostError& e) {
    EXPECT_STREQ(e.what(), "launch of big: 184 bytes of parameters need a parameter buffer in VRAM "
                           "(KernelLaunch::param_buffer)");
  }
  k.param_buffer = 0x1234567880ull;
  const std::vector<uint32_t> args = k.arg_words();
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[CMP_ARG_PARAM_LO], 0x34567880u);
  EXPECT_EQ(args[CMP_ARG_PARAM_HI], 0x12u);
  EXPECT_EQ(args[CMP_ARG_PARAM_BYTES], 184u);
}

TEST(LaunchMethods, TheDriverRefusesMoreThan4KiBOfParametersAndImpossibleShapes) {
  KernelLaunch k{"k", 1, 1, 32, 1, std::vector<uint32_t>(1025, 0)};
  try {
    k.check_args("launch");
    ADD_FAILURE() << "4100 bytes of parameters accepted";
  } catch (const HostError& e) {
    EXPECT_STREQ(e.what(), "launch of k: 4100 bytes of parameters, a launch carries at most 4096 (CUDA's limit for "
                           "sm_20 to sm_35; compute.h CMP_PARAM_MAX)");
  }
  k.args.clear();
  k.block_z = 65;
  try {
    k.check_args("launch");
    ADD_FAILURE() << "a block 65 deep accepted";
  } catch (const HostError& e) {
    EXPECT_STREQ(e.what(), "launch of k: block (32,1,65): block z is at most 64");
  }
  k.block_z = 1;
  k.grid_y = 0;
  try {
    k.check_args("launch");
    ADD_FAILURE() << "an empty grid accepted";
  } catch (const HostError& e) {
    EXPECT_STREQ(e.what(), "launch of k: grid (1,0,1): grid y is 0 (every dimension is at least 1)");
  }
}

}  // namespace
