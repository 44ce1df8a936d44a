// hetvp tests — the RTL invalidation engine (Verilated range_inval_engine.sv through its SystemC
// wrapper) against the hand-written directed cases and the TLM engine; lockstep.
// All engines are built once, before the first sc_start (see sc_runner.h).
#include "models/coherence/invalidation_engine.h"
#include "rtl/lockstep_invalidation_engine.h"
#include "rtl/rtl_invalidation_engine.h"
#include "tests/coherence/directed_cases.h"
#include "tests/rtl/random_history.h"
#include "tests/rtl/sc_runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace hetvp;
using coherence::EngineParams;
using coherence::LineRange;
using coherence::RangeBuilder;

namespace {

std::string dump(const std::vector<LineRange>& v) {
  std::string s;
  for (const auto& r : v) s += coherence::to_string(r) + "\n";
  return s;
}

std::vector<EngineParams> random_configs() {
  return {test::params(),
          test::params(1),
          test::params(8, 2),
          test::params(3, 1),
          test::params(256, 8),
          test::params(65536, 4),
          test::params(16, 3, 32, 128),
          test::params(16, 3, 16, 64) /* 10-bit line space, used in full: runs end at the top */};
}

constexpr long long kFaultIndex = 57;

struct World {
  test::ScRunner runner{"runner"};
  std::vector<test::DirectedCase> cases = test::directed_cases();
  std::map<std::string, std::unique_ptr<coherence::InvalidationEngine>> directed;
  std::vector<std::unique_ptr<coherence::InvalidationEngine>> rnd_rtl;
  std::unique_ptr<coherence::InvalidationEngine> lockstep, lockstep_faulty, vcd;
  std::vector<std::unique_ptr<rtl::RtlInvalidationEngine>> stalled;
  // ctest runs every test of this binary as its own process, in parallel: each needs its own VCD.
  const std::string vcd_name = "rtl_inval_engine_test_" + std::to_string(getpid());
  ~World() { std::remove((vcd_name + ".vcd").c_str()); }
  World() {
    for (const auto& c : cases)
      directed[c.name] = coherence::make_invalidation_engine("rtl", c.params, ("rtl_" + c.name).c_str());
    int i = 0;
    for (const auto& p : random_configs())
      rnd_rtl.push_back(rtl::make_rtl_engine(p, ("rtl_rnd" + std::to_string(i++)).c_str()));
    lockstep = coherence::make_invalidation_engine("lockstep", test::params(), "lockstep");
    EngineParams fp = test::params();
    fp.test_fault_index = kFaultIndex;
    lockstep_faulty = rtl::make_lockstep_engine(fp, "lockstep_faulty");
    EngineParams vp = test::params();
    vp.vcd_file = vcd_name;
    vcd = rtl::make_rtl_engine(vp, "rtl_vcd");
    stalled.push_back(std::make_unique<rtl::RtlInvalidationEngine>(test::params(), "rtl_stall_a"));
    stalled.push_back(std::make_unique<rtl::RtlInvalidationEngine>(test::params(1, 2), "rtl_stall_b"));
  }
};

World& world() {
  static World w;
  return w;
}

uint64_t flushed(const std::vector<LineRange>& out, uint64_t n) {
  uint64_t k = 0;
  for (const auto& r : out) k += r.input_pos == n;
  return k;
}

}  // namespace

// ------------------------------------------------------------------ directed cases
class RtlEngineDirected : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlEngineDirected, MatchesHandWrittenExpectation) {
  World& w = world();
  const test::DirectedCase* c = nullptr;
  for (const auto& x : w.cases)
    if (x.name == GetParam()) c = &x;
  ASSERT_NE(c, nullptr);
  auto& e = *w.directed.at(c->name);
  EXPECT_STREQ(e.kind(), "rtl");
  std::vector<LineRange> got;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  const uint64_t c0 = e.cycles();  // cumulative over the engine's life (other tests may use it)
  w.runner.run([&] { got = e.translate(c->lines, d); });
  EXPECT_EQ(got, c->expected) << "got:\n" << dump(got) << "expected:\n" << dump(c->expected);
  // the RTL took exactly the cycles the TLM engine models; time is added to the caller's offset
  const uint64_t want_cycles = coherence::tlm_cycles_for(c->lines.size(), flushed(c->expected, c->lines.size()));
  EXPECT_EQ(e.cycles() - c0, want_cycles);
  EXPECT_EQ(d, sc_core::sc_time(double(want_cycles), sc_core::SC_NS));
  EXPECT_LT(sc_core::sc_time_stamp() - t0,
            sc_core::sc_time(2, sc_core::SC_US));  // no SystemC time spent beyond polling
  // a second translate of the same history on the same (now idle) engine gives the same result
  std::vector<LineRange> again;
  w.runner.run([&] { again = e.translate(c->lines, d); });
  EXPECT_EQ(again, c->expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, RtlEngineDirected, ::testing::ValuesIn([] {
                           std::vector<std::string> n;
                           for (const auto& c : test::directed_cases()) n.push_back(c.name);
                           return n;
                         }()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// ------------------------------------------------------------------ random streams vs TLM
TEST(RtlEngine, RandomStreamsIdenticalToTlm) {
  World& w = world();
  const auto cfgs = random_configs();
  uint64_t total_lines = 0, total_ranges = 0;
  for (size_t k = 0; k < cfgs.size(); ++k) {
    auto& rtl = *w.rnd_rtl[k];
    auto tlm = coherence::make_tlm_engine(cfgs[k]);
    const uint64_t space = uint64_t(1) << std::min(cfgs[k].line_bits(), 20u);
    for (uint32_t seed = 1; seed <= 6; ++seed) {
      const auto h = test::random_history(seed * 1000 + uint32_t(k), 2500 + seed * 137, space);
      std::vector<LineRange> r;
      sc_core::sc_time dr, dt;
      const uint64_t c0 = rtl.cycles(), t0 = tlm->cycles();
      w.runner.run([&] { r = rtl.translate(h, dr); });
      const auto t = tlm->translate(h, dt);
      ASSERT_EQ(r.size(), t.size()) << "config " << k << " seed " << seed;
      for (size_t i = 0; i < r.size(); ++i)
        ASSERT_EQ(r[i], t[i]) << "config " << k << " seed " << seed << " output " << i << " rtl "
                              << coherence::to_string(r[i]) << " tlm " << coherence::to_string(t[i]);
      EXPECT_EQ(rtl.cycles() - c0, tlm->cycles() - t0) << "cycle model differs, config " << k;
      EXPECT_EQ(dr, dt);
      total_lines += h.size();
      total_ranges += r.size();
    }
  }
  EXPECT_GE(total_lines, 100000u);
  EXPECT_GT(total_ranges, 10000u);
}

// The consumer holds out_ready low every 2nd / 3rd / 5th cycle: the RTL must stall its input
// (in_ready low while the output register is full) and still produce the identical stream.
TEST(RtlEngine, BackPressureKeepsOutputIdentical) {
  World& w = world();
  uint64_t checked = 0;
  for (unsigned period : {2u, 3u, 5u}) {
    for (auto& e : w.stalled) {
      e->set_test_backpressure(period);
      for (uint32_t seed = 1; seed <= 3; ++seed) {
        const auto h = test::random_history(seed + 77 * period, 3000, 1 << 14);
        std::vector<LineRange> got;
        sc_core::sc_time d;
        const uint64_t c0 = e->cycles();
        w.runner.run([&] { got = e->translate(h, d); });
        const EngineParams p = e == w.stalled[0] ? test::params() : test::params(1, 2);
        const auto want = RangeBuilder::run(p, h);
        ASSERT_EQ(got, want) << "period " << period << " seed " << seed;
        EXPECT_GT(e->cycles() - c0, coherence::tlm_cycles_for(h.size(), flushed(want, h.size())));
        checked += got.size();
      }
      e->set_test_backpressure(0);
    }
  }
  EXPECT_GT(checked, 5000u);
}

TEST(RtlEngine, LineOutsideSpaceThrows) {
  World& w = world();
  auto& e = *w.directed.at("one_line");
  sc_core::sc_time d;
  EXPECT_THROW(w.runner.run([&] { e.translate({1, uint64_t(1) << 42}, d); }), std::out_of_range);
  std::vector<LineRange> got;  // the engine is still usable afterwards
  w.runner.run([&] { got = e.translate({5}, d); });
  EXPECT_EQ(got, (std::vector<LineRange>{{5, 1, 1}}));
}

TEST(RtlEngine, FactoryByKind) {
  world();
  EXPECT_STREQ(coherence::make_invalidation_engine("tlm", test::params())->kind(), "tlm");
  EXPECT_THROW(coherence::make_invalidation_engine("fpga", test::params()), std::invalid_argument);
  // rtl / lockstep kinds construct modules: only before sc_start, checked by construction in World
  EXPECT_STREQ(world().lockstep->kind(), "lockstep");
}

TEST(RtlEngine, TranslateOutsideThreadThrows) {
  World& w = world();
  sc_core::sc_time d;
  EXPECT_THROW(w.directed.at("one_line")->translate({1}, d), std::logic_error);
}

TEST(RtlEngine, ParamsBeyondVerilatedModelThrow) {
  world();
  EXPECT_THROW(rtl::make_rtl_engine(test::params(rtl::kRtlMaxLen + 1)), std::invalid_argument);
  EXPECT_THROW(rtl::make_rtl_engine(test::params(256, rtl::kRtlRuns + 1)), std::invalid_argument);
}

TEST(RtlEngine, VcdDumpInTimedMode) {
  World& w = world();
  auto& e = *w.vcd;
  const auto h = test::random_history(99, 3000, 1 << 16);
  std::vector<LineRange> got;
  sc_core::sc_time d = sc_core::sc_time(10, sc_core::SC_NS);
  sc_core::sc_time t0, t1;
  w.runner.run([&] {
    t0 = sc_core::sc_time_stamp();
    got = e.translate(h, d);
    t1 = sc_core::sc_time_stamp();
  });
  EXPECT_EQ(got, RangeBuilder::run(test::params(), h));
  // timed mode: the engine waited out the caller's offset and its own cycles
  EXPECT_EQ(d, sc_core::SC_ZERO_TIME);
  const auto& st = static_cast<rtl::RtlInvalidationEngine&>(e).stats();
  EXPECT_EQ(st.reset_cycles, 3u);
  EXPECT_EQ(e.cycles(), coherence::tlm_cycles_for(h.size(), flushed(got, h.size())));
  EXPECT_EQ(t1 - t0, sc_core::sc_time(10.0 + 3.0 /*reset*/ + double(e.cycles()), sc_core::SC_NS));
  static_cast<rtl::RtlInvalidationEngine&>(e).close_vcd();  // SystemC buffers the VCD until closed
  std::ifstream f(w.vcd_name + ".vcd");
  ASSERT_TRUE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_NE(ss.str().find("in_valid"), std::string::npos);
  EXPECT_NE(ss.str().find("$enddefinitions"), std::string::npos);
}

// ------------------------------------------------------------------ lockstep
TEST(Lockstep, RandomStreamsZeroMismatches) {
  World& w = world();
  auto& e = *w.lockstep;
  EXPECT_STREQ(e.kind(), "lockstep");
  uint64_t lines = 0;
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    const auto h = test::random_history(seed, 10000, 1 << 18);
    std::vector<LineRange> out;
    sc_core::sc_time d;
    EXPECT_NO_THROW(w.runner.run([&] { out = e.translate(h, d); }));
    EXPECT_EQ(out, RangeBuilder::run(test::params(), h));
    lines += h.size();
  }
  const auto& st = static_cast<rtl::LockstepInvalidationEngine&>(e).stats();
  EXPECT_EQ(st.histories, 10u);
  EXPECT_GT(st.ranges_compared, 1000u);
  EXPECT_EQ(st.cycle_count_differences, 0u);
  EXPECT_EQ(st.tlm_cycles, st.rtl_cycles);
  EXPECT_EQ(e.cycles(), st.rtl_cycles);
  EXPECT_GE(lines, 100000u);
}

TEST(Lockstep, PerturbedTlmIsCaughtWithInputPosition) {
  World& w = world();
  auto& e = *w.lockstep_faulty;
  const auto h = test::random_history(4242, 5000, 1 << 16);
  const auto clean = RangeBuilder::run(test::params(), h);
  ASSERT_GT(clean.size(), size_t(kFaultIndex));
  sc_core::sc_time d;
  bool caught = false;
  try {
    w.runner.run([&] { e.translate(h, d); });
  } catch (const rtl::LockstepMismatch& m) {
    caught = true;
    EXPECT_EQ(m.output_index, uint64_t(kFaultIndex));
    EXPECT_EQ(m.input_pos, clean[kFaultIndex].input_pos);
    ASSERT_TRUE(m.rtl && m.tlm);
    EXPECT_EQ(*m.rtl, clean[kFaultIndex]);
    EXPECT_EQ(m.tlm->count, clean[kFaultIndex].count + 1);
    EXPECT_EQ(m.history, 0u);
    const std::string what = m.what();
    EXPECT_EQ(what.rfind("hetvp/lockstep: ", 0), 0u) << what;
    EXPECT_NE(what.find("output #" + std::to_string(kFaultIndex)), std::string::npos) << what;
    EXPECT_NE(what.find("input position " + std::to_string(clean[kFaultIndex].input_pos)), std::string::npos) << what;
  }
  EXPECT_TRUE(caught);
}

// ------------------------------------------------------------------ the generic lockstep piece
TEST(LockstepMonitor, RecordsOnlyTheFirstDivergenceAndWritesTheRingOnce) {
  world();
  int rings = 0;
  rtl::LockstepMonitor m("rtl.x 'x0'", [&] {
    ++rings;
    return std::string("; last cycles in x.vcd");
  });
  EXPECT_FALSE(m.failed());
  EXPECT_TRUE(m.diverge("memory write", 3, "RTL 0x10 <- 01, TLM 0x10 <- 02"));
  EXPECT_FALSE(m.diverge("interrupt edge", 0, "later, not reported"));
  EXPECT_EQ(rings, 1);
  ASSERT_TRUE(m.failed());
  EXPECT_EQ(m.first().field, "memory write");
  EXPECT_EQ(m.first().index, 3u);
  EXPECT_EQ(m.first().when, sc_core::sc_time_stamp());
  EXPECT_EQ(m.ring_note(), "; last cycles in x.vcd");
  EXPECT_EQ(m.first().report(),
            "hetvp/lockstep: rtl.x 'x0': first divergence: memory write 3: RTL 0x10 <- 01, TLM "
            "0x10 <- 02, at " +
                sc_core::sc_time_stamp().to_string());
}

// The VCD is Verilator's full waveform: the engine's internal registers as well as its ports.
TEST(RtlEngine, VcdHasTheInternalSignals) {
  World& w = world();
  sc_core::sc_time d;
  w.runner.run([&] { w.vcd->translate({1, 2, 3}, d); });
  static_cast<rtl::RtlInvalidationEngine&>(*w.vcd).close_vcd();
  const std::string v = [&] {
    std::ifstream f(w.vcd_name + ".vcd");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }();
  EXPECT_NE(v.find("$scope module range_inval_engine $end"), std::string::npos);
  EXPECT_NE(v.find(" rank_q[0] "), std::string::npos);
  EXPECT_NE(v.find(" out_valid $end"), std::string::npos);
}
