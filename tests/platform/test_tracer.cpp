// Tracer (platform/trace.h) on its own: complete spans only where they nest, async pairs on lanes
// where they overlap, runs, the window, the filter, counter deltas written in time order, and the
// exact microsecond timestamps. The whole-platform files: tests/python/test_trace.py.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "platform/trace.h"

using hetvp::TraceArgs;
using hetvp::Tracer;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) { return sc_time(v, SC_NS); }

std::string path(const std::string& name) { return hetvp::test::scratch() + "/" + name; }

// The lines of the file that are events of phase `ph`.
std::vector<std::string> events(const std::string& file, const std::string& ph) {
  std::vector<std::string> out;
  std::istringstream in(hetvp::test::read_file(file));
  for (std::string l; std::getline(in, l);)
    if (l.find("\"ph\":\"" + ph + "\"") != std::string::npos) out.push_back(l);
  return out;
}
}  // namespace

TEST(Tracer, NestedSpansAreCompleteOverlappingOnesAsyncOnLanes) {
  const std::string f = path("nest.json");
  {
    Tracer t;
    t.open(f);
    t.span("gpu0.ce", "outer", ns(0), ns(100));
    t.span("gpu0.ce", "inner", ns(10), ns(20));     // nests in outer
    t.span("gpu0.ce", "overlap", ns(90), ns(50));   // starts in outer, ends after it: async
    t.span("gpu0.ce", "late", ns(5), ns(1));        // before the last start: async
    t.span("gpu0.ce", "after", ns(200), ns(10));    // after everything: complete again
    t.span("gpu0.ce", "overlap2", ns(205), ns(10));  // overlaps "after": async, on the lane "overlap" left
    ASSERT_TRUE(t.close());
    EXPECT_EQ(t.async_spans(), 3u);
  }
  const auto x = events(f, "X"), b = events(f, "b"), e = events(f, "e");
  ASSERT_EQ(x.size(), 3u);
  EXPECT_NE(x[0].find("\"name\":\"outer\""), std::string::npos);
  EXPECT_NE(x[1].find("\"ts\":0.01,\"dur\":0.02"), std::string::npos) << x[1];
  ASSERT_EQ(b.size(), 3u);
  ASSERT_EQ(e.size(), 3u);
  auto id = [](const std::string& l) { return l.substr(l.find("\"id\":"), l.find(",\"pid\"") - l.find("\"id\":")); };
  EXPECT_EQ(id(b[0]), id(b[2]));  // "overlap" and "overlap2" share a lane: the first had ended
  EXPECT_NE(id(b[0]), id(b[1]));  // "late" overlaps "overlap": its own lane
  EXPECT_EQ(events(f, "M").size(), 2u);  // process gpu0, thread gpu0.ce
}

TEST(Tracer, RunsMergeSequentialSpans) {
  const std::string f = path("runs.json");
  Tracer t;
  t.open(f);
  for (int i = 0; i < 4; ++i) t.span_run("pcie0.up", "MWr", ns(10 * i), ns(8), 0x1000 + 128 * i, 128);
  t.span_run("pcie0.up", "MWr", ns(10000), ns(8), 0x1200, 128);  // more than 5 us later: a new run
  t.span_run("pcie0.up", "CplD", ns(10010), ns(8), 0x1280, 128);  // another kind: a new run
  ASSERT_TRUE(t.close());
  const auto x = events(f, "X");
  ASSERT_EQ(x.size(), 3u);
  EXPECT_NE(x[0].find("{\"name\":\"MWr x4\",\"ph\":\"X\""), std::string::npos) << x[0];
  EXPECT_NE(x[0].find("\"ts\":0,\"dur\":0.038,\"args\":{\"addr\":4096,\"count\":4,\"bytes\":512,\"busy_ns\":32}"),
            std::string::npos)
      << x[0];
  EXPECT_NE(x[1].find("\"name\":\"MWr\""), std::string::npos);
  EXPECT_NE(x[2].find("\"name\":\"CplD\""), std::string::npos);
}

TEST(Tracer, WindowAndFilterKeepOnlyWhatTheySay) {
  const std::string f = path("window.json");
  Tracer t;
  t.set_window(ns(100), ns(200));
  t.set_filter("pcie0, *.dma");
  t.open(f);
  t.span("pcie0.down", "before", ns(0), ns(50));
  t.span("pcie0.down", "across", ns(90), ns(20));  // overlaps the window's start: kept
  t.span("pcie0.down", "inside", ns(150), ns(10));
  t.span("pcie0.down", "after", ns(200), ns(10));
  t.span("rc.dma", "dma", ns(150), ns(10));
  t.span("rc.mmio", "mmio", ns(150), ns(10));  // no glob matches
  t.instant("gpu0.hub", "irq", ns(150));
  ASSERT_TRUE(t.close());
  const std::string s = hetvp::test::read_file(f);
  for (const char* kept : {"\"across\"", "\"inside\"", "\"dma\""}) EXPECT_NE(s.find(kept), std::string::npos) << kept;
  for (const char* gone : {"\"before\"", "\"after\"", "\"mmio\"", "\"irq\""})
    EXPECT_EQ(s.find(gone), std::string::npos) << gone;
}

TEST(Tracer, WindowErrors) {
  EXPECT_EQ(Tracer::parse_window("2ms:3ms").first, sc_time(2, sc_core::SC_MS));
  EXPECT_EQ(Tracer::parse_window("1.5 ms:2 ms").second, sc_time(2, sc_core::SC_MS));
  for (const char* bad : {"3ms:2ms", "2ms", "2:3ms", "x:3ms"})
    EXPECT_THROW(Tracer::parse_window(bad), std::invalid_argument) << bad;
}

TEST(Tracer, CounterDeltasInAnyOrderAreWrittenAsARunningSumInTimeOrder) {
  const std::string f = path("counter.json");
  Tracer t;
  t.open(f);
  t.counter_delta("pcie0.up", "occupancy_bytes", ns(30), -20);
  t.counter_delta("pcie0.up", "occupancy_bytes", ns(10), 20);
  t.counter_delta("pcie0.up", "occupancy_bytes", ns(20), 30);
  t.counter_delta("pcie0.up", "occupancy_bytes", ns(40), -30);
  ASSERT_TRUE(t.close());
  const auto c = events(f, "C");
  ASSERT_EQ(c.size(), 4u);
  const char* want[] = {"\"ts\":0.01,\"args\":{\"value\":20}", "\"ts\":0.02,\"args\":{\"value\":50}",
                        "\"ts\":0.03,\"args\":{\"value\":30}", "\"ts\":0.04,\"args\":{\"value\":0}"};
  for (size_t i = 0; i < 4; ++i) EXPECT_NE(c[i].find(want[i]), std::string::npos) << c[i];
}

TEST(Tracer, ArgsAndNamesAreValidJson) {
  const std::string f = path("args.json");
  Tracer t;
  t.open(f);
  t.span("cpu", "say \"hi\"\n", ns(1.5), ns(0.001),
         TraceArgs().add("addr", uint64_t(1) << 40).add("ns", 2.5).add("by", "gpu0.\"ce\""));
  ASSERT_TRUE(t.close());
  const std::string s = hetvp::test::read_file(f);
  EXPECT_NE(s.find("{\"name\":\"say \\\"hi\\\"\\n\",\"ph\":\"X\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"ts\":0.0015,\"dur\":0.000001,\"args\":{\"addr\":1099511627776,\"ns\":2.5,\"by\":\"gpu0.\\\"ce\\\"\"}"),
            std::string::npos)
      << s;
  const std::string tail = "\n],\"displayTimeUnit\":\"ns\"}\n";  // the file ends the JSON object
  EXPECT_EQ(s.rfind(tail), s.size() - tail.size());
  TraceArgs many;
  for (int i = 0; i < 40; ++i) many.add("a_long_key_name", uint64_t(12345678));
  EXPECT_LE(many.size(), 240u);  // keys that do not fit are left out, never cut in half
  EXPECT_EQ(many.str().back(), '8');
}

TEST(Tracer, UnwritableFileIsAnError) {
  Tracer t;
  EXPECT_THROW(t.open("/no/such/dir/t.json"), std::runtime_error);
  EXPECT_FALSE(t.enabled());
}
