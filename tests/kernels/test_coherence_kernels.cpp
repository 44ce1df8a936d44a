// The GPU side of the coherence protocol (sw/kernels/coherence.cu coh_gpu_acquire / coh_gpu_release,
// docs/coherence.md): compiled PTX that the compute units run, whose register accesses to the
// directory are uncached system-scope accesses (__stwt / __ldcv: st.global.wt / ld.global.cv).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {

// A number in a --stats file: the first key of `path`, then the next, ...
double stat(const std::string& text, const std::vector<std::string>& path) {
  size_t pos = 0;
  for (const auto& k : path) {
    pos = text.find("\"" + k + "\"", pos);
    if (pos == std::string::npos) {
      ADD_FAILURE() << "no stats key " << k;
      return -1;
    }
    pos += k.size() + 2;
  }
  pos = text.find(':', pos);
  const size_t end = text.find_first_of(",}\n", pos + 1);
  std::string v = text.substr(pos + 1, end - pos - 1);
  v.erase(0, v.find_first_not_of(" \""));
  return std::stod(v);
}

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
  const double uncached = stat(s, {"gpu0", "compute", "uncached_accesses"});
  EXPECT_GE(uncached, 8);
  EXPECT_EQ(stat(s, {"gpu0", "compute", "tcc", "uncached"}), uncached);
  // square's instructions and the protocol kernels' (the square kernel alone has no loop).
  EXPECT_GT(stat(s, {"gpu0", "compute", "ptx", "warp_instructions"}), 0);
}

}  // namespace
