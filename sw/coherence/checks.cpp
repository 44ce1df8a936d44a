// Test programs for the coherence platform: `coh_bad` (protocol misuse that must end the run
// with a clear error, never a hang) and `coalesce_probe` (one kernel with a chosen lane stride,
// to compare the compute units' coalescer counters with the coalescer itself).
#include <cinttypes>

#include "models/coherence/coherence_regs.h"
#include "platform/program.h"
#include "sw/coherence/runtime.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {
using namespace hetvp::coherence;

HETVP_ENUM(Misuse, lock_twice, release_without_acquire, history_with_tracking_on, bad_lock_value, bad_invalidate_value,
           bad_history_value, bad_track_value, invalidate_without_history, gpu_lock_twice, gpu_release_without_acquire,
           bad_register, gpu_takes_cpu_lock, invalidate_twice, unlock_before_invalidation_done);

struct CohBadArgs : ParamSet {
  Group<CoherenceOptions> rt{this, "rt", "coherence runtime"};
  Enum<Misuse> misuse{this, "case", Misuse::lock_twice, "which misuse"};
  void validate(Diagnostics& d) const override { rt.validate(d); }
};

class CohBad : public ProgramWithArgs<CohBadArgs> {
 public:
  int run(HostApi& api, const CohBadArgs& args) override {
    CoherenceRuntime rt(api, args.rt, "coh_bad", "");
    const Misuse c = args.misuse;
    auto w = [&](uint32_t off, uint32_t v) { api.mmio_write32(DIR_BASE + off, v); };
    const uint64_t buf = rt.alloc(4096);
    if (c == Misuse::lock_twice) {
      w(DIR_LOCK, 1);
      w(DIR_LOCK, 1);
    } else if (c == Misuse::release_without_acquire) {
      w(DIR_LOCK, 0);
    } else if (c == Misuse::history_with_tracking_on) {
      rt.cpu_acquire();
      api.write32(buf, 7);
      w(DIR_HISTORY, 1);  // tracking (0x40008000) still on
    } else if (c == Misuse::bad_lock_value) {
      w(DIR_LOCK, 3);
    } else if (c == Misuse::bad_invalidate_value) {
      w(DIR_LOCK, 1);
      w(DIR_INVALIDATE, 7);
    } else if (c == Misuse::bad_history_value) {
      w(DIR_LOCK, 1);
      w(DIR_HISTORY, 0);
    } else if (c == Misuse::bad_track_value) {
      w(DIR_CPU_TRACK, 5);
    } else if (c == Misuse::invalidate_without_history) {
      w(DIR_LOCK, 1);
      w(DIR_INVALIDATE, 1);
    } else if (c == Misuse::gpu_lock_twice) {
      rt.gpu_acquire();
      rt.gpu_acquire();
    } else if (c == Misuse::gpu_release_without_acquire) {
      rt.gpu_release();
    } else if (c == Misuse::bad_register) {
      w(0x4000, 1);  // a hole in the directory window
    } else if (c == Misuse::gpu_takes_cpu_lock) {
      w(DIR_LOCK, 1);
      rt.gpu_acquire();  // the GPU's acquire kernel writes LOCK = 1 while the CPU holds it
    } else if (c == Misuse::invalidate_twice) {
      rt.cpu_acquire();
      api.write32(buf, 7);
      rt.cpu_release();  // the history is used up by this release's invalidation
      w(DIR_LOCK, 1);
      w(DIR_INVALIDATE, 1);
    } else if (c == Misuse::unlock_before_invalidation_done) {
      rt.cpu_acquire();
      for (uint32_t i = 0; i < 1024; ++i) api.write32(buf + 4 * i, i);  // 64 lines to invalidate
      w(DIR_CPU_TRACK, 0);
      w(DIR_HISTORY, 1);
      while (!api.mmio_read32(DIR_BASE + DIR_HIST_STATUS)) {
      }
      w(DIR_INVALIDATE, 1);
      w(DIR_LOCK, 0);  // without waiting for INVAL_STATUS
    }
    // The run must already be failing; give the simulation a chance to stop.
    api.sleep(sc_core::sc_time(10, sc_core::SC_US));
    api.log("coh_bad: misuse '" + args.misuse.word() + "' was not detected");
    return 1;
  }
};

// coalesce_probe's kernel: sw/kernels/coherence.cu (thread t accesses base + t * stride: one load
// and one store per warp).
struct CoalesceProbeArgs : ParamSet {
  Group<CoherenceOptions> rt{this, "rt", "coherence runtime"};
  Int<uint32_t> stride{this, "stride", 4, "bytes between lanes (multiple of 4)", Range{4, 4096}};
  Int<uint32_t> warps{this, "warps", 4, "warps (one block of 32 threads each)", Range{1, 1024}};
  void validate(Diagnostics& d) const override { rt.validate(d); }
};

class CoalesceProbe : public ProgramWithArgs<CoalesceProbeArgs> {
 public:
  int run(HostApi& api, const CoalesceProbeArgs& args) override {
    CoherenceRuntime rt(api, args.rt, "coalesce_probe", "");
    const uint32_t stride = args.stride, warps = args.warps;
    const uint64_t buf = rt.alloc(uint64_t(warps) * 32 * stride + 4096);
    rt.launch("coalesce_probe", warps, 1, 32, 1, {uint32_t(rt.gva(buf)), uint32_t(rt.gva(buf) >> 32), stride});
    std::string line =
        format("coalesce_probe: %u warps, stride %u B, buffer GPU VA 0x%" PRIx64, warps, stride, rt.gva(buf));
    api.log(line);
    api.stat("buffer_va", static_cast<double>(rt.gva(buf)));
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_TEST_PROGRAM("coh_bad", CohBad, "coherence test: a protocol misuse that must fail the run clearly");
HETVP_REGISTER_PROGRAM("coalesce_probe", CoalesceProbe,
                       "coherence test: one kernel with a given lane stride (coalescer counts)");

}  // namespace hetvp::sw
