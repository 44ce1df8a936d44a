// VRAM that the Gdev runtime frees and reuses (sw/driver/vram_allocator.h, GpuDriver::free_vram,
// GdevRuntime::mem_free / module_unload / ctx_destroy), and every bad input of it: out of VRAM, a
// double free, a free of an address never allocated, a copy to a freed buffer, a context
// destroyed with buffers still allocated; kernels with more than 64 bytes of parameters (a
// parameter buffer in the context's VRAM) and with more than 4 KiB (refused). In-process: a
// test-only host program on configs/default.yaml (hetvp's firmware); each case checks the
// message, the exit status and that nothing else failed.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstring>
#include <sstream>

#include "common/in_process_run.h"
#include "common/run_hetvp.h"
#include "common/text_match.h"
#include "common/tlm_harness.h"
#include "firmware/include/hetvp/pmc.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/mcu_driver.h"
#include "sw/gdev/runtime.h"
#include "sw/kernels/shipped.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

struct MemArgs : ParamSet {
  Str which{this, "case", "reuse", "which case"};
};

class GdevMemory : public ProgramWithArgs<MemArgs> {
 public:
  int run(HostApi& api, const MemArgs& args) override {
    GpuDriver drv(api);
    drv.open(0);
    boot_microcontrollers(api, drv);
    McuDriver mcu(api, drv);
    GdevRuntime rt(api, drv, &mcu, test::config_from<GdevOptions>("sync_timeout: 50 ms"));
    const std::string c = args.which;
    const ShippedPtx& ptx = shipped_ptx("gdev", compute_arch(drv));
    GdevContext* ctx = rt.ctx_create();
    HostBuf h = rt.mem_alloc_host(ctx, 1 << 20);
    if (c == "reuse") {
      // A freed buffer's VRAM serves the next allocation of its size (its VA does not: next fit, a
      // stale pointer faults); data round-trips.
      DevPtr a = rt.mem_alloc(ctx, 1 << 20);
      const uint64_t used = drv.vram().used_bytes();
      rt.mem_free(ctx, a);
      DevPtr b = rt.mem_alloc(ctx, 1 << 20);
      std::vector<uint32_t> in(1 << 18), out(1 << 18, 0);
      for (size_t i = 0; i < in.size(); ++i) in[i] = uint32_t(i * 2654435761u);
      api.poke(h.phys, in.data(), 1 << 20);
      rt.memcpy_htod(ctx, b, h, 1 << 20);
      api.poke(h.phys, out.data(), 1 << 20);
      rt.memcpy_dtoh(ctx, h, b, 1 << 20);
      api.peek(h.phys, out.data(), 1 << 20);
      api.log(format("reuse: va %s, phys %s, used %s, data %s", b.va() == a.va() ? "same" : "different",
                     b.buf.phys == a.buf.phys ? "same" : "different",
                     drv.vram().used_bytes() == used ? "same" : "different", in == out ? "ok" : "WRONG"));
      rt.mem_free(ctx, b);
    } else if (c == "cycles") {
      // Contexts created and destroyed, each loading a module and allocating: VRAM in use settles
      // (a closed channel's VRAM is held until the next channel closes, then reused).
      rt.ctx_destroy(ctx);
      std::string used;
      for (int i = 0; i < 6; ++i) {
        GdevContext* k = rt.ctx_create();
        const GpuModule m = rt.module_load(k, ptx.text, ptx.file_name());
        const DevPtr d = rt.mem_alloc(k, 3 << 20);
        rt.mem_free(k, d);
        rt.module_unload(k, m);
        rt.ctx_destroy(k);
        used += " " + std::to_string(drv.vram().used_bytes());
      }
      api.log("cycles: used bytes" + used);
      return 0;
    } else if (c == "double_free") {
      DevPtr a = rt.mem_alloc(ctx, 4096);
      rt.mem_free(ctx, a);
      rt.mem_free(ctx, a);
    } else if (c == "never_allocated") {
      DevPtr bogus;
      bogus.buf.va = 0x0123456000ull;
      rt.mem_free(ctx, bogus);
    } else if (c == "copy_after_free") {
      DevPtr a = rt.mem_alloc(ctx, 4096);
      rt.mem_free(ctx, a);
      rt.memcpy_htod(ctx, a, h, 4096);
    } else if (c == "gpu_copy_after_free") {
      // Past the runtime's check: the channel's copy engine meets the cleared page-table entry.
      DevPtr a = rt.mem_alloc(ctx, 4096);
      rt.memcpy_htod(ctx, a, h, 4096);  // the translation is in the GPU's TLB now
      rt.mem_free(ctx, a);
      ctx->copy(h.map.va, a.va(), 4096);
      rt.kick(ctx);
      rt.synchronize(ctx);
    } else if (c == "out_of_vram") {
      DevPtr a = rt.mem_alloc(ctx, 1 << 20);
      (void)a;
      rt.mem_alloc(ctx, drv.vram_size());
    } else if (c == "big_params" || c == "too_big_params") {
      return params(api, drv, rt, ctx, c == "too_big_params");
    } else if (c == "leak") {
      rt.mem_alloc(ctx, 4096);
      rt.mem_alloc(ctx, 8192);
      rt.module_load(ctx, ptx.text, ptx.file_name());
      const uint64_t before = drv.vram().live_blocks();
      rt.ctx_destroy(ctx);
      api.log(format("leak: %" PRIu64 " live VRAM blocks before cuCtxDestroy, %zu after", before,
                     drv.vram().live_blocks()));
      return 0;
    }
    rt.ctx_destroy(ctx);
    return 0;
  }

 private:
  // coeffs40 (tests/kernels/gpu_run_kernels.cu: 184 bytes of parameters, a struct of 40 floats by
  // value first): y[i] = c[i % 40] * x[i] + c[39 - i % 40]. Two launches with different
  // coefficients pushed before one synchronize (each needs its own buffer), a third after it (a
  // buffer reused), and the two-step launch (cuParamSet*, cuLaunchGrid). The program's block ends
  // with the last parameter (180 bytes); the runtime pads it to the kernel's 184 (8-byte alignment).
  static int params(HostApi& api, GpuDriver& drv, GdevRuntime& rt, GdevContext* ctx, bool too_big) {
    const std::string file = test::binary_dir() + "/tests/kernels/gpu_run_kernels." + compute_arch(drv) + ".ptx";
    const GpuModule m = rt.module_load(ctx, test::read_file(file), file);
    const unsigned n = 200;
    if (too_big) {  // 4100 bytes: one word over CUDA's limit
      rt.launch_async(ctx, m, "coeffs40", 2, 1, 128, 1, std::vector<uint32_t>(1025, 0));
      return 0;
    }
    const std::vector<gpu::ptx::ParamInfo>& p = m.kernel("coeffs40").params;
    HostBuf hx = rt.mem_alloc_host(ctx, n * 4), hy = rt.mem_alloc_host(ctx, n * 4);
    DevPtr x = rt.mem_alloc(ctx, n * 4);
    std::vector<float> xs(n);
    for (unsigned i = 0; i < n; ++i) xs[i] = 1.f / float(i + 1) - 0.125f * float(i);
    api.poke(hx.phys, xs.data(), n * 4);
    rt.memcpy_htod(ctx, x, hx, n * 4);
    const auto coeffs = [](unsigned run) {
      std::vector<float> c(40);
      for (unsigned j = 0; j < 40; ++j) c[j] = 0.5f + 0.25f * float(j + run) - (j % 3 ? 0.f : 1.f / 3.f);
      return c;
    };
    const auto args = [&](const std::vector<float>& c, const DevPtr& y) {
      std::vector<uint8_t> b(p[3].offset + p[3].size, 0);
      const uint64_t xva = x.va(), yva = y.va();
      std::memcpy(b.data() + p[0].offset, c.data(), 160);
      std::memcpy(b.data() + p[1].offset, &xva, 8);
      std::memcpy(b.data() + p[2].offset, &yva, 8);
      std::memcpy(b.data() + p[3].offset, &n, 4);
      std::vector<uint32_t> w((b.size() + 3) / 4, 0);
      std::memcpy(w.data(), b.data(), b.size());
      return w;
    };
    std::vector<DevPtr> y;
    for (unsigned run = 0; run < 4; ++run) y.push_back(rt.mem_alloc(ctx, n * 4));
    rt.launch_async(ctx, m, "coeffs40", 2, 1, 128, 1, args(coeffs(0), y[0]));
    rt.launch_async(ctx, m, "coeffs40", 2, 1, 128, 1, args(coeffs(1), y[1]));
    rt.synchronize(ctx);
    const size_t blocks = drv.vram().live_blocks();
    rt.launch_async(ctx, m, "coeffs40", 2, 1, 128, 1, args(coeffs(2), y[2]));
    rt.set_params(ctx, m, "coeffs40", 128, 1, args(coeffs(3), y[3]));
    rt.launch_grid_async(ctx, 2, 1);
    rt.synchronize(ctx);
    std::string line = "big_params:";
    for (unsigned run = 0; run < 4; ++run) {
      std::vector<float> got(n);
      rt.memcpy_dtoh(ctx, hy, y[run], n * 4);
      api.peek(hy.phys, got.data(), n * 4);
      const std::vector<float> c = coeffs(run);
      unsigned wrong = 0;
      for (unsigned i = 0; i < n; ++i) wrong += got[i] != std::fma(c[i % 40], xs[i], c[39 - i % 40]);
      line += format(" launch %u %s,", run + 1, wrong ? "WRONG" : "ok");
    }
    api.log(line + format(" VRAM blocks after the third and fourth launch: %s",
                          drv.vram().live_blocks() == blocks ? "same" : "more"));
    for (const DevPtr& d : y) rt.mem_free(ctx, d);
    rt.mem_free(ctx, x);
    rt.module_unload(ctx, m);
    const size_t before = drv.vram().live_blocks();
    rt.ctx_destroy(ctx);
    api.log(format("big_params: cuCtxDestroy freed %zu VRAM blocks", before - drv.vram().live_blocks()));
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("test_gdev_memory", GdevMemory, "test: cuMemFree, reuse and its bad inputs");

using MemRun = test::InProcessRun;
MemRun run(const std::string& which, std::vector<std::string> sets = {}) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = "test_gdev_memory";
  sets.push_back("workload.args.case=" + which);
  opt.overrides = std::move(sets);
  opt.log_level = "warning";  // the MMU's fault report is a warning; the program's lines print (not quiet)
  return test::run_in_process(opt);
}
using test::count;
using test::has;
}  // namespace

TEST(GdevMemory, AFreedBuffersVramIsReusedAndItsDataRoundTrips) {
  MemRun r = run("reuse");
  ASSERT_EQ(r.status, kExitOk) << r.err << r.out;
  EXPECT_TRUE(has(r.out + r.err, "reuse: va different, phys same, used same, data ok")) << r.out << r.err;
}

TEST(GdevMemory, ContextsCreatedAndDestroyedDoNotGrowVramInUse) {
  MemRun r = run("cycles");
  ASSERT_EQ(r.status, kExitOk) << r.err << r.out;
  const std::string all = r.out + r.err;
  const auto p = all.find("cycles: used bytes");
  ASSERT_NE(p, std::string::npos) << all;
  std::istringstream in(all.substr(p + 18, all.find('\n', p) - p - 18));
  std::vector<uint64_t> used;
  for (uint64_t u; in >> u;) used.push_back(u);
  ASSERT_EQ(used.size(), 6u) << all;
  for (size_t i = 2; i < used.size(); ++i) EXPECT_EQ(used[i], used[1]) << "cycle " << i << ": " << all;
}

TEST(GdevMemory, DoubleFreeIsAnErrorNamingTheAddress) {
  MemRun r = run("double_free");
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err, "cuMemFree: GPU address 0x")) << r.err;
  EXPECT_TRUE(has(r.err, "(context on channel 0) was already freed (double free)")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GdevMemory, FreeOfAnAddressNeverAllocatedIsAnError) {
  MemRun r = run("never_allocated");
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err, "cuMemFree: GPU address 0x123456000 was never allocated by cuMemAlloc in the context on "
                         "channel 0"))
      << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GdevMemory, CopyToAFreedBufferIsAnError) {
  MemRun r = run("copy_after_free");
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err, "cuMemcpyHtoD: the destination, GPU address 0x")) << r.err;
  EXPECT_TRUE(has(r.err, "(context on channel 0), was freed by cuMemFree")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

// cuMemFree cleared the page-table entries and flushed the TLB: the copy engine faults at the
// freed address although the translation was cached by the copy before the free.
TEST(GdevMemory, TheGpuFaultsAtAFreedBuffersAddress) {
  MemRun r = run("gpu_copy_after_free");
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err, "by gpu0.copy0: no page table entry (in the address space of channel 0")) << r.err;
  EXPECT_TRUE(has(r.err, "LAUNCH_DMA (method 0x0300, subchannel 1)")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GdevMemory, OutOfVramNamesTheRequestAndWhatIsFree) {
  MemRun r = run("out_of_vram");
  EXPECT_EQ(r.status, kExitSimFailure);
  // 1536 MiB of VRAM, 16 MiB of it page tables: the request of all of it cannot fit.
  EXPECT_TRUE(has(r.err, "cuMemAlloc of 1610612736 bytes (context on channel 0): alloc_vram: out of VRAM: asked "
                         "1610612736 bytes, "))
      << r.err;
  EXPECT_TRUE(has(r.err, " bytes free in 1 block, the largest ")) << r.err;
  EXPECT_TRUE(has(r.err, " of the 1593835520 bytes above the page tables")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(GdevMemory, ContextDestroyedWithBuffersReleasesAndReportsThem) {
  MemRun r = run("leak");
  ASSERT_EQ(r.status, kExitOk) << r.err << r.out;
  const std::string all = r.out + r.err;
  EXPECT_TRUE(has(all, "gdev: cuCtxDestroy of the context on channel 0 released 3 buffer(s) of ")) << all;
  EXPECT_TRUE(has(all, "still allocated (no cuMemFree / cuModuleUnload)")) << all;
  EXPECT_TRUE(has(r.stats, "\"gdev_released_buffers\": 3")) << r.stats;
  // The three buffers (and the module image) are gone; the channel's own VRAM waits for the next close.
  const auto p = all.find("leak: ");
  ASSERT_NE(p, std::string::npos) << all;
  uint64_t before = 0, after = 0;
  ASSERT_EQ(sscanf(all.c_str() + p, "leak: %" SCNu64 " live VRAM blocks before cuCtxDestroy, %" SCNu64, &before, &after),
            2);
  EXPECT_EQ(after, before - 3) << all;
}

// More than the 64 bytes CMP_ARG carries: each launch's block in its own parameter buffer in the
// context's VRAM (two launches pushed before one synchronize do not share one), reused after a
// synchronize, freed with the context; the two-step launch (set_params) too.
TEST(GdevMemory, ParametersBeyond64BytesTravelInAParameterBuffer) {
  MemRun r = run("big_params");
  ASSERT_EQ(r.status, kExitOk) << r.err << r.out;
  const std::string all = r.out + r.err;
  EXPECT_TRUE(has(all,
                  "big_params: launch 1 ok, launch 2 ok, launch 3 ok, launch 4 ok, VRAM blocks after the third "
                  "and fourth launch: same"))
      << all;
  // The two parameter buffers (and the channel's own VRAM, held until the next close: none here).
  EXPECT_TRUE(has(all, "big_params: cuCtxDestroy freed 2 VRAM blocks")) << all;
  EXPECT_FALSE(has(all, "still allocated")) << all;  // the runtime's buffers are not the program's leak
}

TEST(GdevMemory, ParametersBeyond4KiBAreRefused) {
  MemRun r = run("too_big_params");
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err,
                  "launch of coeffs40: 4100 bytes of parameters, a launch carries at most 4096 (CUDA's limit "
                  "for sm_20 to sm_35; compute.h CMP_PARAM_MAX)"))
      << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}
