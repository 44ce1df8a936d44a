// Calendar: a shared resource's reservations placed by time, not by call order (the PCIe link's
// directions use it, so a decoupled initiator running ahead cannot take an earlier one's slot).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "platform/calendar.h"

using hetvp::Calendar;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }
}  // namespace

TEST(Calendar, AnEarlierRequestMadeLaterTakesTheEarlierFreeSlot) {
  Calendar c;
  EXPECT_EQ(c.reserve(ns(100), ns(10)), ns(100));  // an initiator running ahead books first
  EXPECT_EQ(c.reserve(ns(0), ns(10)), ns(0));      // one behind it still gets its own time
  EXPECT_EQ(c.reserve(ns(95), ns(10)), ns(110));   // overlaps [100,110): goes after it
  EXPECT_EQ(c.blocks(), 2u);                       // [0,10) and [100,120) (merged)
  EXPECT_EQ(c.busy_until(), ns(120));
}

TEST(Calendar, AGapTooShortIsSkippedAndAdjacentBlocksMerge) {
  Calendar c;
  c.reserve(ns(0), ns(10));
  c.reserve(ns(15), ns(10));                    // [0,10) [15,25)
  EXPECT_EQ(c.reserve(ns(5), ns(8)), ns(25));   // the 5 ns gap is too short: after [15,25)
  EXPECT_EQ(c.blocks(), 2u);                    // [0,10) [15,33)
  EXPECT_EQ(c.reserve(ns(10), ns(5)), ns(10));  // fills the gap exactly: everything merges
  EXPECT_EQ(c.blocks(), 1u);
  EXPECT_EQ(c.busy_until(), ns(33));
}

TEST(Calendar, ForgetBeforeDropsOnlyFinishedBlocks) {
  Calendar c;
  c.reserve(ns(0), ns(10));
  c.reserve(ns(20), ns(10));
  c.forget_before(ns(10));
  EXPECT_EQ(c.blocks(), 1u);
  c.forget_before(ns(25));  // [20,30) is still running
  EXPECT_EQ(c.blocks(), 1u);
  EXPECT_EQ(c.reserve(ns(25), ns(1)), ns(30));
}

// The flat calendar (a vector with a moving head, #31) against the plain definition: the first
// gap at or after the request's time that is long enough, over random requests out of time order
// with the past forgotten as SystemC time moves on (enough of it to compact the vector).
TEST(Calendar, MatchesTheFirstFitDefinitionOverRandomRequests) {
  Calendar c;
  std::vector<std::pair<uint64_t, uint64_t>> ref;  // every reservation, [start, end) in ns
  uint64_t now = 0, seed = 12345;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  for (int i = 0; i < 20000; ++i) {
    const uint64_t at = now + rnd(400), len = 1 + rnd(10);
    uint64_t t = at;
    for (bool moved = true; moved;) {  // first fit: move past every reservation that overlaps
      moved = false;
      for (auto& [s, e] : ref)
        if (s < t + len && t < e) t = e, moved = true;
    }
    ASSERT_EQ(c.reserve(ns(double(at)), ns(double(len))), ns(double(t))) << "request " << i;
    ref.emplace_back(t, t + len);
    if (rnd(4) == 0) {
      now += rnd(80);
      c.forget_before(ns(double(now)));
      std::vector<std::pair<uint64_t, uint64_t>> keep;
      for (auto& r : ref)
        if (r.second > now) keep.push_back(r);
      ref.swap(keep);
    }
  }
  uint64_t last = 0;
  for (auto& r : ref) last = std::max(last, r.second);
  EXPECT_EQ(c.busy_until(), ns(double(last)));
}

// Thousands of live blocks, as a GPU running far ahead of SystemC time leaves on a PCIe direction
// (coherence square, #31): the calendar keeps them in runs of a bounded size, split when full and
// dropped when forgotten. Against the same first-fit definition, and the number of blocks against
// the reservations merged where they touch.
TEST(Calendar, ManyLiveBlocksAcrossRunsMatchTheDefinition) {
  Calendar c;
  std::vector<std::pair<uint64_t, uint64_t>> ref;  // live reservations, sorted by start
  uint64_t now = 0, seed = 777;
  auto rnd = [&](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  size_t most = 0;
  for (int i = 0; i < 12000; ++i) {
    // Mostly spread over a wide window ahead (many small gaps), sometimes right at the end.
    const uint64_t at = rnd(8) ? now + rnd(60000) : c.busy_until().value() / 1000, len = 1 + rnd(12);
    uint64_t t = at;
    auto it = std::upper_bound(ref.begin(), ref.end(), t, [](uint64_t v, const auto& r) { return v < r.second; });
    for (; it != ref.end() && it->first < t + len; ++it) t = std::max(t, it->second);
    ASSERT_EQ(c.reserve(ns(double(at)), ns(double(len))), ns(double(t))) << "request " << i;
    ref.insert(std::upper_bound(ref.begin(), ref.end(), std::make_pair(t, t + len)), {t, t + len});
    size_t merged = 0;
    for (size_t k = 0; k < ref.size(); ++k) merged += k == 0 || ref[k - 1].second != ref[k].first;
    ASSERT_EQ(c.blocks(), merged) << "request " << i;
    most = std::max(most, merged);
    if (rnd(3) == 0) {
      now += rnd(20);
      c.forget_before(ns(double(now)));
      ref.erase(std::remove_if(ref.begin(), ref.end(), [&](const auto& r) { return r.second <= now; }), ref.end());
    }
  }
  EXPECT_GT(most, 1000u);  // far more than one run holds
  EXPECT_EQ(c.busy_until(), ns(double(ref.back().second)));
  c.forget_before(ns(double(ref.back().second)));
  EXPECT_EQ(c.blocks(), 0u);
  EXPECT_EQ(c.busy_until(), sc_time());
}
