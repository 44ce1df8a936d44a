// `gpu_bench`: Gdev's CUDA microbenchmarks (madd, mmul, fmadd, memcpy, loop, idle) on the FIFO
// runtime, as Fujii 2013 runs them: each run is Gdev's test program (test/cuda/common/madd.c):
// create a context and load the module, allocate, write the inputs, copy them in, set the kernel's
// parameters, launch and synchronize, copy the result out, read it, free, unload, destroy. The
// simulated host time is stamped between those steps as the test program's gettimeofday calls are,
// giving Gdev's phases (Init, MemAlloc, DataInit, HtoD, KernConf, Exec, DtoH, DataRead, Close;
// their sum is the run's total). VRAM is freed every run, so any number of runs fits. With
// `contexts` > 1 each phase does its step for every context in turn (one host thread; a launch is
// pushed to all before any is waited for), so the FIFO time-slices their channels and switches GR
// between them. Reported: every run's total and phase times (CSV with --csv), the first run apart
// (it pays the golden context), the median of the others, GR context switches and their time.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstring>

#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/host/host_api.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/gdev/host_time.h"
#include "sw/gdev/runtime.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"
#include "sw/kernels/shipped.h"

namespace hetvp::sw {
namespace {

// One program's data for one context: host buffers (pinned), what the kernel gets, the check.
struct Job {
  std::string program;
  uint32_t n = 0;  // the size argument
  uint64_t in_bytes = 0, out_bytes = 0;
  uint64_t host_a = 0, host_b = 0, host_c = 0;  // pinned
  std::vector<uint32_t> a, b;                     // the inputs DataInit writes (their last word padding)
};

uint64_t bytes_in(const std::string& p, uint32_t n) {
  if (p == "memcpy") return n;
  if (p == "loop") return uint64_t(n) * 0;  // no input
  if (p == "idle") return 0;
  return uint64_t(n) * n * 4;
}
uint64_t bytes_out(const std::string& p, uint32_t n) {
  if (p == "memcpy") return n;
  if (p == "loop") return 32ull * 4;
  if (p == "idle") return 4;
  return uint64_t(n) * n * 4;
}

HETVP_ENUM(BenchProgram, madd, mmul, fmadd, memcpy, loop, idle);
// Where the program's host buffers are: pinned and mapped for the GPU (cuMemAllocHost-style: one
// DMA per copy), or pageable (malloc'ed, as in Gdev's test programs: copied through the runtime's
// bounce buffers).
HETVP_ENUM(HostMemory, pinned, pageable);

// Gdev's phases (test/cuda/common/madd.c: the names it prints) and their CSV columns (+ "_ns").
enum Phase { Init, MemAlloc, DataInit, HtoD, KernConf, Exec, DtoH, DataRead, Close, kPhases };
constexpr const char* kPhaseName[kPhases] = {"Init", "MemAlloc", "DataInit", "HtoD", "KernConf",
                                             "Exec", "DtoH",     "DataRead", "Close"};
constexpr const char* kPhaseColumn[kPhases] = {"init", "memalloc", "datainit", "htod",    "kernconf",
                                               "exec", "dtoh",     "dataread", "close"};

struct GpuBenchArgs : ParamSet {
  Enum<BenchProgram> program{this, "program", BenchProgram::madd, "the microbenchmark (Gdev test/cuda/user)"};
  Int<uint32_t> size{this, "size", 64,
                     "problem size: matrix side for madd/fmadd/mmul, bytes for memcpy, iterations for loop, cycles "
                     "for idle",
                     Range{1, 1 << 26}};
  Int<unsigned> runs{this, "runs", 1,
                     "runs (each: create context, load, allocate, copy in, launch, copy out, free, unload, destroy)",
                     Range{1, 10000}};
  Int<unsigned> contexts{this, "contexts", 1, "contexts per run, driven at once", Range{1, FIFO_MAX_CHANNELS}};
  Enum<HostMemory> host_memory{this, "host_memory", HostMemory::pinned,
                               "the program's host buffers: pinned and mapped (one DMA per copy) or pageable (copied "
                               "through the runtime's bounce buffers, as Gdev's test programs' malloc'ed buffers)"};
  Group<BounceOptions> bounce{this, "bounce", "bounce buffers of pageable copies (Gdev's kernel-mode build)"};
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Group<GdevOptions> gdev{this, "gdev", "runtime options"};
  Group<McuBootOptions> mcu{this, "mcu", "firmware images and boot timeout (the HUB/GPC context switch)"};

  void validate(Diagnostics& d) const override {
    mcu.validate(d);
    gdev.validate(d);
    const std::string& p = program.word();
    const uint32_t n = size;
    if ((program == BenchProgram::madd || program == BenchProgram::fmadd) && n > 2048)
      d.error(size.where() + ": " + p + " of a " + std::to_string(n) + " x " + std::to_string(n) +
              " matrix is too large (at most 2048)");
    if (program == BenchProgram::mmul && n > 256)
      d.error(size.where() + ": mmul of a " + std::to_string(n) + " x " + std::to_string(n) +
              " matrix is too large (at most 256: the simulation walks every multiply)");
  }
};

class GpuBench : public ProgramWithArgs<GpuBenchArgs> {
 public:
  int run(HostApi& bus, const GpuBenchArgs& args) override {
    // Every access goes through `api`, which adds its time to a bucket (host_time.h): the per-run
    // host_*_ns columns.
    HostTime api(bus);
    GpuDriver drv(api, args.driver);
    drv.open(0);
    api.set_bars(drv.function().bar[0], drv.function().bar_size[0], drv.function().bar[1], drv.function().bar_size[1]);
    std::unique_ptr<McuDriver> mcu;
    bool falcon = false;
    if (drv.reg_read(GPU_PTOP_BASE + PTOP_HUB_BASE) != 0) {
      falcon = falcon_microcontrollers(drv);
      if (falcon)
        boot_nouveau(api, drv, args.mcu.boot_timeout);
      else
        boot_microcontrollers(api, drv, args.mcu);
      mcu = std::make_unique<McuDriver>(api, drv);
      api.add_mcu_window(mcu->base(McuId::hub()), GPU_MCU_WINDOW);
      for (unsigned g = 0; g < drv.num_gpcs(); ++g) api.add_mcu_window(mcu->base(McuId::gpc_n(g)), GPU_MCU_WINDOW);
    }
    // The firmware's busy time: the RV32 cores count the cycles they execute (UC_CYCLES, not
    // while asleep; UC_CLOCK_KHZ their clock), read over BAR0 between runs (outside the timed
    // part). The Falcon exposes no such counter: its columns stay empty and the bench takes the
    // busy time from the run's stats (`cycles` per core).
    const bool counters = mcu && !falcon;
    auto busy_ns = [&](const McuId& m) {
      const uint64_t cyc = mcu->read(m, MCU_UC_CYCLES_LO) | uint64_t(mcu->read(m, MCU_UC_CYCLES_HI)) << 32;
      const uint32_t khz = mcu->read(m, MCU_UC_CLOCK_KHZ);
      return khz ? double(cyc) * 1e6 / khz : 0.0;
    };
    auto fw_busy = [&](double& hub, double& gpcs) {
      hub = gpcs = 0;
      if (!counters) return;
      hub = busy_ns(McuId::hub());
      for (unsigned g = 0; g < drv.num_gpcs(); ++g) gpcs += busy_ns(McuId::gpc_n(g));
    };
    GdevRuntime rt(api, drv, mcu.get(), args.gdev);
    rt.set_bounce(args.bounce);
    const bool pageable = args.host_memory == HostMemory::pageable;
    // The kernels: sw/kernels/gdev.cu compiled for the compute units' architecture.
    const ShippedPtx& kernels = shipped_ptx("gdev", compute_arch(drv));
    const std::string& prog = args.program.word();
    const uint32_t n = args.size;
    const unsigned runs = args.runs, contexts = args.contexts;
    std::vector<Job> jobs(contexts);
    for (unsigned k = 0; k < contexts; ++k) prepare(api, jobs[k], prog, n, k);

    std::vector<std::string> cols = {"program",  "size",      "contexts", "run",       "total_ns",
                                     "switches", "switch_ns", "check",    "fw_hub_ns", "fw_gpcs_ns"};
    for (unsigned b = 0; b < HostTime::kBuckets; ++b)
      cols.push_back(std::string("host_") + HostTime::name(HostTime::Bucket(b)) + "_ns");
    for (unsigned ph = 0; ph < kPhases; ++ph) cols.push_back(std::string(kPhaseColumn[ph]) + "_ns");
    api.results().set_columns(cols);
    const uint32_t fifo = rt.fifo_base();
    auto switch_state = [&](uint64_t& ns) {
      ns = drv.reg_read(fifo + FIFO_SWITCH_NS_LO) | uint64_t(drv.reg_read(fifo + FIFO_SWITCH_NS_HI)) << 32;
      return drv.reg_read(fifo + FIFO_SWITCHES);
    };
    std::vector<double> totals;
    std::vector<std::array<double, kPhases>> phases;
    uint64_t all_switches = 0;
    unsigned failures = 0;
    std::string first_bad;
    for (unsigned r = 0; r < runs; ++r) {
      for (auto& j : jobs) clear_output(api, j);
      uint64_t sw_ns0 = 0;
      const uint32_t sw0 = switch_state(sw_ns0);
      double hub0, gpcs0;
      fw_busy(hub0, gpcs0);
      const auto host0 = api.ns();
      // Gdev's test program, its gettimeofday calls as `stamp` (the simulated host time).
      std::array<double, kPhases> ph{};
      sc_core::sc_time mark = api.now();
      const sc_core::sc_time t0 = mark;
      auto stamp = [&](Phase p) {
        const sc_core::sc_time t = api.now();
        ph[p] = (t - mark).to_seconds() * 1e9;
        mark = t;
      };
      std::vector<Live> live(contexts);
      for (unsigned k = 0; k < contexts; ++k) {  // cuCtxCreate, cuModuleLoad, cuFuncSetBlockShape
        live[k].ctx = rt.ctx_create();
        if (prog != "memcpy") live[k].mod = rt.module_load(live[k].ctx, kernels.text, kernels.file_name());
      }
      stamp(Init);
      for (unsigned k = 0; k < contexts; ++k) alloc(rt, jobs[k], live[k], pageable);
      stamp(MemAlloc);
      for (auto& j : jobs) write_inputs(api, j);
      stamp(DataInit);
      for (unsigned k = 0; k < contexts; ++k) copy_in(rt, jobs[k], live[k], pageable);
      stamp(HtoD);
      for (unsigned k = 0; k < contexts; ++k) set_params(rt, jobs[k], k, live[k]);
      stamp(KernConf);
      // Every context's launch before any is waited for: GR switches between the channels, so a
      // channel's kernel runs with what the context switch restored of its parameters.
      for (unsigned k = 0; k < contexts; ++k)
        if (live[k].gx) rt.launch_grid_async(live[k].ctx, live[k].gx, live[k].gy);
      for (unsigned k = 0; k < contexts; ++k)
        if (live[k].gx) rt.synchronize(live[k].ctx);
      stamp(Exec);
      for (unsigned k = 0; k < contexts; ++k) {
        if (pageable)
          rt.memcpy_dtoh_pageable(live[k].ctx, jobs[k].host_c, live[k].dc, jobs[k].out_bytes);
        else
          rt.memcpy_dtoh(live[k].ctx, live[k].c, live[k].dc, jobs[k].out_bytes);
      }
      stamp(DtoH);
      for (auto& j : jobs) read_output(api, j);
      stamp(DataRead);
      for (unsigned k = 0; k < contexts; ++k) release(rt, live[k]);
      stamp(Close);
      const double total = (api.now() - t0).to_seconds() * 1e9;
      const auto host1 = api.ns();
      double hub1, gpcs1;
      fw_busy(hub1, gpcs1);
      uint64_t sw_ns1 = 0;
      const uint32_t sw1 = switch_state(sw_ns1);
      std::string bad;
      for (unsigned k = 0; k < contexts && bad.empty(); ++k) bad = check(api, jobs[k], k);
      if (!bad.empty()) {
        if (!failures) first_bad = format("run %u: %s", r, bad.c_str());
        ++failures;
        api.log(format("gpu_bench: run %u: %s", r, bad.c_str()));
      }
      totals.push_back(total);
      phases.push_back(ph);
      all_switches += sw1 - sw0;
      std::vector<std::string> row = {prog,
                                      std::to_string(n),
                                      std::to_string(contexts),
                                      std::to_string(r),
                                      format("%.0f", total),
                                      std::to_string(sw1 - sw0),
                                      std::to_string(sw_ns1 - sw_ns0),
                                      bad.empty() ? "ok" : "FAILED",
                                      counters ? format("%.0f", hub1 - hub0) : "",
                                      counters ? format("%.0f", gpcs1 - gpcs0) : ""};
      for (unsigned b = 0; b < HostTime::kBuckets; ++b) row.push_back(format("%.0f", host1[b] - host0[b]));
      for (unsigned p = 0; p < kPhases; ++p) row.push_back(format("%.0f", ph[p]));
      api.results().add_row(row);
      bus.progress(r + 1, runs);  // --progress: runs done of all
    }
    const double first = totals[0];
    std::vector<double> rest(totals.begin() + 1, totals.end());
    std::sort(rest.begin(), rest.end());
    const double median = rest.empty() ? first : rest[rest.size() / 2];
    // With one run there are no others to take a median of: say so (issue #42 item 7).
    const std::string later = rest.empty() ? std::string("no later run")
                                           : format("median of the others %.3f us", median / 1e3);
    api.log(format("gpu_bench %s size %u, %u run(s) x %u context(s): first run %.3f us, %s, %" PRIu64
                   " GR context switches, golden context %.3f us%s",
                   prog.c_str(), n, runs, contexts, first / 1e3, later.c_str(), all_switches,
                   rt.golden_time().to_seconds() * 1e6, failures ? "" : ", every result correct"));
    // Gdev's test programs print each phase in ms ("HtoD: 0.123456"); here the median over the runs
    // after the first (the first alone when there is one run).
    std::string line = "gpu_bench phases (ms, " + std::string(runs > 1 ? "median of the runs after the first" : "the run") +
                       "):";
    for (unsigned p = 0; p <= kPhases; ++p) {
      std::vector<double> v;
      for (size_t r = runs > 1 ? 1 : 0; r < runs; ++r) v.push_back(p < kPhases ? phases[r][p] : totals[r]);
      std::sort(v.begin(), v.end());
      const double med = v[v.size() / 2];
      line += format(" %s: %.6f", p < kPhases ? kPhaseName[p] : "Total", med / 1e6);
      if (p < kPhases) api.stat(std::string("median_") + kPhaseColumn[p] + "_ns", med);
    }
    api.log(line);
    api.stat("first_run_ns", first);
    api.stat("median_run_ns", median);
    api.stat("switches", double(all_switches));
    api.stat("golden_ns", rt.golden_time().to_seconds() * 1e9);
    api.stat("failed_runs", failures);
    // A wrong result stops the run with the first one named (after the numbers above are out).
    if (failures)
      throw HostError(
          format("gpu_bench: %u of %u run(s) failed the self-check; first: %s", failures, runs, first_bad.c_str()));
    return 0;
  }

 private:
  // Pinned host buffers and their contents (untimed: the program's data exists before it runs).
  static void prepare(HostApi& api, Job& j, const std::string& prog, uint32_t n, unsigned k) {
    j.program = prog;
    j.n = n;
    j.in_bytes = bytes_in(prog, n);
    j.out_bytes = bytes_out(prog, n);
    if (j.in_bytes) {
      j.host_a = api.alloc_pinned(j.in_bytes, 4096);
      j.host_b = api.alloc_pinned(j.in_bytes, 4096);
      std::vector<uint32_t> a(j.in_bytes / 4 + 1), b(j.in_bytes / 4 + 1);
      for (size_t i = 0; i < a.size(); ++i) {
        const uint32_t row = n ? uint32_t(i / n) : 0;
        if (prog == "fmadd") {
          const float fa = float(row) + 0.5f * float(k), fb = float(row);
          std::memcpy(&a[i], &fa, 4);
          std::memcpy(&b[i], &fb, 4);
        } else if (prog == "memcpy") {
          a[i] = uint32_t(i * 2654435761u) ^ k;
        } else {  // Gdev madd/mmul: a[i][j] = b[i][j] = i; context k adds k to a, so contexts differ
          a[i] = row + k;
          b[i] = prog == "mmul" ? uint32_t(i % 7) : row;
        }
      }
      j.a = std::move(a);
      j.b = std::move(b);
    }
    j.host_c = api.alloc_pinned(j.out_bytes, 4096);
  }
  // DataInit: the program writes its inputs (the CPU's stores into the pinned buffers, timed).
  static void write_inputs(HostApi& api, const Job& j) {
    if (!j.in_bytes) return;
    api.write(j.host_a, j.a.data(), j.in_bytes, Access::Cached);
    if (j.program != "memcpy") api.write(j.host_b, j.b.data(), j.in_bytes, Access::Cached);
  }
  // DataRead: the program reads the result (Gdev's madd reads every element; timed).
  static void read_output(HostApi& api, const Job& j) {
    std::vector<uint8_t> c(j.out_bytes);
    api.read(j.host_c, c.data(), c.size(), Access::Cached);
  }
  static void clear_output(HostApi& api, const Job& j) {
    std::vector<uint8_t> z(j.out_bytes, 0xee);
    api.poke(j.host_c, z.data(), z.size());
  }

  // One context's run. MemAlloc: the device buffers (memcpy: one, as Gdev's memcpy.c; the kernels:
  // inputs and output) and the pinned host buffers mapped. KernConf: the kernel's block shape and
  // parameters (cuFuncSetBlockShape / cuParamSet*), cuLaunchGrid then pushes the grid. With several
  // contexts GR switches to the others between a channel's parameters and its launch, so its kernel
  // runs with what the context switch restored. `loop` counts n + k in context k: the contexts'
  // parameters differ, and a parameter that is not restored gives a wrong number.
  struct Live {
    GdevContext* ctx = nullptr;
    HostBuf a, b, c;
    DevPtr da, db, dc;
    GpuModule mod;
    uint32_t gx = 0, gy = 0;  // 0: nothing to launch (memcpy)
  };
  static bool two_inputs(const Job& j) { return j.in_bytes && j.program != "memcpy"; }
  static void alloc(GdevRuntime& rt, const Job& j, Live& l, bool pageable) {
    GdevContext* ctx = l.ctx;
    if (j.in_bytes) {
      if (!pageable) l.a = rt.map_host(ctx, j.host_a, j.in_bytes);
      l.da = rt.mem_alloc(ctx, j.in_bytes);
    }
    if (two_inputs(j)) {
      if (!pageable) l.b = rt.map_host(ctx, j.host_b, j.in_bytes);
      l.db = rt.mem_alloc(ctx, j.in_bytes);
    }
    if (!pageable) l.c = rt.map_host(ctx, j.host_c, j.out_bytes);
    l.dc = j.program == "memcpy" ? l.da : rt.mem_alloc(ctx, j.out_bytes);
  }
  static void copy_in(GdevRuntime& rt, const Job& j, Live& l, bool pageable) {
    auto in = [&](const DevPtr& d, const HostBuf& h, uint64_t host) {
      if (pageable)
        rt.memcpy_htod_pageable(l.ctx, d, host, j.in_bytes);
      else
        rt.memcpy_htod(l.ctx, d, h, j.in_bytes);
    };
    if (j.in_bytes) in(l.da, l.a, j.host_a);
    if (two_inputs(j)) in(l.db, l.b, j.host_b);
  }
  static void set_params(GdevRuntime& rt, const Job& j, unsigned k, Live& l) {
    GdevContext* ctx = l.ctx;
    const uint32_t n = j.n;
    const std::string& p = j.program;
    auto lo = [](uint64_t v) { return uint32_t(v); };
    auto hi = [](uint64_t v) { return uint32_t(v >> 32); };
    if (p == "memcpy") return;
    l.gx = l.gy = 1;
    if (p == "loop") {
      rt.set_params(ctx, l.mod, "gdev_loop", 32, 1, {lo(l.dc.va()), hi(l.dc.va()), n + k, 32});
    } else if (p == "idle") {
      rt.set_params(ctx, l.mod, "gdev_idle", 1, 1, {lo(l.dc.va()), hi(l.dc.va()), n});
    } else {
      const uint32_t bx = std::min<uint32_t>(n, 16), by = std::min<uint32_t>(n, 16);
      l.gx = (n + bx - 1) / bx;
      l.gy = (n + by - 1) / by;
      rt.set_params(ctx, l.mod, "gdev_" + p, bx, by,
                    {lo(l.da.va()), hi(l.da.va()), lo(l.db.va()), hi(l.db.va()), lo(l.dc.va()), hi(l.dc.va()), n});
    }
  }
  // Close: cuMemFree of each buffer, cuModuleUnload, cuCtxDestroy (Gdev's madd.c order).
  static void release(GdevRuntime& rt, Live& l) {
    if (l.da.buf.size) rt.mem_free(l.ctx, l.da);
    if (l.db.buf.size) rt.mem_free(l.ctx, l.db);
    if (l.dc.buf.size && l.dc.va() != l.da.va()) rt.mem_free(l.ctx, l.dc);
    if (l.mod.image.size) rt.module_unload(l.ctx, l.mod);
    rt.ctx_destroy(l.ctx);
  }

  // The result computed on the host; "" when right, else where it is wrong.
  static std::string check(HostApi& api, const Job& j, unsigned k) {
    std::vector<uint32_t> c(j.out_bytes / 4 + 1), a(j.in_bytes / 4 + 1), b(j.in_bytes / 4 + 1);
    api.peek(j.host_c, c.data(), j.out_bytes);
    if (j.in_bytes) {
      api.peek(j.host_a, a.data(), j.in_bytes);
      api.peek(j.host_b, b.data(), j.in_bytes);
    }
    const uint32_t n = j.n;
    auto wrong = [&](size_t i, uint64_t got, uint64_t want) {
      return format("context %u: %s element %zu is 0x%" PRIx64 ", expected 0x%" PRIx64, k, j.program.c_str(), i, got,
                    want);
    };
    if (j.program == "memcpy") {
      std::vector<uint8_t> x(j.in_bytes), y(j.out_bytes);
      api.peek(j.host_a, x.data(), x.size());
      api.peek(j.host_c, y.data(), y.size());
      for (size_t i = 0; i < x.size(); ++i)
        if (x[i] != y[i]) return wrong(i, y[i], x[i]);
      return "";
    }
    if (j.program == "loop") {
      for (uint32_t t = 0; t < 32; ++t)
        if (c[t] != t + n + k) return wrong(t, c[t], t + n + k);
      return "";
    }
    if (j.program == "idle") return c[0] == n ? "" : wrong(0, c[0], n);
    for (size_t i = 0; i < size_t(n) * n; ++i) {
      if (j.program == "fmadd") {
        float fa, fb, fc;
        std::memcpy(&fa, &a[i], 4);
        std::memcpy(&fb, &b[i], 4);
        std::memcpy(&fc, &c[i], 4);
        if (fc != fa + fb) return wrong(i, c[i], 0) + format(" (%g, expected %g)", double(fc), double(fa + fb));
      } else if (j.program == "madd") {
        if (c[i] != a[i] + b[i]) return wrong(i, c[i], a[i] + b[i]);
      } else {
        const size_t y = i / n, x = i % n;
        uint32_t s = 0;
        for (uint32_t kk = 0; kk < n; ++kk) s += a[y * n + kk] * b[kk * n + x];
        if (c[i] != s) return wrong(i, c[i], s);
      }
    }
    return "";
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("gpu_bench", GpuBench,
                       "Gdev's CUDA microbenchmarks (madd, mmul, fmadd, memcpy, loop, idle) through the FIFO runtime: "
                       "per-run time, first run apart, GR context switches (docs/contexts.md)");

}  // namespace hetvp::sw
