// RTL blocks that are only register targets (no bus master): rtl.apb_timer (APB, with a C++
// reference; tests/rtl/blocks/apb_timer.sv) runs in rtl, tlm and lockstep modes with the same
// register values and --stats, has no `mem` port, and its timing-only fault (irq one cycle late,
// rtl.apb_timer_fault1) is caught by lockstep's cycle stamps; rtl.axil_regs (AXI4-Lite) runs, and
// its BREAK register makes it break each AXI4-Lite target rule, each stopping the run with its
// message. Each run is in a child process (SystemC elaborates once per process).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "common/run_hetvp.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "rtl/bridges/rules.h"
#include "tests/rtl/block_run.h"
#include "tests/rtl/blocks/apb_timer_regs.h"

using namespace hetvp;
using hetvp::rtl::describe;
using hetvp::rtl::Rule;
using hetvp::test::line_of;
using hetvp::test::Outcome;
using hetvp::test::run;

// The child's side of hetvp::test::run() (tests/rtl/block_run.h): not a test of its own, disabled
// unless run() starts this program for it by name.
TEST(RtlTargetsChild, DISABLED_Run) {
  const char* request = std::getenv(hetvp::test::kBlockRunChildEnv);
  if (!request) GTEST_SKIP() << "only hetvp::test::run() starts it";
  hetvp::test::block_run_child(request);
}

namespace {

constexpr uint64_t kBase = 0x40300000;
constexpr unsigned kVector = 43;

// Drives rtl.apb_timer: ID, LOAD read-back, START and two COUNT reads, the expiry (interrupt or
// polling STATUS), ACK, then a START with LOAD 0 (expired at once). Prints every value it read:
// they depend on the cycle each access is presented at, so equal lines in every mode mean the
// reference is cycle-exact.
HETVP_ENUM(TimerWait, irq, poll);
struct TimerArgs : ParamSet {
  Int<uint32_t> load_value{this, "load", 50, "", Range{0, 100000}};  // `load` is ParamSet::load
  Enum<TimerWait> wait{this, "wait", TimerWait::irq, ""};
};
class TimerProgram : public ProgramWithArgs<TimerArgs> {
 public:
  int run(HostApi& api, const TimerArgs& a) override {
    const uint32_t load = a.load_value;
    const bool irq = a.wait == TimerWait::irq;
    auto rd = [&](uint32_t off) { return api.mmio_read32(kBase + off); };
    auto wr = [&](uint32_t off, uint32_t v) { api.mmio_write32(kBase + off, v); };
    auto expire = [&] {
      if (irq) return api.wait_interrupt(kVector, sc_core::sc_time(1, sc_core::SC_MS));
      for (int i = 0; i < 100000; ++i)
        if (rd(TIMER_STATUS) & TIMER_STATUS_EXPIRED) return true;
      return false;
    };
    const uint32_t id = rd(TIMER_ID);
    wr(TIMER_LOAD, load);
    const uint32_t load_back = rd(TIMER_LOAD);
    wr(TIMER_CTRL, TIMER_CTRL_START);
    const uint32_t c1 = rd(TIMER_COUNT), c2 = rd(TIMER_COUNT), running = rd(TIMER_STATUS);
    const bool expired = expire();
    const uint32_t st = rd(TIMER_STATUS);
    wr(TIMER_CTRL, TIMER_CTRL_ACK);
    const uint32_t acked = rd(TIMER_STATUS);
    wr(TIMER_LOAD, 0);
    wr(TIMER_CTRL, TIMER_CTRL_START);
    const uint32_t at_once = rd(TIMER_STATUS);
    const bool expired0 = expire();
    wr(TIMER_CTRL, TIMER_CTRL_ACK);
    const std::string line = format(
        "apb_timer: id 0x%08x, load %u, count %u then %u, status 0x%x running, 0x%x expired, 0x%x acked, "
        "0x%x with load 0",
        id, load_back, c1, c2, running, st, acked, at_once);
    api.log(line);
    fprintf(stderr, "%s\n", line.c_str());
    const bool ok = id == TIMER_ID_VALUE && load_back == load && expired && expired0 && st == TIMER_STATUS_EXPIRED &&
                    acked == 0 && at_once == TIMER_STATUS_EXPIRED && (load < 20 || (c2 < c1 && c1 <= load));
    return ok ? 0 : 1;
  }
};
HETVP_REGISTER_PROGRAM("test_apb_timer", TimerProgram, "TEST ONLY: drives rtl.apb_timer");

// Drives rtl.axil_regs: SCRATCH write and read-back, ID; then BREAK = brk and one more access
// (`then`), which the block answers in the broken way.
HETVP_ENUM(AccessKind, read, write);
struct AxilRegsArgs : ParamSet {
  Int<uint32_t> brk{this, "brk", 0, "", Range{0, 7}};
  Enum<AccessKind> then{this, "then", AccessKind::read, ""};
};
class AxilRegsProgram : public ProgramWithArgs<AxilRegsArgs> {
 public:
  int run(HostApi& api, const AxilRegsArgs& a) override {
    api.mmio_write32(kBase + 0x00, 0x12345678);
    const uint32_t scratch = api.mmio_read32(kBase + 0x00), id = api.mmio_read32(kBase + 0x04);
    const std::string line = format("axil_regs: scratch 0x%08x, id 0x%08x", scratch, id);
    api.log(line);
    fprintf(stderr, "%s\n", line.c_str());
    if (const uint32_t brk = a.brk) {
      api.mmio_write32(kBase + 0x08, brk);
      if (a.then == AccessKind::read)
        api.mmio_read32(kBase + 0x00);
      else
        api.mmio_write32(kBase + 0x00, 0xcafe);
    }
    return scratch == 0x12345678 && id == 0x4158494c ? 0 : 1;
  }
};
HETVP_REGISTER_PROGRAM("test_axil_regs", AxilRegsProgram, "TEST ONLY: drives rtl.axil_regs");

// The system: CPU, host bus, DRAM, the block at kBase; no `mem` connection.
std::string yaml(const std::string& type, const std::string& program, const std::string& block_extra = "") {
  return format(R"(
simulation: {seed: 1, quantum: 1 us, time_limit: 10 ms}
workload: {name: %s, cpu: cpu}
cpu: {type: host_cpu, connect: {mem: host_bus}}
host_bus:
  type: router
  latency: 2 ns
  map:
    - {to: host_mem, base: 0x0, size: 1 GiB}
    - {to: blk.regs, base: 0x%llx, size: 256}
host_mem: {type: memory, size: 1 GiB, latency: 60 ns}
blk: {type: %s, clock: 200 MHz, irq_vector: %u%s}
)",
                program.c_str(), (unsigned long long)kBase, type.c_str(), kVector, block_extra.c_str());
}

// The simulated time and every component's statistics (the run record names the mode).
std::string stats_body(const std::string& s) {
  const size_t t = s.find("\"simulated_ns\"");
  return (t == std::string::npos ? std::string() : s.substr(t, s.find('\n', t) - t)) +
         test::without_lockstep(test::components_section(s));
}

void expect_same_in_every_mode(const std::vector<std::string>& sets) {
  const std::string cfg = yaml("rtl.apb_timer", "test_apb_timer", ", connect: {irq: cpu.irq}");
  std::string first_line, first_stats;
  for (const char* mode : {"rtl", "tlm", "lockstep"}) {
    std::vector<std::string> s = sets;
    s.push_back(std::string("blk.mode=") + mode);
    const Outcome o = run(cfg, s);
    EXPECT_EQ(o.status, kExitOk) << mode << "\n" << o.text;
    const std::string line = line_of(o.text, "apb_timer: id 0x54494d52");
    EXPECT_FALSE(line.empty()) << mode << "\n" << o.text;
    EXPECT_NE(o.stats.find("\"interrupts\": 2"), std::string::npos) << mode << "\n" << o.stats;
    if (first_line.empty()) {
      first_line = line;
      first_stats = stats_body(o.stats);
      continue;
    }
    EXPECT_EQ(line, first_line) << mode << " vs rtl";
    EXPECT_EQ(stats_body(o.stats), first_stats) << mode << " vs rtl --stats";
  }
}

TEST(RtlTargets, ApbOnlyBlockRunsInEveryModeIrq) { expect_same_in_every_mode({}); }
TEST(RtlTargets, ApbOnlyBlockRunsInEveryModePolling) {
  expect_same_in_every_mode({"workload.args.wait=poll", "workload.args.load=333", "blk.clock=33 MHz"});
}

// WAVES fst (hetvp_add_rtl_block): `waves: x.fst` writes an FST file (GTKWave's format: block
// type 0, the header, first), the run is the same as with the VCD-built block; a `.vcd` name for
// an FST block (and `.fst` for a VCD one, test_rtl_blocks.cpp) is a clear configuration error.
TEST(RtlTargets, FstWaveformsWhenTheBlockIsBuiltForThem) {
  const std::string fst = test::scratch() + "/timer_waves.fst";
  std::remove(fst.c_str());
  const Outcome o =
      run(yaml("rtl.apb_timer_fst", "test_apb_timer", ", connect: {irq: cpu.irq}, waves: " + fst), {"blk.mode=lockstep"});
  ASSERT_EQ(o.status, kExitOk) << o.text;
  const Outcome vcd_built = run(yaml("rtl.apb_timer", "test_apb_timer", ", connect: {irq: cpu.irq}"), {});
  EXPECT_EQ(line_of(o.text, "apb_timer: id"), line_of(vcd_built.text, "apb_timer: id"));
  std::ifstream f(fst, std::ios::binary);
  std::string head(64, '\0');
  f.read(&head[0], 64);
  ASSERT_EQ(f.gcount(), 64) << fst;
  EXPECT_EQ(head[0], '\0') << "FST starts with its header block (type 0)";
  EXPECT_EQ(head.find("$date"), std::string::npos) << "not VCD text";
  const Outcome bad = run(yaml("rtl.apb_timer_fst", "test_apb_timer", ", waves: x.vcd"), {});
  EXPECT_EQ(bad.status, kExitUsage);
  EXPECT_NE(bad.text.find("(blk.waves): 'x.vcd': rtl.apb_timer_fst writes FST waveforms (hetvp_add_rtl_block WAVES "
                          "fst; Verilator --trace-fst): name the file .fst"),
            std::string::npos)
      << bad.text;
}

TEST(RtlTargets, ApbOnlyBlockValuesAreTheCyclesCounted) {
  // 200 MHz: 5 ns a cycle. The two COUNT reads are one register access apart, and the count at
  // the first one is LOAD minus the cycles since START.
  const Outcome o =
      run(yaml("rtl.apb_timer", "test_apb_timer", ", connect: {irq: cpu.irq}"), {"workload.args.load=500"});
  ASSERT_EQ(o.status, kExitOk) << o.text;
  unsigned c1 = 0, c2 = 0;
  const std::string line = line_of(o.text, "apb_timer: id");
  ASSERT_EQ(sscanf(line.c_str() + line.find("count "), "count %u then %u", &c1, &c2), 2) << line;
  EXPECT_LE(c1, 500u);
  EXPECT_GT(c1, 450u);
  EXPECT_LT(c2, c1);
  EXPECT_NE(line.find("status 0x1 running, 0x2 expired, 0x0 acked, 0x2 with load 0"), std::string::npos) << line;
}

TEST(RtlTargets, TargetOnlyBlockHasNoMemPort) {
  const Outcome o = run(yaml("rtl.apb_timer", "test_apb_timer", ", connect: {mem: host_bus, irq: cpu.irq}"), {});
  EXPECT_EQ(o.status, kExitUsage);
  EXPECT_NE(o.text.find("blk.connect.mem: 'blk' has no output port 'mem'; its ports: irq"), std::string::npos)
      << o.text;
}

TEST(RtlTargets, LateInterruptIsCaughtByLockstepOnly) {
  // rtl.apb_timer_fault1 raises and lowers irq one cycle late; every register value is right.
  const std::string cfg = yaml("rtl.apb_timer_fault1", "test_apb_timer", ", connect: {irq: cpu.irq}");
  Outcome o = run(cfg, {"blk.mode=rtl"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  o = run(cfg, {"blk.mode=lockstep", "blk.ring_file=" + test::scratch() + "/timer_ring.vcd"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.text.find("hetvp/lockstep: rtl.apb_timer_fault1 'blk': first divergence: interrupt edge 0: RTL irq 0 "
                        "rising at cycle 75, TLM irq 0 rising at cycle 74, at 375 ns"),
            std::string::npos)
      << o.text;
  EXPECT_NE(test::read_file(test::scratch() + "/timer_ring.vcd").find(" s_apb_psel $end"), std::string::npos);
}

TEST(RtlTargets, AxiLiteOnlyBlockRuns) {
  const Outcome o = run(yaml("rtl.axil_regs", "test_axil_regs"), {});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("axil_regs: scratch 0x12345678, id 0x4158494c"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("blk: RTL clock ran"), std::string::npos) << o.text;
}

TEST(RtlTargets, AxiLiteOnlyBlockHasNoReference) {
  const Outcome o = run(yaml("rtl.axil_regs", "test_axil_regs"), {"blk.mode=lockstep"});
  EXPECT_EQ(o.status, kExitUsage);
  EXPECT_NE(o.text.find("mode lockstep needs a TLM reference model of rtl.axil_regs"), std::string::npos) << o.text;
}

// rtl.axil_regs with BREAK = brk, then one `then` access: the run stops with `message`.
void expect_rule(unsigned brk, const char* then, const std::string& message, std::vector<std::string> sets = {}) {
  sets.push_back(format("workload.args.brk=%u", brk));
  sets.push_back(std::string("workload.args.then=") + then);
  sets.push_back("blk.timeout_cycles=200");
  sets.push_back("blk.ring_file=" + test::scratch() + format("/axil_ring%u.vcd", brk));
  const Outcome o = run(yaml("rtl.axil_regs", "test_axil_regs"), sets);
  EXPECT_EQ(o.status, kExitSimFailure) << o.text;
  EXPECT_NE(o.text.find("FAILED: blk: rtl.axil_regs 'blk': " + message + ", at "), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(format("; last cycles in %s/axil_ring%u.vcd", test::scratch().c_str(), brk)), std::string::npos)
      << o.text;
}

TEST(RtlTargetRules, ResponseOrderingRWithoutRead) {
  expect_rule(1, "write",
              "AXI4-Lite R channel: rule axi.r_after_ar (AMBA AXI, ARM IHI 0022E A3.3.1: the slave raises RVALID only "
              "after the AR handshake) violated: R response with no read in flight, address 0x0");
}
TEST(RtlTargetRules, ResponseOrderingBWithoutWrite) {
  expect_rule(2, "read",
              "AXI4-Lite B channel: " + describe(Rule::WriteAfterAwW) +
                  " violated: B response with no write in flight, address 0x0");
}
TEST(RtlTargetRules, ValidHeldUntilReadyOnR) {
  expect_rule(
      3, "read",
      "AXI4-Lite R channel: " + describe(Rule::ValidHeld) + " violated: VALID dropped before READY, address 0x0",
      {"blk.test_ready_delay=2"});
}
TEST(RtlTargetRules, PayloadStableOnR) {
  expect_rule(4, "read",
              "AXI4-Lite R channel: " + describe(Rule::PayloadStable) +
                  " violated: RDATA changed from 0x12345678 to 0x12345679, address 0x0",
              {"blk.test_ready_delay=2"});
}
TEST(RtlTargetRules, WriteWithoutResponseTimesOut) {
  expect_rule(5, "write",
              "AXI4-Lite B channel: " + describe(Rule::AccessAnswered) +
                  " violated: time-out: no response after 200 cycles (write of the register access), address 0x0");
}
TEST(RtlTargetRules, WriteWithoutReadyTimesOut) {
  expect_rule(6, "write",
              "AXI4-Lite AW channel: " + describe(Rule::AccessAnswered) +
                  " violated: time-out: no READY after 200 cycles (write of the register access), address 0x0");
}
TEST(RtlTargetRules, CorrectBlockPassesWithTheSameReadyDelay) {
  const Outcome o = run(yaml("rtl.axil_regs", "test_axil_regs"), {"blk.test_ready_delay=2"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
}

}  // namespace
