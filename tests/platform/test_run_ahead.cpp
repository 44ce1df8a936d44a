// RunAheadKeeper (platform/run_ahead.h): a decoupled initiator passes a quantum's sync point
// without waiting when no other process has anything to do before its local time, and otherwise
// behaves exactly like tlm_quantumkeeper: other processes see the same thing at the same time.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include <systemc>

#include "platform/run_ahead.h"

using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

// An initiator: `n` accesses of `cost` each (an uncached read's round trip), counting the ones done
// in `done` as of its local time; then a final sync.
template <class Keeper>
struct Reader : sc_core::sc_module {
  Keeper qk;
  unsigned n;
  sc_time cost;
  unsigned done = 0;
  uint64_t waits = 0;
  sc_time end;
  Reader(sc_core::sc_module_name name, unsigned count, sc_time c) : sc_module(name), n(count), cost(c) {
    SC_HAS_PROCESS(Reader);
    SC_THREAD(run);
  }
  void sync_point();
  void run() {
    qk.reset();
    for (unsigned i = 0; i < n; ++i) {
      qk.inc(cost);
      ++done;
      sync_point();
    }
    qk.sync();
    end = sc_core::sc_time_stamp();
  }
};
template <>
void Reader<hetvp::RunAheadKeeper>::sync_point() {
  qk.sync_if_needed();
  waits = qk.waits();
}

// Another process: every `period` it records how many accesses the reader has done.
template <class R>
struct Observer : sc_core::sc_module {
  R& r;
  sc_time period;
  unsigned count;
  std::vector<std::pair<sc_time, unsigned>> seen;
  Observer(sc_core::sc_module_name name, R& reader, sc_time p, unsigned c)
      : sc_module(name), r(reader), period(p), count(c) {
    SC_HAS_PROCESS(Observer);
    SC_THREAD(run);
  }
  void run() {
    for (unsigned i = 0; i < count; ++i) {
      sc_core::wait(period);
      seen.emplace_back(sc_core::sc_time_stamp(), r.done);
    }
  }
};

}  // namespace

TEST(RunAheadKeeper, OthersSeeWhatTheyWouldSeeWithThePlainKeeper) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, SC_US));
  using Ahead = Reader<hetvp::RunAheadKeeper>;
  Ahead ahead("ahead", 400, sc_time(1700, SC_NS));
  // An observer waking off the reads' 1.7 us grid (so that no wake ties with a read's end).
  const sc_time period(50000001, sc_core::SC_PS);
  Observer<Ahead> obs("obs", ahead, period, 13);
  sc_core::sc_start();
  // With the plain keeper (one wait per read: each read is longer than the quantum) read k counts
  // itself at 1.7 (k - 1) us, then waits until 1.7 k us: at time T the count is floor(T / 1.7 us) + 1.
  ASSERT_EQ(obs.seen.size(), 13u);
  for (unsigned j = 0; j < 13; ++j) {
    const sc_time t = period * double(j + 1);
    EXPECT_EQ(obs.seen[j].first, t);
    EXPECT_EQ(obs.seen[j].second, unsigned(t.value() / sc_time(1700, SC_NS).value()) + 1) << "at " << t;
  }
  EXPECT_EQ(ahead.end, sc_time(680, SC_US));
  // Between the observer's wakes the reader passes its sync points without waiting.
  EXPECT_GT(ahead.qk.passed(), 300u);
  EXPECT_LT(ahead.waits, 100u);
  EXPECT_EQ(ahead.waits + ahead.qk.passed(), 400u);
}

TEST(RunAheadKeeper, AloneItWaitsOnlyAtTheLagBound) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, SC_US));
  Reader<hetvp::RunAheadKeeper> ahead("ahead", 1000, sc_time(1700, SC_NS));
  sc_core::sc_start();
  EXPECT_EQ(ahead.end, sc_time(1700, SC_US));
  // 1,700 us in local time with a 100 us lag bound: a wait about every 59 reads, not every read.
  EXPECT_LE(ahead.waits, 18u);
  EXPECT_GE(ahead.waits, 16u);
  EXPECT_EQ(ahead.waits + ahead.qk.passed(), 1000u);
}
