// Time from the instructions (issue #40): gpu_bench's madd and fmadd (sw/kernels/gdev.cu) do the
// same work on unsigned and float elements. Per warp madd issues add.s32 + mul.lo.s32 (Fermi: 1 + 2
// cycles), fmadd add.f32 + cvt.rn.f32.u32 + mul.f32 (1 + 2 + 1): one instruction and one cycle more
// per warp. At size 64 (128 warps over 4 units at 1 GHz) the kernel takes 32 ns longer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "common/stats_json.h"

using namespace hetvp::test;

namespace {

struct Kernel {
  double busy_ns, warp_instructions, warps;
};
Kernel bench(const std::string& program) {
  const std::string stats = scratch() + "/timing_" + program + ".json";
  RunResult r = run_hetvp("run " + config("default.yaml") + " --workload gpu_bench --set workload.args.program=" +
                              program + " --stats " + stats,
                          120);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const std::string s = components_section(read_file(stats));
  return {stats_number(s, {"gpu0", "compute", "busy_ns"}),
          stats_number(s, {"gpu0", "compute", "ptx", "warp_instructions"}),
          stats_number(s, {"gpu0", "compute", "warps"})};
}

TEST(KernelTiming, MaddAndFmaddDifferByWhatTheirInstructionsDifferIn) {
  const Kernel madd = bench("madd"), fmadd = bench("fmadd");
  ASSERT_EQ(madd.warps, 128);
  ASSERT_EQ(fmadd.warps, 128);
  EXPECT_EQ(fmadd.warp_instructions - madd.warp_instructions, 128);  // one more per warp
  EXPECT_NEAR(fmadd.busy_ns - madd.busy_ns, 32.0, 1e-6);            // 1 cycle x 128 warps / 4 units
}

}  // namespace
