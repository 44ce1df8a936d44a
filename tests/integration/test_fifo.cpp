// The FIFO engine, channels and the Gdev-shaped runtime (docs/contexts.md), in-process.
//
// Every test runs the real context switch (the gr block, hetvp's HUB/GPC firmware: CHSW, MMCTX,
// strands) unless it says otherwise.
//
// TEST DOUBLE: `test_chsw` below is a GPU block that exists only in this test binary. It exports
// the context-switch interface (models/gpu/gr/chsw_if.h) the real GR context-switch unit (HUB
// firmware, MMCTX, strands: issue 23's other half) exports, and does the switch itself: after a
// fixed delay it copies the compute front end's and every GPC's context registers
// (HETVP_COMPUTE_CTX_REGS, HETVP_COMPUTE_GPC_CTX_REGS) of the current channel into a map keyed by
// instance address, loads the next channel's (zeros for a new one) and acknowledges. A parameter
// makes it never acknowledge. Only the never-acknowledged CHSW
// timeout uses it: hetvp's firmware always acknowledges, so that claim needs a unit that does not.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <tlm_utils/simple_initiator_socket.h>

#include "common/in_process_run.h"
#include "common/run_hetvp.h"
#include "common/stats_json.h"
#include "common/text_match.h"
#include "common/tlm_harness.h"
#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "models/gpu/gpu_block.h"
#include "models/gpu/gr/chsw_if.h"
#include "platform/access_info.h"
#include "platform/payload.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/gpu_driver.h"
#include "firmware/include/hetvp/pmc.h"
#include "sw/gdev/runtime.h"
#include "sw/kernels/shipped.h"
#include "sw/driver/mcu_driver.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

// ---------------------------------------------------------------- the test double
struct ChswDoubleConfig : ParamSet {
  Time ack_after{this, "ack_after", "2 us", "test double: time from the request to the ACK"};
  Bool never_ack{this, "never_ack", false, "test double: never acknowledge"};
  Bool use{this, "use", false, "test double: offer the CHSW interface (else the block does nothing)"};
};

class ChswDouble : public gpu::GpuBlock, public sc_core::sc_module, public gpu::ChswIf {
 public:
  tlm_utils::simple_initiator_socket<ChswDouble> bar0{"bar0"};
  gpu::ChswExport exp{"chsw"};

  ChswDouble(sc_core::sc_module_name n, gpu::GpuContext& ctx, const ChswDoubleConfig& p) : sc_core::sc_module(n) {
    ack_after_ = p.ack_after;
    never_ = p.never_ack;
    gpcs_ = ctx.num_gpcs;
    bar0.bind(ctx.bar0.in);
    exp.bind(*this);
    if (p.use) ctx.chsw = &exp;  // built last (name order): it replaces any real unit
    auto* info = new AccessInfo;
    info->initiator = "test_chsw";
    gp_.set_extension(info);
    SC_HAS_PROCESS(ChswDouble);
    SC_THREAD(run);
  }
  void request_switch(uint32_t, uint64_t inst, const sc_core::sc_time& delay) override {
    pending_ = true;
    next_ = inst;
    req_.notify(delay);
  }
  bool switch_pending() const override { return pending_; }
  const sc_core::sc_event& switch_acked() const override { return acked_; }
  bool current_channel(uint64_t& inst) const override {
    inst = cur_;
    return has_cur_;
  }

 private:
  // (BAR0 address, saved?) of every context register.
  std::vector<uint32_t> regs() const {
    std::vector<uint32_t> v;
#define X(off, n) \
  for (unsigned i = 0; i < (n); ++i) v.push_back(GPU_COMPUTE_BASE + (off) + 4 * i);
    HETVP_COMPUTE_CTX_REGS(X)
#undef X
    for (unsigned g = 0; g < gpcs_; ++g) {
#define Y(off, n) \
  for (unsigned i = 0; i < (n); ++i) v.push_back(GPU_COMPUTE_GPC_BASE + g * GPU_GPC_STRIDE + (off) + 4 * i);
      HETVP_COMPUTE_GPC_CTX_REGS(Y)
#undef Y
    }
    return v;
  }
  uint32_t rw(bool write, uint32_t addr, uint32_t v) {
    set_access(gp_, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, &v, 4);
    sc_core::sc_time d;
    bar0->b_transport(gp_, d);
    if (d > sc_core::SC_ZERO_TIME) sc_core::wait(d);
    return v;
  }
  void run() {
    for (;;) {
      sc_core::wait(req_);
      sc_core::wait(ack_after_);
      if (never_) continue;
      const auto r = regs();
      if (has_cur_) {
        auto& img = saved_[cur_];
        img.resize(r.size());
        for (size_t i = 0; i < r.size(); ++i) img[i] = rw(false, r[i], 0);
      }
      auto it = saved_.find(next_);
      for (size_t i = 0; i < r.size(); ++i) {
        rw(true, r[i], it == saved_.end() ? 0 : it->second[i]);
      }
      cur_ = next_;
      has_cur_ = true;
      pending_ = false;
      acked_.notify(sc_core::SC_ZERO_TIME);
    }
  }
  sc_core::sc_time ack_after_;
  bool never_ = false, pending_ = false, has_cur_ = false;
  unsigned gpcs_ = 0;
  uint64_t next_ = 0, cur_ = 0;
  std::map<uint64_t, std::vector<uint32_t>> saved_;
  sc_core::sc_event req_, acked_;
  tlm::tlm_generic_payload gp_;
};

HETVP_REGISTER_GPU_BLOCK_CONFIG(
    "test_chsw", "TEST DOUBLE of the GR context-switch unit (tests/integration/test_fifo.cpp)", ChswDoubleConfig,
    [](gpu::GpuContext& ctx, const ChswDoubleConfig& p) -> std::unique_ptr<gpu::GpuBlock> {
      return std::make_unique<ChswDouble>("test_chsw", ctx, p);
    });

// ---------------------------------------------------------------- bad-input programs
// `case`: what channel A does wrong. Channel B (created first) has finished its own work.
struct FifoBadArgs : ParamSet {
  Str which{this, "case", "none", "which bad input"};
};

class FifoBadInput : public ProgramWithArgs<FifoBadArgs> {
 public:
  int run(HostApi& api, const FifoBadArgs& args) override {
    GpuDriver drv(api);
    drv.open(0);
    std::unique_ptr<McuDriver> mcu;  // the golden context, when the GPU has the firmware for it
    if (drv.reg_read(GPU_PTOP_BASE + PTOP_HUB_BASE) != 0) {
      boot_microcontrollers(api, drv);
      mcu = std::make_unique<McuDriver>(api, drv);
    }
    GdevRuntime rt(api, drv, mcu.get(), test::config_from<GdevOptions>("sync_timeout: 50 ms"));
    const std::string c = args.which;
    // Channel B: a buffer with known contents.
    GdevContext* b = rt.ctx_create();
    DevPtr bbuf = rt.mem_alloc(b, 4096);
    HostBuf bh = rt.mem_alloc_host(b, 4096);
    std::vector<uint32_t> pattern(1024, 0x5a5a5a5a);
    api.poke(bh.phys, pattern.data(), 4096);
    rt.memcpy_htod(b, bbuf, bh, 4096);
    const bool single = c == "unknown_kernel" || c == "fault_other";
    if (single) rt.ctx_destroy(b);  // these need GR for A, and this GPU may have no context switch
    GdevContext* a = rt.ctx_create();
    DevPtr abuf = rt.mem_alloc(a, 4096);
    auto hdr = [](uint32_t op, unsigned n, unsigned sub, uint32_t m) { return FIFO_HDR(op, n, sub, m); };
    if (c == "unbound_subchannel") {
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 1, 5, 0x0200), 7});
    } else if (c == "unknown_method") {
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 1, 1, 0x0abc), 7});
    } else if (c == "bad_segment") {
      rt.push_segment(a, 0x7000000000ull, 4);
    } else if (c == "unknown_kernel") {
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 5, 0, CMPM_REG(CMP_KERNEL)), 0xdeadbeef, 1, 1, 32, 1,
                      hdr(FIFO_SEC_OP_INC, 1, 0, CMPM_LAUNCH), 0});
    } else if (c == "deadlock") {
      HostBuf sem = rt.mem_alloc_host(a, 4096);
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 4, 0, FIFO_M_SEMAPHOREA), uint32_t(sem.map.va >> 32), uint32_t(sem.map.va),
                      42, FIFO_SEM_ACQUIRE});
    } else if (c == "fault_other") {
      // Channel A's kernel reads channel B's buffer VA: not mapped in A's space.
      const ShippedPtx& ptx = shipped_ptx("gdev", compute_arch(drv));
      const GpuModule m = rt.module_load(a, ptx.text, ptx.file_name());
      rt.launch_async(a, m, "gdev_loop", 1, 1, 32, 1, {uint32_t(bbuf.va()), uint32_t(bbuf.va() >> 32), 1, 32});
    } else if (c == "acquire_release") {
      // B waits on a semaphore that A releases: one pinned page mapped into both spaces.
      const uint64_t page = api.alloc_pinned(4096, 4096);
      api.write32(page, 0);
      HostBuf sb = rt.map_host(b, page, 4096), sa = rt.map_host(a, page, 4096);
      rt.push_raw(b, {hdr(FIFO_SEC_OP_INC, 4, 0, FIFO_M_SEMAPHOREA), uint32_t(sb.map.va >> 32), uint32_t(sb.map.va), 1,
                      FIFO_SEM_ACQUIRE});
      rt.kick(b);
      api.sleep(sc_core::sc_time(20, sc_core::SC_US));  // B is blocked by now
      if (!(drv.reg_read(rt.fifo_base() + FIFO_CHAN_STATUS_N(rt.chid(b))) & FIFO_CHAN_BLOCKED)) return 2;
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 4, 0, FIFO_M_SEMAPHOREA), uint32_t(sa.map.va >> 32), uint32_t(sa.map.va), 1,
                      FIFO_SEM_RELEASE | FIFO_SEM_RELEASE_4BYTE});
      rt.kick(a);
      rt.synchronize(b);
    } else if (c == "cmp_chan") {
      rt.push_raw(a, {hdr(FIFO_SEC_OP_INC, 1, 0, CMPM_REG(CMP_CHAN)), 0x80000001u});
    }
    rt.kick(a);
    rt.synchronize(a);
    (void)abuf;
    api.log("fifo_bad: case " + c + " completed");
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("test_fifo_bad", FifoBadInput, "test: a channel with a bad push buffer");

using FifoRun = test::InProcessRun;
FifoRun run(const std::string& workload, std::vector<std::string> sets) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = workload;
  opt.overrides = std::move(sets);
  opt.quiet = true;
  opt.log_level = "warning";  // the MMU's fault report is a warning
  return test::run_in_process(opt);
}
using test::count;
using test::first_stat;
using test::has;
}  // namespace

// madd with 4 contexts on the real context switch: every context's result right, GR switches
// counted by the FIFO and by the HUB's unit (the firmware acknowledged each), the HUB's MMCTX and
// the GPCs' strands moved bytes, and the golden context's cost is separate from the later runs.
TEST(Fifo, GpuBenchMaddContexts4WithTheFirmwareSwitch) {
  FifoRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.runs=3", "workload.args.contexts=4"});
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_EQ(first_stat(r.stats, "failed_runs"), 0) << r.stats;
  const double fifo_switches = first_stat(r.stats, "switches_requested");
  EXPECT_GE(fifo_switches, 3 * 4 * 2) << "each channel loses GR between its parameters and its launch";
  EXPECT_EQ(first_stat(r.stats, "switches"), fifo_switches) << "gpu_bench counts what the FIFO requested";
  // The gr block's own count (components.gpu0.gr.switches, after hub_ctxsw and the GPCs' groups).
  const auto gr = r.stats.find("\"gr\": {");
  ASSERT_NE(gr, std::string::npos) << r.stats;
  const std::string grs = r.stats.substr(gr);
  EXPECT_EQ(first_stat(grs, "switches"), fifo_switches) << "every request acknowledged by the firmware";
  EXPECT_GT(first_stat(grs, "mmctx_save_bytes"), 0);
  EXPECT_GT(first_stat(grs.substr(grs.find("gpc0_ctxsw")), "strand_load_bytes"), 0);
  EXPECT_GT(first_stat(grs, "fw_cycles_mean"), 0);
  EXPECT_GT(first_stat(grs, "pulse_to_ack_ns_mean"), 0);
  // Golden context: generated once, in the first run only.
  const double golden = first_stat(r.stats, "golden_ns"), first = first_stat(r.stats, "first_run_ns"),
               median = first_stat(r.stats, "median_run_ns");
  EXPECT_GT(golden, 0);
  EXPECT_GT(first_stat(r.stats, "gr_golden_generation_ns"), 0);
  EXPECT_NEAR(first - median, golden, golden * 0.1) << "the first run pays the golden context, the others do not";
}

TEST(Fifo, EveryProgramPassesItsSelfCheckWithTwoAndFourContexts) {
  for (const char* c : {"2", "4"})
    for (const char* p : {"madd", "fmadd", "mmul", "memcpy", "loop", "idle"}) {
      FifoRun r = run("gpu_bench", {std::string("workload.args.program=") + p, "workload.args.size=32",
                                    std::string("workload.args.contexts=") + c});
      EXPECT_EQ(r.status, 0) << p << " x " << c << ": " << r.err << r.out;
      EXPECT_EQ(first_stat(r.stats, "failed_runs"), 0) << p << " x " << c;
      EXPECT_GE(first_stat(r.stats, "switches"), std::stod(c)) << p << " x " << c;
    }
}

// Context isolation with the real firmware: the test-only fault gpu0.gr.test_skip_restore makes
// every context load skip one register. ARG2 is `loop`'s iteration count, which gpu_bench sets per
// context (n + k) with set_params before the other contexts take GR, and launches after: without
// its restore, context 0's kernel runs with context 1's count and writes x + n + 1, a wrong number
// (not a fault, as a stale pointer, CB address or CMP_CHAN would give) that the self-check reports.
// The same run without the fault passes: the restore is what makes the result right.
TEST(Fifo, SkippedLaunchArgumentRestoreGivesAWrongResult) {
  FifoRun good = run("gpu_bench", {"workload.args.program=loop", "workload.args.contexts=2"});
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(first_stat(good.stats, "failed_runs"), 0);
  FifoRun r =
      run("gpu_bench", {"workload.args.program=loop", "workload.args.contexts=2", "gpu0.gr.test_skip_restore=ARG2"});
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(has(r.err,
                  "gpu_bench: 1 of 1 run(s) failed the self-check; first: run 0: context 0: loop element 0 "
                  "is 0x41, expected 0x40"))
      << r.out << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
  EXPECT_FALSE(has(r.err, "memory fault")) << r.err;
  EXPECT_EQ(first_stat(r.stats, "failed_runs"), 1);
  EXPECT_GT(first_stat(r.stats, "skipped_restores"), 0);
}

// A switch that does not restore CMP_CHAN (the address-space selection) runs the next kernel in
// the previous channel's address space: its buffers are not mapped there, an MMU fault.
TEST(Fifo, SkippedAddressSpaceRestoreRunsTheKernelInTheWrongSpace) {
  FifoRun r =
      run("gpu_bench", {"workload.args.program=madd", "workload.args.contexts=2", "gpu0.gr.test_skip_restore=CHAN"});
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(has(r.err, "channel 0 (instance 0x")) << r.err;
  EXPECT_TRUE(has(r.err, "memory fault")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

// The per-GPC constant-buffer binding is context state held by the GPC strands: without its
// restore (GPC 0's CB_LO) the next kernel's GPC 0 reads the other channel's constant buffer
// address, unmapped in this channel's space. The window follows gpu.compute.gpc_bar0.
TEST(Fifo, SkippedGpcConstantBufferRestoreIsCaught) {
  FifoRun r =
      run("gpu_bench", {"workload.args.program=madd", "workload.args.contexts=2", "gpu0.compute.gpc_bar0=0x580000",
                        "gpu0.gr.test_skip_restore=" + std::to_string(0x580000 + CMP_GPC_CB_LO)});
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(has(r.err, "memory fault")) << r.err;
  EXPECT_TRUE(has(r.err, "in the address space of channel 0 (instance 0x")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
  // The default position's address is then no context register: the run passes.
  FifoRun ok =
      run("gpu_bench", {"workload.args.program=madd", "workload.args.contexts=2", "gpu0.compute.gpc_bar0=0x580000",
                        "gpu0.gr.test_skip_restore=" + std::to_string(0x500000 + CMP_GPC_CB_LO)});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// TEST DOUBLE: hetvp's firmware always acknowledges; a unit that never does shows the FIFO's timeout.
TEST(Fifo, UnacknowledgedSwitchTimesOutNamingThePendingSwitch) {
  FifoRun r =
      run("gpu_bench", {"gpu0.test_chsw.use=true", "gpu0.test_chsw.never_ack=true", "gpu0.fifo.chsw_timeout=100us"});
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(has(r.err, "context switch not acknowledged within chsw_timeout")) << r.err;
  EXPECT_TRUE(has(r.err, "pending switch of GR from no channel to channel 0 (instance 0x")) << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

TEST(Fifo, WithoutAContextSwitchUnitASecondGrChannelIsRefused) {
  // No microcontrollers and no double: nothing offers a context switch.
  FifoRun r = run("gpu_bench", {"gpu0.blocks=copy_engine,compute,fifo", "workload.args.contexts=2"});
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(has(r.err, "channel 1 (instance 0x")) << r.err;
  EXPECT_TRUE(has(r.err, "no context-switch unit: GR holds channel 0")) << r.err;
  // One context at a time works without it.
  FifoRun ok = run("gpu_bench", {"gpu0.blocks=copy_engine,compute,fifo", "workload.args.runs=3"});
  EXPECT_EQ(ok.status, 0) << ok.err;
}

struct BadCase {
  const char* name;
  std::vector<const char*> expect;
};
TEST(Fifo, BadInputsStopTheRunNamingChannelMethodAndAddress) {
  const BadCase cases[] = {
      {"unbound_subchannel", {"channel 1 (instance 0x", "method 0x0200 (data 0x00000007) on subchannel 5, which no SET_OBJECT bound, at push-buffer address 0x"}},
      {"unknown_method", {"channel 1 (instance 0x", "unknown method 0x0abc on subchannel 1 (copy)", "at push-buffer address 0x"}},
      {"bad_segment", {"channel 1 (instance 0x", "push-buffer segment at GPU VA 0x7000000000 is outside the channel's address space"}},
      {"unknown_kernel", {"channel 0 (instance 0x", "LAUNCH (method 0x0300, subchannel 0) at push-buffer address 0x", "unknown code id 0xdeadbeef"}},
      {"deadlock", {"channel 1 (instance 0x", "deadlock: every channel with work has been blocked", "SEMAPHORED (method 0x001c, subchannel 0) at push-buffer address 0x", "value == 0x0000002a"}},
      {"cmp_chan", {"channel 1 (instance 0x", "unknown method 0x0224 on subchannel 0 (compute)"}},
  };
  for (const auto& c : cases) {
    FifoRun r = run("test_fifo_bad", {std::string("workload.args.case=") + c.name});
    EXPECT_NE(r.status, 0) << c.name;
    for (const char* e : c.expect) EXPECT_TRUE(has(r.err, e)) << c.name << ": expected '" << e << "' in\n" << r.err;
    EXPECT_FALSE(has(r.out, "completed")) << c.name;
    EXPECT_EQ(count(r.err, "FAILED"), 1u) << c.name << ": one failure only\n" << r.err;
    EXPECT_FALSE(has(r.err, "sync_timeout")) << c.name << ": reported by the FIFO, not the host's timeout";
  }
}

// A channel blocked on an acquire yields; another channel's release lets it go on.
TEST(Fifo, AnAcquireWaitsForAnotherChannelsRelease) {
  FifoRun r = run("test_fifo_bad", {"workload.args.case=acquire_release"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_GE(first_stat(r.stats, "semaphore_waits"), 1);
  EXPECT_GE(first_stat(r.stats, "semaphore_acquires"), 1);
}

// The blocked acquire as the user sees it (issue 27): Fifo debug lines for the block and the
// release, and a "semaphore wait" span on the channel's trace track from the block to the release.
TEST(Fifo, AnAcquireWaitIsDebuggedAndTraced) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = "test_fifo_bad";
  opt.overrides = {"workload.args.case=acquire_release"};
  opt.quiet = true;
  opt.debug_flags = "Fifo";
  opt.trace_path = test::scratch() + "/fifo_acquire_trace.json";
  std::ostringstream out, err;
  ASSERT_EQ(run_platform(opt, out, err), 0) << err.str();
  EXPECT_TRUE(has(err.str(), ": semaphore acquire at VA 0x")) << err.str();
  EXPECT_TRUE(has(err.str(), ") blocks the channel [")) << err.str();
  EXPECT_TRUE(has(err.str(), " satisfied after ")) << err.str();
  const std::string trace = test::read_file(opt.trace_path);
  const auto wait = trace.find("{\"name\":\"semaphore wait\",\"ph\":\"X\"");
  ASSERT_NE(wait, std::string::npos) << trace.substr(0, 2000);
  EXPECT_NE(trace.find("\"payload\":", wait), std::string::npos);
  EXPECT_NE(trace.find("\"name\":\"gpu0.fifo.ch"), std::string::npos);
}

// The GPFIFO ring and push buffers in VRAM (written through BAR1) instead of host memory.
TEST(Fifo, PushBuffersInVram) {
  FifoRun r = run("gpu_bench", {"workload.args.gdev.pushbuf_in=vram", "workload.args.contexts=2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(first_stat(r.stats, "failed_runs"), 0);
}

// Channel A's kernel uses channel B's buffer address: an MMU fault in A's address space (the real
// context-switch unit and firmware are on this GPU).
TEST(Fifo, AKernelCannotReachAnotherChannelsBuffer) {
  FifoRun r = run("test_fifo_bad", {"workload.args.case=fault_other"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "in the address space of channel 0 (instance 0x")) << r.err;
  EXPECT_TRUE(has(r.err, "memory fault at GPU VA 0x")) << r.err;
}

TEST(Fifo, SameSeedSameStats) {
  FifoRun a = run("gpu_bench", {"workload.args.contexts=4", "workload.args.runs=2"});
  FifoRun b = run("gpu_bench", {"workload.args.contexts=4", "workload.args.runs=2"});
  ASSERT_EQ(a.status, 0) << a.err;
  auto strip = [](std::string s) {  // wall-clock fields differ (run.host_seconds / sim_rate where present)
    for (const char* key : {"\"wall", "\"host_seconds\"", "\"sim_rate\""})
      for (auto p = s.find(key); p != std::string::npos; p = s.find(key)) s.erase(p, s.find('\n', p) - p);
    return s;
  };
  EXPECT_EQ(strip(a.stats), strip(b.stats));
}

// Four contexts switching through the HUB/GPC firmware: every run's time within 1 % across quanta.
TEST(Fifo, GpuBenchWithSwitchesDoesNotDependOnTheQuantum) {
  std::map<std::string, std::vector<double>> t;
  for (const char* q : {"10ns", "1us", "10us"}) {
    RunOptions opt;
    opt.config = test::config("default.yaml");
    opt.workload = "gpu_bench";
    opt.overrides = {"workload.args.contexts=4", "workload.args.runs=2", "gpu0.fifo.timeslice=5us",
                     std::string("simulation.quantum=") + q};
    opt.quiet = true;
    opt.csv_path = test::scratch() + "/q_" + q + ".csv";
    std::ostringstream out, err;
    ASSERT_EQ(run_platform(opt, out, err), 0) << err.str();
    auto rows = test::read_csv(opt.csv_path);
    for (size_t i = 1; i < rows.size(); ++i) t[q].push_back(std::stod(rows[i][4]));
  }
  ASSERT_EQ(t["10ns"].size(), 2u);
  for (const char* q : {"1us", "10us"})
    for (size_t i = 0; i < 2; ++i) EXPECT_NEAR(t[q][i], t["10ns"][i], t["10ns"][i] * 0.01) << q << " run " << i;
}
