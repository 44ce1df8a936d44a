// hetvp tests — RangeBuilder (pure algorithm) and the TLM invalidation engine.
#include "models/coherence/invalidation_engine.h"
#include "tests/coherence/directed_cases.h"
#include "tests/rtl/random_history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace hetvp::coherence;
using hetvp::test::directed_cases;
using hetvp::test::DirectedCase;

namespace {

std::string dump(const std::vector<LineRange>& v) {
  std::string s;
  for (const auto& r : v) s += to_string(r) + "\n";
  return s;
}

const DirectedCase& find_case(const std::string& name) {
  static const std::vector<DirectedCase> cases = directed_cases();
  for (const auto& c : cases)
    if (c.name == name) return c;
  throw std::runtime_error("no directed case " + name);
}

void check_case(const std::string& name) {
  const DirectedCase& c = find_case(name);
  const auto got = RangeBuilder::run(c.params, c.lines);
  EXPECT_EQ(got, c.expected) << "case " << name << "\ngot:\n" << dump(got) << "expected:\n" << dump(c.expected);
}

}  // namespace

TEST(EngineRangeBuilder, Empty) { check_case("empty"); }
TEST(EngineRangeBuilder, OneLine) { check_case("one_line"); }
TEST(EngineRangeBuilder, LongRun) { check_case("long_run"); }
TEST(EngineRangeBuilder, DuplicatesInsideRun) { check_case("dup_inside_run"); }
TEST(EngineRangeBuilder, DuplicateAfterEmissionIsRequestedAgain) { check_case("dup_after_emission"); }
TEST(EngineRangeBuilder, DescendingOneRunPerLine) { check_case("descending"); }
TEST(EngineRangeBuilder, TwoInterleavedRuns) { check_case("two_interleaved"); }
TEST(EngineRangeBuilder, MoreRunsThanSlotsEvictsOldest) { check_case("eviction_order"); }
TEST(EngineRangeBuilder, RunLongerThanMaxRangeIsSplit) { check_case("split_max_range"); }
TEST(EngineRangeBuilder, SplitRunIsYoungest) { check_case("split_age"); }
TEST(EngineRangeBuilder, TopOfAddressSpace42NoWrap) { check_case("top_of_space_42"); }
TEST(EngineRangeBuilder, TopOfAddressSpace62NoWrap) { check_case("top_of_space_62"); }
TEST(EngineRangeBuilder, PerLineMode) { check_case("per_line"); }
TEST(EngineRangeBuilder, PerLineModeDuplicateInWindow) { check_case("per_line_dup_in_window"); }

TEST(EngineRangeBuilder, AllDirectedCasesCovered) { EXPECT_EQ(directed_cases().size(), 14u); }

TEST(EngineRangeBuilder, LineOutsideSpaceThrows) {
  RangeBuilder b(hetvp::test::params());
  EXPECT_NO_THROW(b.push((uint64_t(1) << 42) - 1, 0));
  EXPECT_THROW(b.push(uint64_t(1) << 42, 1), std::out_of_range);
}

TEST(EngineRangeBuilder, BadParamsThrow) {
  EXPECT_THROW(RangeBuilder(hetvp::test::params(0)), std::invalid_argument);
  EXPECT_THROW(RangeBuilder(hetvp::test::params(256, 0)), std::invalid_argument);
  EXPECT_THROW(RangeBuilder(hetvp::test::params(256, 4, 48, 48)), std::invalid_argument);
  EXPECT_EQ(hetvp::test::params().line_bits(), 42u);
}

// Per-line mode on a history of distinct lines: exactly one request per line, all of count 1,
// covering exactly the input lines.
TEST(EngineRangeBuilder, PerLineModeOneRequestPerDistinctLine) {
  std::mt19937_64 rng(7);
  std::set<uint64_t> distinct;
  std::vector<uint64_t> h;
  while (h.size() < 5000) {
    uint64_t a = rng() % 100000;
    if (distinct.insert(a).second) h.push_back(a);
  }
  const auto out = RangeBuilder::run(hetvp::test::params(1), h);
  ASSERT_EQ(out.size(), h.size());
  std::multiset<uint64_t> got;
  for (const auto& r : out) {
    EXPECT_EQ(r.count, 1u);
    got.insert(r.first);
  }
  EXPECT_EQ(got, std::multiset<uint64_t>(h.begin(), h.end()));
}

// Properties on random histories, for several parameter sets: every range has 1..max_range lines;
// emission positions are non-decreasing; every input line is covered by a range emitted at or
// after its position; no line outside the inputs is ever requested; open runs never overlap
// (so emitted ranges at the same time never overlap).
TEST(EngineRangeBuilder, RandomHistoryProperties) {
  const std::vector<EngineParams> ps = {hetvp::test::params(), hetvp::test::params(1), hetvp::test::params(8, 2),
                                        hetvp::test::params(3, 1), hetvp::test::params(256, 8)};
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    for (const auto& p : ps) {
      const auto h = hetvp::test::random_history(seed, 4000, 5000);
      const auto out = RangeBuilder::run(p, h);
      std::set<uint64_t> inputs(h.begin(), h.end());
      uint64_t prev_pos = 0;
      for (const auto& r : out) {
        ASSERT_GE(r.count, 1u);
        ASSERT_LE(r.count, p.max_range);
        ASSERT_GE(r.input_pos, prev_pos);
        prev_pos = r.input_pos;
        for (uint64_t l = r.first; l < r.first + r.count; ++l) ASSERT_TRUE(inputs.count(l)) << l;
      }
      for (size_t i = 0; i < h.size(); ++i) {
        bool covered = std::any_of(out.begin(), out.end(), [&](const LineRange& r) {
          return r.input_pos >= i && h[i] >= r.first && h[i] < r.first + r.count;
        });
        ASSERT_TRUE(covered) << "seed " << seed << " input " << i << " line " << h[i];
      }
    }
  }
}

// Incremental use gives the same result as run(), and push() reports emissions.
TEST(EngineRangeBuilder, IncrementalPushReportsEmissions) {
  RangeBuilder b(hetvp::test::params(4, 1));
  EXPECT_EQ(b.push(0, 0), 0u);
  EXPECT_EQ(b.push(1, 1), 0u);
  EXPECT_EQ(b.open_count(), 1u);
  EXPECT_EQ(b.push(9, 2), 1u);  // evicts [0,2)
  EXPECT_EQ(b.finish(3), 1u);
  EXPECT_EQ(b.open_count(), 0u);
  const std::vector<LineRange> want = {{0, 2, 2}, {9, 1, 3}};
  EXPECT_EQ(b.take(), want);
}

TEST(TlmEngine, TranslateMatchesRangeBuilderAndAddsModelledTime) {
  auto e = make_tlm_engine(hetvp::test::params());
  EXPECT_STREQ(e->kind(), "tlm");
  const auto& c = find_case("two_interleaved");
  sc_core::sc_time d = sc_core::sc_time(5, sc_core::SC_NS);
  const auto out = e->translate(c.lines, d);
  EXPECT_EQ(out, c.expected);
  // 7 inputs + 2 flushed ranges + 1 = 10 cycles at 1 GHz on top of the caller's 5 ns
  EXPECT_EQ(e->cycles(), 10u);
  EXPECT_EQ(d, sc_core::sc_time(15, sc_core::SC_NS));
  sc_core::sc_time d2 = sc_core::SC_ZERO_TIME;
  EXPECT_TRUE(e->translate({}, d2).empty());
  EXPECT_EQ(e->cycles(), 12u);  // empty history: 1 flush beat + 1
  EXPECT_EQ(d2, sc_core::sc_time(2, sc_core::SC_NS));
}

TEST(TlmEngine, ClockParameterScalesTime) {
  EngineParams p = hetvp::test::params();
  p.clock_hz = 500e6;
  auto e = make_tlm_engine(p);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  e->translate(hetvp::test::iota(0, 99), d);  // 99 + 1 + 1 = 101 cycles at 2 ns
  EXPECT_EQ(e->cycles(), 101u);
  EXPECT_EQ(d, sc_core::sc_time(202, sc_core::SC_NS));
}

TEST(TlmEngine, TestFaultCorruptsExactlyTheNthOutput) {
  EngineParams p = hetvp::test::params(4);
  p.test_fault_index = 3;  // counted over the engine's lifetime
  auto e = make_tlm_engine(p);
  sc_core::sc_time d;
  auto a = e->translate(hetvp::test::iota(0, 10), d);  // outputs #0..#2 clean
  auto clean = RangeBuilder::run(hetvp::test::params(4), hetvp::test::iota(0, 10));
  EXPECT_EQ(a, clean);
  auto b = e->translate(hetvp::test::iota(100, 8), d);  // outputs #3, #4: #3 corrupted
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].first, 100u);
  EXPECT_EQ(b[0].count, 5u);
  EXPECT_EQ(b[1].count, 4u);
}

TEST(TlmEngine, SquareLikeHistory) {
  // square N=300,000: three float arrays of 1.2 MB = 3 x 18,750 lines, written sequentially
  std::vector<uint64_t> h;
  for (uint64_t a = 0; a < 3; ++a)
    for (uint64_t i = 0; i < 18750; ++i) h.push_back(0x100000 + a * 0x10000 + i);
  auto e = make_tlm_engine(hetvp::test::params());
  sc_core::sc_time d;
  const auto out = e->translate(h, d);
  // each array: ceil(18750/256) = 74 ranges (73 full + one of 62 lines)
  ASSERT_EQ(out.size(), 3u * 74u);
  // the three 62-line tails stay open until the final flush, oldest (array 0) first
  for (unsigned a = 0; a < 3; ++a) {
    EXPECT_EQ(out[219 + a].first, 0x100000 + a * 0x10000 + 73u * 256u);
    EXPECT_EQ(out[219 + a].count, 18750u - 73u * 256u);
    EXPECT_EQ(out[219 + a].input_pos, h.size());
  }
  EXPECT_EQ(e->cycles(), h.size() + 3 + 1);
}
