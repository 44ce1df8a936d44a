// hetvp tests — lockstep against RTL faults: range_inval_engine Verilated with the test-only
// parameter FAULT = 1 (every count + 1), 2 (the flush's last range dropped), 3 (done one cycle
// late), 4 (out_valid dropped before out_ready), see tests/rtl/CMakeLists.txt. Each fault must
// stop the lockstep run with the report that names it; FAULT 3 (timing only) is a warning when
// the lockstep is relaxed. Also the stream bridge on its own (rtl/bridges/stream_bridge.h).
// All engines are built once, before the first sc_start (see sc_runner.h).
// The Verilated models first: verilated.h would take its SystemC path after <systemc>.
#include "Vrange_inval_engine_fault1.h"
#include "Vrange_inval_engine_fault2.h"
#include "Vrange_inval_engine_fault3.h"
#include "Vrange_inval_engine_fault4.h"
#include "rtl/range_engine_dut.h"

#include "models/coherence/invalidation_engine.h"
#include "rtl/bridges/stream_bridge.h"
#include "rtl/lockstep_invalidation_engine.h"
#include "rtl/rtl_invalidation_engine.h"
#include "tests/coherence/directed_cases.h"
#include "tests/rtl/random_history.h"
#include "tests/rtl/sc_runner.h"
#include "common/run_hetvp.h"

#include <gtest/gtest.h>

#include <string>

using namespace hetvp;
using coherence::LineRange;
using coherence::RangeBuilder;
using hetvp::rtl::describe;
using hetvp::rtl::Rule;

namespace {

// The docs/rtl.md example: flush emits (10,3) then (30,1); the TLM models 4 + 2 + 1 = 7 cycles.
const std::vector<uint64_t> kHistory = {10, 11, 30, 12};

struct World {
  test::ScRunner runner{"runner"};
  rtl::LockstepInvalidationEngine clean{test::params(), "lockstep_clean"};
  rtl::LockstepInvalidationEngine wrong_count{test::params(), "lockstep_fault1",
                                              rtl::make_rtl_dut<Vrange_inval_engine_fault1>};
  rtl::LockstepInvalidationEngine dropped{test::params(), "lockstep_fault2",
                                          rtl::make_rtl_dut<Vrange_inval_engine_fault2>};
  rtl::LockstepInvalidationEngine late{test::params(), "lockstep_fault3",
                                       rtl::make_rtl_dut<Vrange_inval_engine_fault3>};
  rtl::LockstepInvalidationEngine late_relaxed{test::params(), "lockstep_fault3_relaxed",
                                               rtl::make_rtl_dut<Vrange_inval_engine_fault3>};
  rtl::RtlInvalidationEngine drops_valid{test::params(), "rtl_fault4", rtl::make_rtl_dut<Vrange_inval_engine_fault4>};
  World() {
    drops_valid.set_test_backpressure(2);
    drops_valid.set_ring_file(test::scratch() + "/fault4_last_cycles.vcd");
    late_relaxed.set_timing(rtl::LockstepTiming::warning);
    wrong_count.set_ring_file(test::scratch() + "/fault1_last_cycles.vcd");
    late.set_ring_file(test::scratch() + "/fault3_last_cycles.vcd");
    dropped.set_ring_file(test::scratch() + "/fault2_last_cycles.vcd");
  }
};

World& world() {
  static World w;
  return w;
}

std::string what_of(const std::exception& e) { return e.what(); }

}  // namespace

TEST(LockstepFault, CorrectRtlPassesTheSameHistories) {
  World& w = world();
  sc_core::sc_time d;
  std::vector<LineRange> out;
  EXPECT_NO_THROW(w.runner.run([&] { out = w.clean.translate(kHistory, d); }));
  EXPECT_EQ(out, RangeBuilder::run(test::params(), kHistory));
  const auto h = test::random_history(7, 5000, 1 << 16);
  EXPECT_NO_THROW(w.runner.run([&] { out = w.clean.translate(h, d); }));
  EXPECT_EQ(w.clean.stats().cycle_count_differences, 0u);
  EXPECT_EQ(w.clean.stats().tlm_cycles, w.clean.stats().rtl_cycles);
}

// FAULT 1: the first range differs (count + 1); a long history so that it is emitted while the
// history is still streaming in (rule 4b), not by the flush.
TEST(LockstepFault, WrongCountStopsTheRunWithADataReport) {
  World& w = world();
  const auto h = test::random_history(4242, 5000, 1 << 16);
  const auto want = RangeBuilder::run(test::params(), h);
  ASSERT_FALSE(want.empty());
  ASSERT_LT(want[0].input_pos, h.size()) << "the first range should not come from the flush";
  sc_core::sc_time d;
  try {
    w.runner.run([&] { w.wrong_count.translate(h, d); });
    ADD_FAILURE() << "lockstep did not stop on a wrong count";
  } catch (const rtl::LockstepMismatch& m) {
    EXPECT_EQ(m.output_index, 0u);
    EXPECT_EQ(m.input_pos, want[0].input_pos);
    EXPECT_EQ(m.history, 0u);
    ASSERT_TRUE(m.tlm && m.rtl);
    EXPECT_EQ(*m.tlm, want[0]);
    EXPECT_EQ(m.rtl->first, want[0].first);
    EXPECT_EQ(m.rtl->count, want[0].count + 1);
    const std::string s = what_of(m);
    EXPECT_EQ(s.rfind("hetvp/lockstep: RTL and TLM invalidation engines differ at output #0 (input position " +
                          std::to_string(want[0].input_pos) + ", history #0",
                      0),
              0u)
        << s;
  }
}

// FAULT 2: the RTL presents one range fewer; the report names the missing output as rtl=<none>.
TEST(LockstepFault, DroppedOutputStopsTheRunWithADataReport) {
  World& w = world();
  const auto want = RangeBuilder::run(test::params(), kHistory);
  ASSERT_EQ(want.size(), 2u);
  sc_core::sc_time d;
  try {
    w.runner.run([&] { w.dropped.translate(kHistory, d); });
    ADD_FAILURE() << "lockstep did not stop on a dropped output";
  } catch (const rtl::LockstepMismatch& m) {
    EXPECT_EQ(m.output_index, 1u);
    EXPECT_EQ(m.input_pos, kHistory.size()) << "the TLM's position (the flush) when the RTL has no output";
    ASSERT_TRUE(m.tlm);
    EXPECT_EQ(*m.tlm, want[1]);
    EXPECT_FALSE(m.rtl);
    const std::string s = what_of(m);
    EXPECT_NE(s.find("differ at output #1 (input position 4, history #0"), std::string::npos) << s;
    EXPECT_NE(s.find("rtl=<none>"), std::string::npos) << s;
  }
}

// FAULT 3: same ranges, one cycle more than the TLM's cycle model: a timing report stops the run
// (default policy). Before timing was checked, this history passed and was only counted.
TEST(LockstepFault, ExtraCycleStopsTheRunWithATimingReport) {
  World& w = world();
  ASSERT_EQ(w.late.timing(), rtl::LockstepTiming::error) << "error is the default";
  sc_core::sc_time d;
  try {
    w.runner.run([&] { w.late.translate(kHistory, d); });
    ADD_FAILURE() << "lockstep did not stop on a one-cycle timing difference";
  } catch (const rtl::LockstepMismatch& m) {
    ADD_FAILURE() << "reported as a data mismatch: " << m.what();
  } catch (const rtl::LockstepTimingMismatch& m) {
    EXPECT_EQ(m.history, 0u);
    EXPECT_EQ(m.lines, 4u);
    EXPECT_EQ(m.ranges, 2u) << "both engines gave the same two ranges";
    EXPECT_EQ(m.tlm_cycles, 7u) << "max(n,1) + R_flush + 1 = 4 + 2 + 1";
    EXPECT_EQ(m.rtl_cycles, 8u);
    const std::string s = what_of(m);
    EXPECT_EQ(s.rfind("hetvp/lockstep: RTL and TLM invalidation engines differ in timing at history #0 (4 lines, 2 "
                      "identical ranges",
                      0),
              0u)
        << s;
    EXPECT_NE(s.find("tlm=7 cycles rtl=8 cycles (+1)"), std::string::npos) << s;
  }
  EXPECT_EQ(w.late.stats().cycle_count_differences, 1u);
}

// lockstep_timing: warning — the same fault is reported (SC_REPORT_WARNING) and counted; the run
// goes on with the RTL's ranges.
TEST(LockstepFault, ExtraCycleIsOnlyAWarningWhenRelaxed) {
  World& w = world();
  const auto want = RangeBuilder::run(test::params(), kHistory);
  const int before = sc_core::sc_report_handler::get_count("hetvp/lockstep");
  sc_core::sc_time d;
  for (int i = 0; i < 2; ++i) {
    std::vector<LineRange> out;
    EXPECT_NO_THROW(w.runner.run([&] { out = w.late_relaxed.translate(kHistory, d); }));
    EXPECT_EQ(out, want);
  }
  EXPECT_EQ(w.late_relaxed.stats().cycle_count_differences, 2u);
  EXPECT_EQ(w.late_relaxed.stats().rtl_cycles, w.late_relaxed.stats().tlm_cycles + 2);
  EXPECT_EQ(sc_core::sc_report_handler::get_count("hetvp/lockstep") - before, 2);
}

// The generic ring buffer (rtl/bridges/protocol.h): a lockstep mismatch writes the RTL engine's
// last cycles as a VCD with every port.
TEST(LockstepFault, MismatchWritesTheRingBuffer) {
  World& w = world();
  const auto h = test::random_history(4242, 5000, 1 << 16);
  sc_core::sc_time d;
  EXPECT_THROW(w.runner.run([&] { w.wrong_count.translate(h, d); }), rtl::LockstepMismatch);
  const std::string v = test::read_file(test::scratch() + "/fault1_last_cycles.vcd");
  ASSERT_FALSE(v.empty());
  EXPECT_NE(v.find("$enddefinitions $end"), std::string::npos);
  EXPECT_NE(v.find(" out_valid $end"), std::string::npos);
  EXPECT_NE(v.find(" in_line $end"), std::string::npos);
  EXPECT_NE(v.find("\n#"), std::string::npos);
}

TEST(LockstepFault, TimingMismatchWritesTheRingBuffer) {
  World& w = world();
  sc_core::sc_time d;
  EXPECT_THROW(w.runner.run([&] { w.late.translate(kHistory, d); }), rtl::LockstepTimingMismatch);
  EXPECT_NE(test::read_file(test::scratch() + "/fault3_last_cycles.vcd").find("$enddefinitions"), std::string::npos);
}

// FAULT 4 drops out_valid while out_ready is low: the generic handshake checker stops the history,
// naming the channel and the rule, and the ring buffer is written.
TEST(LockstepFault, OutValidDroppedBeforeReadyIsCaughtByTheChecker) {
  World& w = world();
  sc_core::sc_time d;
  try {
    w.runner.run([&] { w.drops_valid.translate(kHistory, d); });
    ADD_FAILURE() << "the checker did not stop the history";
  } catch (const std::runtime_error& e) {
    const std::string s = e.what();
    EXPECT_NE(s.find("RtlInvalidationEngine 'rtl_fault4': range engine out channel: " + describe(Rule::ValidHeld) +
                     " violated: VALID dropped before READY, out_first 0xa, at "),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("last cycles in " + test::scratch() + "/fault4_last_cycles.vcd"), std::string::npos) << s;
  }
  EXPECT_NE(test::read_file(test::scratch() + "/fault4_last_cycles.vcd").find(" out_ready $end"), std::string::npos);
}

// ------------------------------------------------------------------ the stream bridge on its own
namespace {
struct BridgeRig {
  std::unique_ptr<rtl::RangeEngineModel> dut = rtl::make_rtl_dut<Vrange_inval_engine_fault3>("bridge_dut");
  rtl::RangeEnginePins& s = dut->pins;
  std::unique_ptr<rtl::StreamBridge> make(rtl::StreamPin done) {
    rtl::StreamOptions o;
    o.block = "test block 'bridge_dut'";
    o.scope = "bridge_dut";
    o.ring_file = test::scratch() + "/bridge_last_cycles.vcd";
    s.cfg_runs.set(4);
    s.cfg_max_len.set(256);
    return std::make_unique<rtl::StreamBridge>(
        *dut, rtl::StreamChannel{"in", {"in_valid", s.in_valid}, {"in_ready", s.in_ready}, {{"in_line", s.in_line}}},
        rtl::StreamChannel{"out", {"out_valid", s.out_valid}, {"out_ready", s.out_ready}, {{"out_first", s.out_first}}},
        done, o);
  }
};
}  // namespace

// A transfer whose `done` does not come in time fails with the block named and the ring buffer
// written; the bridge resets the block before the next transfer, which then works.
TEST(StreamBridge, TimeOutNamesTheBlockWritesTheRingAndResetsBeforeTheNext) {
  BridgeRig rig;
  auto b = rig.make({"done", rig.s.done, 1});
  std::vector<uint64_t> taken;
  auto drive = [&](uint64_t i) {
    rig.s.in_line.set(kHistory[i]);
    rig.s.in_last.set(i + 1 == kHistory.size());
    rig.s.in_empty.set(0);
  };
  auto take = [&](const rtl::StreamBridge::OutBeat&) { taken.push_back(rig.s.out_first.get()); };
  try {
    b->transfer(kHistory.size(), drive, take, 2);
    ADD_FAILURE() << "no time-out";
  } catch (const std::runtime_error& e) {
    const std::string s = e.what();
    EXPECT_NE(s.find("test block 'bridge_dut': no 'done' after 3 cycles of a transfer of 4 input beats (3 accepted"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("; last cycles in " + test::scratch() + "/bridge_last_cycles.vcd"), std::string::npos) << s;
  }
  EXPECT_NE(test::read_file(test::scratch() + "/bridge_last_cycles.vcd").find(" in_line $end"), std::string::npos);
  EXPECT_TRUE(b->reset_pending());
  taken.clear();
  // FAULT 3 (done one cycle late): 4 beats + 2 flushed ranges + 1 + 1 late = 8 cycles
  EXPECT_EQ(b->transfer(kHistory.size(), drive, take, 100), 8u);
  EXPECT_EQ(taken, (std::vector<uint64_t>{10, 30}));
  EXPECT_EQ(b->counters().reset_cycles, 6u) << "reset before each of the two transfers";
  EXPECT_EQ(b->counters().transfers, 1u);
}

TEST(StreamBridge, BlockWithoutDonePinIsRefused) {
  BridgeRig rig;
  try {
    rig.make({"done", rtl::Pin{}, 1});
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("StreamBridge test block 'bridge_dut': clk, rst_n, both channels' "
                                         "valid/ready and done are required"),
              std::string::npos)
        << e.what();
  }
}

// The range engine's lockstep reports its first divergence in the generic form every lockstep
// uses (rtl/bridges/lockstep.h), besides its typed exception.
TEST(LockstepFault, FirstDivergenceInTheGenericForm) {
  World& w = world();
  sc_core::sc_time d;
  EXPECT_THROW(w.runner.run([&] { w.dropped.translate(kHistory, d); }), rtl::LockstepMismatch);
  ASSERT_TRUE(w.dropped.monitor().failed());
  const rtl::Divergence& v = w.dropped.monitor().first();
  EXPECT_EQ(v.block, "range engine 'lockstep_fault2'");
  EXPECT_EQ(v.field, "output");
  EXPECT_EQ(v.index, 1u);
  EXPECT_EQ(v.report().rfind("hetvp/lockstep: range engine 'lockstep_fault2': first divergence: output 1: input "
                             "position 4, history #0: tlm={first=0x1e, count=1, input_pos=4} rtl=<none>, at ",
                             0),
            0u)
      << v.report();
  EXPECT_NE(w.dropped.monitor().ring_note().find("last cycles in " + test::scratch() + "/fault2_last_cycles.vcd"),
            std::string::npos)
      << w.dropped.monitor().ring_note();
  EXPECT_FALSE(w.clean.monitor().failed());
}
