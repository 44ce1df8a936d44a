// The coherence protocol's kernels (sw/kernels/coherence.cu) when the directory never answers:
// coh_gpu_release polls a status register (an uncached system-scope load) 10^6 times and then
// executes __trap(), a named kernel error instead of a hang. Here the shipped PTX runs on host
// memory whose status registers stay 0 and whose %clock64 advances 1000 cycles a read (the spin
// between two polls ends at once).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "firmware/include/hetvp/coherence.h"
#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

class SilentDirectory : public HostEnv {
 public:
  using HostEnv::HostEnv;
  uint64_t clock() override { return cycles_ += 1000; }

 private:
  uint64_t cycles_ = 0;
};

std::string shipped(const std::string& file) {
  std::ifstream f(std::string(HETVP_SHIPPED_PTX_DIR) + "/" + file);
  if (!f) throw std::runtime_error("missing " + file + " (built by the hetvp_kernels_ptx target)");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(PtxTrap, CoherenceReleaseTrapsAfterAMillionPollsOfASilentDirectory) {
  const Module m = load(shipped("coherence.sm_20.ptx"), "coherence.sm_20.ptx");
  SilentDirectory env(2 * DIR_WINDOW);
  const uint64_t dir = env.alloc(DIR_WINDOW);
  Params p(m.kernel("coh_gpu_release"));
  p.set<uint64_t>(0, dir);
  std::string error;
  try {
    run_grid(make_launch(m, "coh_gpu_release", p, {1, 1, 1}, {1, 1, 1}), env);
  } catch (const ExecError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("kernel 'coh_gpu_release' block (0,0,0) thread (0,0,0): trap executed (coherence.sm_20.ptx:"),
            std::string::npos)
      << error;
  // GPU_TRACK and HISTORY written, HIST_STATUS polled 10^6 times, nothing after it (no INVALIDATE).
  EXPECT_EQ(env.system_accesses, 2u + 1000000u);
  EXPECT_EQ(*env.ptr<uint32_t>(dir + DIR_HISTORY), 2u);
  EXPECT_EQ(*env.ptr<uint32_t>(dir + DIR_INVALIDATE), 0u);
}

}  // namespace
}  // namespace hetvp::gpu::ptx::test
