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
// Several applications at once (`processes` copies of the application, or the list `apps`): each is
// a separate host process (sw/host/host_processes.h) with its own contexts — channels, GPU address
// spaces — and host buffers, sharing the host CPU by the scheduler's model and the GPU by the
// FIFO's time slices and the firmware's context switches; each checks its own results
// (docs/contexts.md "Several applications at once").
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
#include "models/mcu/debug_port.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"
#include "sw/host/host_processes.h"
#include "sw/kernels/shipped.h"

namespace hetvp::sw {
namespace {

// One program's data for one context: host buffers (pinned), what the kernel gets, the check.
struct Job {
  std::string program;
  uint32_t n = 0;      // the size argument
  unsigned salt = 0;   // makes this context's data (and loop's count) differ from every other's
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

// One application: what one process runs.
struct GpuBenchApp : ParamSet {
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

  void validate(Diagnostics& d) const override {
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

struct GpuBenchArgs : GpuBenchApp {
  Int<unsigned> processes{this, "processes", 1,
                          "applications run at once, each this program as a separate host process with its own "
                          "contexts (docs/contexts.md)",
                          Range{1, FIFO_MAX_CHANNELS}};
  List<GpuBenchApp> apps{this, "apps",
                         "different applications at once, one process each: a list of {program, size, runs, "
                         "contexts, host_memory} (instead of `processes`)"};
  Bool together{this, "together", false,
                "with several processes, each run starts when every process has finished its previous one: the "
                "applications are launched together every time, as Fujii 2014's Fig. 10 launches two"};
  Group<HostSchedulerOptions> host{this, "host", "how the host CPU's scheduler shares the CPU between processes"};
  Group<KernelCosts> kernel{this, "kernel", "the kernel driver's host costs"};
  Group<BounceOptions> bounce{this, "bounce", "bounce buffers of pageable copies (Gdev's kernel-mode build)"};
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Group<GdevOptions> gdev{this, "gdev", "runtime options"};
  Group<McuBootOptions> mcu{this, "mcu", "firmware images and boot timeout (the HUB/GPC context switch)"};
  Bool test_exit_with_context_open{this, "test_exit_with_context_open", false,
                                   "TEST ONLY: the last process ends after its last run's DataRead without Close "
                                   "(its context still open: the driver releases it and says so)"};

  void validate(Diagnostics& d) const override {
    mcu.validate(d);
    gdev.validate(d);
    GpuBenchApp::validate(d);
    for (const GpuBenchApp& a : apps) a.validate(d);
    if (!apps.empty() && processes > 1)
      d.error(processes.where() + ": give either processes (copies of one application) or apps (a list), not both");
    unsigned contexts_total = 0;
    for (const GpuBenchApp& a : apps) contexts_total += a.contexts;
    if (apps.empty()) contexts_total = processes * contexts;
    if (contexts_total > FIFO_MAX_CHANNELS)
      d.error(processes.where() + ": " + std::to_string(contexts_total) + " contexts at once, more than the FIFO's " +
              std::to_string(FIFO_MAX_CHANNELS) + " channels");
  }
};

class GpuBench : public ProgramWithArgs<GpuBenchArgs> {
 public:
  int run(HostApi& bus, const GpuBenchArgs& args) override {
    // Every access goes through `time`, which adds its time to a bucket (host_time.h): the per-run
    // host_*_ns columns. Above it the host CPU's scheduler: with one application it passes every
    // call straight on.
    HostTime time(bus);
    HostProcesses api(time, args.host);
    GpuDriver drv(api, args.driver);
    drv.open(0);
    time.set_bars(drv.function().bar[0], drv.function().bar_size[0], drv.function().bar[1],
                  drv.function().bar_size[1]);
    std::unique_ptr<McuDriver> mcu;
    bool falcon = false;
    if (drv.reg_read(GPU_PTOP_BASE + PTOP_HUB_BASE) != 0) {
      falcon = falcon_microcontrollers(drv);
      if (falcon)
        boot_nouveau(api, drv, args.mcu.boot_timeout);
      else
        boot_microcontrollers(api, drv, args.mcu);
      mcu = std::make_unique<McuDriver>(api, drv);
      time.add_mcu_window(mcu->base(McuId::hub()), GPU_MCU_WINDOW);
      for (unsigned g = 0; g < drv.num_gpcs(); ++g) time.add_mcu_window(mcu->base(McuId::gpc_n(g)), GPU_MCU_WINDOW);
    }
    GdevRuntime rt(api, drv, mcu.get(), args.gdev);
    rt.set_bounce(args.bounce);
    rt.set_kernel_costs(args.kernel);
    // The kernels: sw/kernels/gdev.cu compiled for the compute units' architecture.
    Shared sh{api, time, drv, mcu.get(), rt, shipped_ptx("gdev", compute_arch(drv)), mcu != nullptr};

    std::vector<const GpuBenchApp*> apps;
    for (const GpuBenchApp& a : args.apps) apps.push_back(&a);
    if (apps.empty()) apps.assign(args.processes, &args);
    const bool several = apps.size() > 1;
    for (const GpuBenchApp* a : apps) sh.runs_total += a->runs;
    std::vector<std::string> cols = {"program",  "size",      "contexts", "run",       "total_ns",
                                     "switches", "switch_ns", "check",    "fw_hub_ns", "fw_gpcs_ns"};
    for (unsigned b = 0; b < HostTime::kBuckets; ++b)
      cols.push_back(std::string("host_") + HostTime::name(HostTime::Bucket(b)) + "_ns");
    for (unsigned ph = 0; ph < kPhases; ++ph) cols.push_back(std::string(kPhaseColumn[ph]) + "_ns");
    // Several processes: which one, and when its run started (ns of host time from the processes'
    // start): a round of all processes' runs is from the earliest start to the latest end.
    if (several) cols.insert(cols.end(), {"process", "start_ns"});
    api.results().set_columns(cols);

    if (!several) {
      AppResult r;
      run_app(sh, *apps[0], -1, 0, false, nullptr, r);
      report(sh, *apps[0], r, "", "");
      api.stat("switches", double(r.switches));
      api.stat("golden_ns", rt.golden_time().to_seconds() * 1e9);
      api.stat("failed_runs", r.failures);
      // A wrong result stops the run with the first one named (after the numbers above are out).
      if (r.failures)
        throw HostError(format("gpu_bench: %u of %zu run(s) failed the self-check; first: %s", r.failures,
                               r.totals.size(), r.first_bad.c_str()));
      return 0;
    }

    // Several applications: one process each, started together.
    rt.set_processes(&api);
    const unsigned n = unsigned(apps.size());
    std::vector<AppResult> res(n);
    std::vector<unsigned> first_salt(n, 0);  // contexts of the processes before: every context's data differ
    for (unsigned i = 1; i < n; ++i) first_salt[i] = first_salt[i - 1] + apps[i - 1]->contexts;
    uint64_t sw_ns0 = 0;
    const uint32_t sw0 = switch_state(sh, sw_ns0);
    const sc_core::sc_time t0 = api.now();
    for (AppResult& r : res) r.origin = t0;
    const std::vector<std::string> errors = api.run(
        n,
        [&](unsigned i) {
          res[i].start = api.now();
          run_app(sh, *apps[i], int(i), first_salt[i], args.test_exit_with_context_open && i == n - 1,
                  args.together ? &api : nullptr, res[i]);
          res[i].end = api.now();
        },
        [&](unsigned i) { rt.process_exit(int(i)); });
    const double makespan = (api.now() - t0).to_seconds() * 1e9;
    uint64_t sw_ns1 = 0;
    const uint32_t sw1 = switch_state(sh, sw_ns1);
    unsigned failures = 0;
    std::string first_bad;
    for (unsigned i = 0; i < n; ++i) {
      const std::string p = format("process%u_", i);
      if (!res[i].totals.empty()) report(sh, *apps[i], res[i], p, format("process %u: ", i));
      api.stat(p + "elapsed_ns", (res[i].end - res[i].start).to_seconds() * 1e9);
      if (!errors[i].empty() && first_bad.empty()) first_bad = format("process %u: %s", i, errors[i].c_str());
      if (res[i].failures && first_bad.empty()) first_bad = format("process %u: %s", i, res[i].first_bad.c_str());
      failures += res[i].failures + (errors[i].empty() ? 0 : 1);
    }
    api.log(format("gpu_bench: %u processes at once: all done after %.3f us, %u GR context switches, %" PRIu64
                   " host CPU switches between processes (%" PRIu64 " at the end of a time slice)%s",
                   n, makespan / 1e3, sw1 - sw0, api.switches(), api.preemptions(),
                   failures ? "" : ", every process's results correct"));
    api.stat("processes", n);
    api.stat("makespan_ns", makespan);
    api.stat("switches", double(sw1 - sw0));
    api.stat("switch_ns", double(sw_ns1 - sw_ns0));
    api.stat("host_process_switches", double(api.switches()));
    api.stat("host_preemptions", double(api.preemptions()));
    api.stat("golden_ns", rt.golden_time().to_seconds() * 1e9);
    api.stat("failed_runs", failures);
    if (failures) throw HostError(format("gpu_bench: %u failure(s) in %u processes; first: %s", failures, n,
                                         first_bad.c_str()));
    return 0;
  }

 private:
  // What every application shares: the CPU, the driver, the runtime, the kernels.
  struct Shared {
    HostApi& api;
    HostTime& time;
    GpuDriver& drv;
    McuDriver* mcu;
    GdevRuntime& rt;
    const ShippedPtx& kernels;
    bool counters;  // the cores' DBG_CYCLES (every microcontroller, RV32 and Falcon)
    uint64_t runs_done = 0, runs_total = 0;  // every application's runs, for --progress
  };
  // One application's runs.
  struct AppResult {
    std::vector<double> totals;
    std::vector<std::array<double, kPhases>> phases;
    uint64_t switches = 0;
    unsigned failures = 0;
    std::string first_bad;
    sc_core::sc_time origin;      // the processes' common start (start_ns counts from it)
    sc_core::sc_time start, end;  // this process's first dispatch and end
  };
  static uint32_t switch_state(Shared& sh, uint64_t& ns) {
    const uint32_t fifo = sh.rt.fifo_base();
    ns = sh.drv.reg_read(fifo + FIFO_SWITCH_NS_LO) | uint64_t(sh.drv.reg_read(fifo + FIFO_SWITCH_NS_HI)) << 32;
    return sh.drv.reg_read(fifo + FIFO_SWITCHES);
  }
  // The firmware's busy time: every core, RV32 and Falcon alike, counts the cycles it executes
  // (not while asleep) in its window's debug port (DBG_CYCLES, models/mcu/debug_port.h; on RV32
  // the same count as UC_CYCLES), read over BAR0 between runs, outside the timed part: both
  // firmwares measured one way (bench/fujii2013).
  static void fw_busy(Shared& sh, double& hub, double& gpcs) {
    hub = gpcs = 0;
    if (!sh.counters) return;
    namespace dbg = hetvp::mcu;
    auto busy_ns = [&](const McuId& m) {
      uint32_t hi = sh.mcu->read(m, dbg::DBG_CYCLES_HI), lo = sh.mcu->read(m, dbg::DBG_CYCLES_LO);
      for (uint32_t h; (h = sh.mcu->read(m, dbg::DBG_CYCLES_HI)) != hi; hi = h) lo = sh.mcu->read(m, dbg::DBG_CYCLES_LO);
      const uint32_t khz = sh.mcu->read(m, dbg::DBG_CLOCK_KHZ);
      return khz ? double(uint64_t(hi) << 32 | lo) * 1e6 / khz : 0.0;
    };
    hub = busy_ns(McuId::hub());
    for (unsigned g = 0; g < sh.drv.num_gpcs(); ++g) gpcs += busy_ns(McuId::gpc_n(g));
  }

  // Gdev's test program `app.runs` times; `process` -1 when it is the only application (else its
  // index: its data differ from the other processes', its rows say which it is). `leave_open`: the
  // last run skips Close (TEST ONLY). `together`: each run waits for every process at a barrier.
  static void run_app(Shared& sh, const GpuBenchApp& app, int process, unsigned first_salt, bool leave_open,
                      HostProcesses* together, AppResult& out) {
    HostApi& api = sh.api;
    GdevRuntime& rt = sh.rt;
    const bool pageable = app.host_memory == HostMemory::pageable;
    const std::string& prog = app.program.word();
    const uint32_t n = app.size;
    const unsigned runs = app.runs, contexts = app.contexts;
    std::vector<Job> jobs(contexts);
    for (unsigned k = 0; k < contexts; ++k) prepare(api, jobs[k], prog, n, first_salt + k);
    for (unsigned r = 0; r < runs; ++r) {
      if (together) together->barrier();  // every process's run r starts together
      const bool close = !(leave_open && r + 1 == runs);
      for (auto& j : jobs) clear_output(api, j);
      uint64_t sw_ns0 = 0;
      const uint32_t sw0 = switch_state(sh, sw_ns0);
      double hub0, gpcs0;
      fw_busy(sh, hub0, gpcs0);
      const auto host0 = sh.time.ns();
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
        if (pageable) rt.alloc_bounce(live[k].ctx);  // Gdev's gopen: the bounce buffers with the context
        if (prog != "memcpy") live[k].mod = rt.module_load(live[k].ctx, sh.kernels.text, sh.kernels.file_name());
      }
      stamp(Init);
      for (unsigned k = 0; k < contexts; ++k) alloc(rt, jobs[k], live[k], pageable);
      stamp(MemAlloc);
      for (auto& j : jobs) write_inputs(api, j);
      stamp(DataInit);
      for (unsigned k = 0; k < contexts; ++k) copy_in(rt, jobs[k], live[k], pageable);
      stamp(HtoD);
      for (unsigned k = 0; k < contexts; ++k) set_params(rt, jobs[k], live[k]);
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
      if (close)
        for (unsigned k = 0; k < contexts; ++k) release(rt, live[k]);
      stamp(Close);
      const double total = (api.now() - t0).to_seconds() * 1e9;
      const auto host1 = sh.time.ns();
      double hub1, gpcs1;
      fw_busy(sh, hub1, gpcs1);
      uint64_t sw_ns1 = 0;
      const uint32_t sw1 = switch_state(sh, sw_ns1);
      std::string bad;
      for (unsigned k = 0; k < contexts && bad.empty(); ++k) bad = check(api, jobs[k], k);
      if (!bad.empty()) {
        const std::string who = process < 0 ? "" : format("process %d: ", process);
        if (!out.failures) out.first_bad = format("run %u: %s", r, bad.c_str());
        ++out.failures;
        api.log(format("gpu_bench: %srun %u: %s", who.c_str(), r, bad.c_str()));
      }
      out.totals.push_back(total);
      out.phases.push_back(ph);
      out.switches += sw1 - sw0;
      std::vector<std::string> row = {prog,
                                      std::to_string(n),
                                      std::to_string(contexts),
                                      std::to_string(r),
                                      format("%.0f", total),
                                      std::to_string(sw1 - sw0),
                                      std::to_string(sw_ns1 - sw_ns0),
                                      bad.empty() ? "ok" : "FAILED",
                                      sh.counters ? format("%.0f", hub1 - hub0) : "",
                                      sh.counters ? format("%.0f", gpcs1 - gpcs0) : ""};
      for (unsigned b = 0; b < HostTime::kBuckets; ++b) row.push_back(format("%.0f", host1[b] - host0[b]));
      for (unsigned p = 0; p < kPhases; ++p) row.push_back(format("%.0f", ph[p]));
      if (process >= 0) {
        row.push_back(std::to_string(process));
        row.push_back(format("%.0f", (t0 - out.origin).to_seconds() * 1e9));
      }
      api.results().add_row(row);
      api.progress(++sh.runs_done, sh.runs_total);  // --progress: runs done of all applications'
    }
  }

  // The summary of one application's runs: log lines and stats (each key prefixed by `stat_prefix`,
  // each line by `who`).
  static void report(Shared& sh, const GpuBenchApp& app, const AppResult& r, const std::string& stat_prefix,
                     const std::string& who) {
    HostApi& api = sh.api;
    const size_t runs = r.totals.size();
    const double first = r.totals[0];
    std::vector<double> rest(r.totals.begin() + 1, r.totals.end());
    std::sort(rest.begin(), rest.end());
    const double median = rest.empty() ? first : rest[rest.size() / 2];
    // With one run there are no others to take a median of: say so (issue #42 item 7).
    const std::string later = rest.empty() ? std::string("no later run")
                                           : format("median of the others %.3f us", median / 1e3);
    api.log(format("gpu_bench %s%s size %u, %zu run(s) x %u context(s): first run %.3f us, %s, %" PRIu64
                   " GR context switches, golden context %.3f us%s",
                   who.c_str(), app.program.word().c_str(), unsigned(app.size), runs, unsigned(app.contexts),
                   first / 1e3, later.c_str(), r.switches, sh.rt.golden_time().to_seconds() * 1e6,
                   r.failures ? "" : ", every result correct"));
    // Gdev's test programs print each phase in ms ("HtoD: 0.123456"); here the median over the runs
    // after the first (the first alone when there is one run).
    std::string line = "gpu_bench " + who + "phases (ms, " +
                       std::string(runs > 1 ? "median of the runs after the first" : "the run") + "):";
    for (unsigned p = 0; p <= kPhases; ++p) {
      std::vector<double> v;
      for (size_t i = runs > 1 ? 1 : 0; i < runs; ++i) v.push_back(p < kPhases ? r.phases[i][p] : r.totals[i]);
      std::sort(v.begin(), v.end());
      const double med = v[v.size() / 2];
      line += format(" %s: %.6f", p < kPhases ? kPhaseName[p] : "Total", med / 1e6);
      if (p < kPhases) api.stat(stat_prefix + "median_" + kPhaseColumn[p] + "_ns", med);
    }
    api.log(line);
    api.stat(stat_prefix + "first_run_ns", first);
    api.stat(stat_prefix + "median_run_ns", median);
  }
  // Pinned host buffers and their contents (untimed: the program's data exists before it runs).
  static void prepare(HostApi& api, Job& j, const std::string& prog, uint32_t n, unsigned k) {
    j.program = prog;
    j.salt = k;
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
  static void set_params(GdevRuntime& rt, const Job& j, Live& l) {
    const unsigned k = j.salt;
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
  static std::string check(HostApi& api, const Job& j, unsigned context) {
    const unsigned k = j.salt;
    std::vector<uint32_t> c(j.out_bytes / 4 + 1), a(j.in_bytes / 4 + 1), b(j.in_bytes / 4 + 1);
    api.peek(j.host_c, c.data(), j.out_bytes);
    if (j.in_bytes) {
      api.peek(j.host_a, a.data(), j.in_bytes);
      api.peek(j.host_b, b.data(), j.in_bytes);
    }
    const uint32_t n = j.n;
    auto wrong = [&](size_t i, uint64_t got, uint64_t want) {
      return format("context %u: %s element %zu is 0x%" PRIx64 ", expected 0x%" PRIx64, context, j.program.c_str(), i, got,
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
