// hetvp's device header and shipped kernels against the PTX loader: every name hetvp_cuda.h gives
// compiles (tests/kernels/CMakeLists.txt) to PTX the loader accepts, for each architecture; every
// shipped module loads, with the parameter layouts and the context-bank constant the runtimes use.
#include <gtest/gtest.h>

#include <string>

#include "common/run_hetvp.h"
#include "models/gpu/compute/ptx/module.h"
#include "sw/kernels/shipped.h"

namespace ptx = hetvp::gpu::ptx;
using namespace hetvp::test;

namespace {

const char* const kArchs[] = {"sm_20", "sm_30", "sm_35"};

TEST(DeviceHeader, EveryNameCompilesToPtxTheLoaderAccepts) {
  for (const char* arch : kArchs) {
    const std::string file = binary_dir() + "/tests/kernels/header_features." + arch + ".ptx";
    const std::string text = read_file(file);
    ASSERT_FALSE(text.empty()) << file;
    ptx::Module m = ptx::load(text, file);
    EXPECT_EQ(ptx::to_string(m.target()), std::string(arch));
    const ptx::FunctionInfo& k = m.kernel("features");
    EXPECT_EQ(k.params.size(), 3u);
    EXPECT_GT(k.shared_bytes, 0u);  // __shared__ tile
    bool context = false;
    for (const ptx::VariableInfo& v : m.variables())
      if (v.name == "hetvp_context_word") context = v.space == ptx::VarSpace::Const && v.bank == 1;
    EXPECT_TRUE(context) << arch << ": hetvp_context_word is not in the context's bank";
  }
}

TEST(ShippedKernels, EveryModuleLoadsForEveryArchitecture) {
  for (const char* module : {"gdev", "coherence", "mem_path"})
    for (const char* arch : kArchs) {
      const hetvp::sw::ShippedPtx& p = hetvp::sw::shipped_ptx(module, arch);
      EXPECT_NO_THROW(ptx::load(p.text, p.file_name())) << p.file_name();
    }
  // 2dshfl's shuffles exist from sm_30 on only.
  EXPECT_EQ(ptx::load(hetvp::sw::shipped_ptx("coherence", "sm_20").text, "c").find_kernel("shfl2d"), nullptr);
  EXPECT_NE(ptx::load(hetvp::sw::shipped_ptx("coherence", "sm_30").text, "c").find_kernel("shfl2d"), nullptr);
}

// The coherence protocol's GPU side: one pointer (the directory window's GPU VA, two argument
// words) and the uncached system-scope accesses the compute units send past every cache.
TEST(ShippedKernels, CoherenceProtocolKernelsUseUncachedAccesses) {
  for (const char* arch : kArchs) {
    const hetvp::sw::ShippedPtx& p = hetvp::sw::shipped_ptx("coherence", arch);
    ptx::Module m = ptx::load(p.text, p.file_name());
    for (const char* name : {"coh_gpu_acquire", "coh_gpu_release"}) {
      const ptx::FunctionInfo& k = m.kernel(name);
      ASSERT_EQ(k.params.size(), 1u) << name;
      EXPECT_EQ(k.param_bytes, 8u) << name;
    }
    EXPECT_NE(std::string(p.text).find("st.global.wt.u32"), std::string::npos) << arch;
    EXPECT_NE(std::string(p.text).find("ld.global.cv.u32"), std::string::npos) << arch;
  }
}

// gpu_bench passes 64-bit pointers as two argument words and sizes as one: the kernels' parameter
// offsets are those words' (a, b, c at 0, 8, 16; n at 24).
TEST(ShippedKernels, GdevParametersAreTheWordsGpuBenchPasses) {
  ptx::Module m = ptx::load(hetvp::sw::shipped_ptx("gdev", "sm_20").text, "gdev.sm_20.ptx");
  for (const char* name : {"gdev_madd", "gdev_fmadd", "gdev_mmul"}) {
    const ptx::FunctionInfo& k = m.kernel(name);
    ASSERT_EQ(k.params.size(), 4u) << name;
    EXPECT_EQ(k.params[0].offset, 0u);
    EXPECT_EQ(k.params[1].offset, 8u);
    EXPECT_EQ(k.params[2].offset, 16u);
    EXPECT_EQ(k.params[3].offset, 24u);
  }
  const ptx::FunctionInfo& loop = m.kernel("gdev_loop");
  ASSERT_EQ(loop.params.size(), 3u);
  EXPECT_EQ(loop.params[1].offset, 8u);
  EXPECT_EQ(loop.params[2].offset, 12u);
  bool scale = false;
  for (const ptx::VariableInfo& v : m.variables())
    if (v.name == "hetvp_context_scale") scale = v.bank == 1 && v.bank_offset == 0;
  EXPECT_TRUE(scale) << "hetvp_context_scale must be word 0 of the context's constant bank";
}

}  // namespace
