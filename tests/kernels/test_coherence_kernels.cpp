// The GPU side of the coherence protocol (sw/kernels/coherence.cu coh_gpu_acquire / coh_gpu_release,
// docs/coherence.md): compiled PTX that the compute units run, whose register accesses to the
// directory are uncached system-scope accesses (__stwt / __ldcv: st.global.wt / ld.global.cv).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "common/stats_json.h"

using namespace hetvp::test;

namespace {

TEST(CoherenceProtocolKernels, GpuAcquireAndReleaseRunAsPtxWithUncachedRegisterAccesses) {
  const std::string stats = scratch() + "/coh_sync.json";
  RunResult r = run_hetvp("run " + config("coherence.yaml") +
                              " --workload square --set workload.args.n=1000 --set workload.args.rt.gpu_sync=kernel "
                              "--stats " + stats,
                          120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1000 results correct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu_release -> CPU caches"), std::string::npos) << r.out;
  const std::string s = components_section(read_file(stats));
  // One acquire (LOCK, GPU_TRACK) and one release (GPU_TRACK, HISTORY, a poll or more of
  // HIST_STATUS, INVALIDATE, a poll or more of INVAL_STATUS, LOCK): at least 2 + 6 accesses, each
  // past the caches (the TCP and the TCC pass them through uncached).
  const double uncached = stats_number(s, {"gpu0", "compute", "uncached_accesses"});
  EXPECT_GE(uncached, 8);
  EXPECT_EQ(stats_number(s, {"gpu0", "compute", "tcc", "uncached"}), uncached);
  // square's instructions and the protocol kernels' (the square kernel alone has no loop).
  EXPECT_GT(stats_number(s, {"gpu0", "compute", "ptx", "warp_instructions"}), 0);
}

}  // namespace
