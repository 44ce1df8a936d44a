// Tracer (platform/trace.h) on its own: complete spans only where they nest, async pairs on lanes
// where they overlap, runs, the window, the filter, counter deltas written in time order, and the
// exact microsecond timestamps; the formats an extension picks (.json.gz, Perfetto's .pftrace) and
// the protobuf encoder. The whole-platform files: tests/python/test_trace.py, test_trace_formats.py.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "common/trace_files.h"
#include "platform/trace.h"
#include "platform/trace_proto.h"
#include "platform/trace_track.h"

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
  for (const char* f : {"/no/such/dir/t.json", "/no/such/dir/t.json.gz", "/no/such/dir/t.pftrace"}) {
    Tracer t;
    EXPECT_THROW(t.open(f), std::runtime_error) << f;
    EXPECT_FALSE(t.enabled());
  }
}

TEST(Tracer, TheExtensionPicksTheFormat) {
  using hetvp::TraceFormat;
  EXPECT_EQ(hetvp::trace_format_of("t.json"), TraceFormat::kJson);
  EXPECT_EQ(hetvp::trace_format_of("t.trace"), TraceFormat::kJson);
  EXPECT_EQ(hetvp::trace_format_of("t.json.gz"), TraceFormat::kJsonGz);
  EXPECT_EQ(hetvp::trace_format_of("t.pftrace"), TraceFormat::kPerfetto);
  EXPECT_EQ(hetvp::trace_format_of("dir.json/t.perfetto-trace"), TraceFormat::kPerfetto);
}

// Protobuf's wire format (protobuf.dev, "Encoding"): a tag is field << 3 | wire type; 300 is the
// varint AC 02; a double is 8 bytes little-endian.
TEST(Tracer, ProtoMessageEncodesTheWireFormat) {
  hetvp::ProtoMessage m;
  m.varint(1, 300);
  EXPECT_EQ(m.data(), std::string("\x08\xac\x02", 3));
  m.clear();
  m.bytes(2, "hi");
  EXPECT_EQ(m.data(), std::string("\x12\x02hi", 4));
  m.clear();
  m.fixed_double(5, 1.0);
  EXPECT_EQ(m.data(), std::string("\x29\0\0\0\0\0\0\xf0\x3f", 9));
  m.clear();
  m.sint(4, -1);  // int64: ten bytes of two's complement
  EXPECT_EQ(m.data().size(), 11u);
  hetvp::ProtoMessage outer;
  outer.message(60, m);  // a field number past 15: a two-byte tag
  EXPECT_EQ(outer.data().substr(0, 3), std::string("\xe2\x03\x0b", 3));
}

namespace {
// The nested-span example's events into `f`.
void write_example(const std::string& f) {
  Tracer t;
  t.open(f);
  t.span("gpu0.ce", "outer", ns(0), ns(100), TraceArgs().add("addr", uint64_t{4096}).add("kind", "MWr"));
  t.span("gpu0.ce", "inner", ns(10), ns(20));
  t.span("gpu0.ce", "overlap", ns(90), ns(50));
  t.span("gpu0.ce", "late", ns(5), ns(1));
  t.instant("gpu0.ce", "probe", ns(7), "\"lines\":3");
  t.counter("gpu0.ce", "level", ns(8), 2.5);
  ASSERT_TRUE(t.close());
}
}  // namespace

TEST(Tracer, GzipTraceIsTheJsonCompressed) {
  write_example(path("ex.json"));
  write_example(path("ex.json.gz"));
  bool whole = false;
  EXPECT_EQ(hetvp::test::gunzip(path("ex.json.gz"), whole), hetvp::test::read_file(path("ex.json")));
  EXPECT_TRUE(whole);
}

TEST(Tracer, PerfettoTraceHasAPacketPerTrackAndEvent) {
  write_example(path("ex.pftrace"));
  std::vector<std::string> packets;
  ASSERT_EQ(hetvp::test::perfetto_packets(hetvp::test::read_file(path("ex.pftrace")), packets), "");
  // process gpu0, thread gpu0.ce, 2 lanes, the counter's track; 4 spans x (begin, end), 1 instant,
  // 1 counter value.
  EXPECT_EQ(packets.size(), 5u + 8u + 2u);
  // The first packet clears the sequence's state: sequence_flags (13) = 1, on sequence 1 (10).
  EXPECT_NE(packets[0].find(std::string("\x50\x01\x68\x01", 4)), std::string::npos);
}

// A model's TraceTrack (platform/trace_track.h): decided once per trace by the instance selection,
// the filter and simulation.trace_routers; decided again for the next trace; its events are the
// ones the track's name would get.
TEST(Tracer, TraceTrackIsDecidedOncePerTraceAndWritesUnderItsName) {
  hetvp::TraceTrack dma("rc.dma"), mmio("rc.mmio"), router("host_bus", false);
  const std::string f = path("handles.json");
  {
    Tracer t;
    t.set_filter("rc.dma,host_bus");
    EXPECT_FALSE(dma.on(t)) << "no trace open";
    t.open(f);
    EXPECT_TRUE(dma.on(t));
    EXPECT_FALSE(mmio.on(t)) << "the filter leaves it out";
    EXPECT_FALSE(router.on(t)) << "a router: off unless asked";
    t.span(dma.name(), "DMA read", ns(0), ns(10), TraceArgs().add("addr", uint64_t{64}));
    {
      std::string other = "rc.mmio";  // another string: found by its name, not mistaken for a handle
      t.span(other, "MMIO read", ns(10), ns(10));
    }
    t.span(dma.name(), "DMA write", ns(20), ns(10));
    ASSERT_TRUE(t.close());
    EXPECT_FALSE(dma.on(t)) << "closed";
  }
  const auto x = events(f, "X");
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NE(x[0].find("\"name\":\"DMA read\""), std::string::npos) << x[0];
  EXPECT_NE(x[1].find("\"name\":\"DMA write\""), std::string::npos) << x[1];
  EXPECT_EQ(events(f, "M").size(), 2u);  // process rc, thread rc.dma

  // The next trace decides again: routers asked for, no filter; a copy decides on its own.
  Tracer t2;
  t2.set_trace_routers(true);
  t2.open(path("handles2.json"));
  EXPECT_TRUE(router.on(t2));
  EXPECT_TRUE(mmio.on(t2));
  hetvp::TraceTrack copy = mmio;
  EXPECT_TRUE(copy.on(t2));
  EXPECT_EQ(copy.name(), "rc.mmio");
  ASSERT_TRUE(t2.close());
}

// The calls travel as records to the formatter's thread (platform/trace_record.h): many buffers'
// worth arrive whole and in call order, a record larger than a buffer (a long args text) too, and a
// name that was a temporary at the call is the name written.
TEST(Tracer, RecordsCrossBuffersInOrderAndALongRecordArrivesWhole) {
  const std::string f = path("records.json");
  const int kSpans = 40000;  // ~3 MiB of records: several hand-overs to the formatter
  const std::string long_text(3 << 20, 'x');  // one record larger than the 1 MiB buffer
  {
    Tracer t;
    t.open(f);
    for (int i = 0; i < kSpans; ++i)
      t.span(std::string("gpu0.ce") + std::to_string(i % 3), "copy", ns(i * 10), ns(5),
             TraceArgs().add("i", static_cast<uint64_t>(i)));
    t.instant("gpu0.ce0", "big", ns(kSpans * 10), "\"text\":\"" + long_text + "\"");
    t.counter_delta("gpu0.ce0", "bytes", ns(1), 4);
    ASSERT_TRUE(t.close());
    EXPECT_EQ(t.events_written(), 1u + 3u + kSpans + 1u + 1u);  // process, 3 threads, spans, instant, counter
  }
  const auto x = events(f, "X");
  ASSERT_EQ(x.size(), static_cast<size_t>(kSpans));
  for (int i : {0, 1, 12345, kSpans - 1})
    EXPECT_NE(x[i].find("\"args\":{\"i\":" + std::to_string(i) + "}"), std::string::npos) << x[i];
  const auto inst = events(f, "i");
  ASSERT_EQ(inst.size(), 1u);
  EXPECT_NE(inst[0].find("\"args\":{\"text\":\"" + long_text + "\"}}"), std::string::npos) << "the instant's args, whole";
  EXPECT_EQ(events(f, "C").size(), 1u);
}

// span_run on a TraceTrack merges in the handle (one record per run): the file is the one the
// name API writes for the same calls, a run still open at close() is written, and a TraceTrack
// that goes away first writes its run then.
TEST(Tracer, TraceTrackRunsAreTheNameApisRuns) {
  auto calls = [](Tracer& t, auto&& track) {
    for (int i = 0; i < 4; ++i) t.span_run(track, "MWr", ns(10 * i), ns(8), 0x1000 + 128 * i, 128);
    t.span("pcie0.down", "other track", ns(50), ns(5));
    t.span_run(track, "CplD", ns(10010), ns(8), 0x1280, 128);  // another kind: the MWr run is written
    t.span_run(track, "CplD", ns(10020), ns(8), 0x1300, 128);  // open at close()
  };
  const std::string by_name = path("runs_name.json"), by_handle = path("runs_handle.json");
  {
    Tracer t;
    t.open(by_name);
    calls(t, std::string("pcie0.up"));
    ASSERT_TRUE(t.close());
  }
  {
    Tracer t;
    t.open(by_handle);
    hetvp::TraceTrack up("pcie0.up");
    ASSERT_TRUE(up.on(t));
    calls(t, up);
    ASSERT_TRUE(t.close());
  }
  EXPECT_EQ(hetvp::test::read_file(by_handle), hetvp::test::read_file(by_name));
  const auto x = events(by_handle, "X");
  ASSERT_EQ(x.size(), 3u);  // in the order written: the other track's span, then the runs as each ends
  EXPECT_NE(x[0].find("\"name\":\"other track\""), std::string::npos) << x[0];
  EXPECT_NE(x[1].find("\"name\":\"MWr x4\""), std::string::npos) << x[1];
  EXPECT_NE(x[2].find("\"name\":\"CplD x2\""), std::string::npos) << x[2];

  const std::string gone = path("runs_gone.json");
  {
    Tracer t;
    t.open(gone);
    {
      hetvp::TraceTrack rc("rc.mmio");
      ASSERT_TRUE(rc.on(t));
      t.span_run(rc, "MMIO write", ns(0), ns(4), 0x80000000, 4);
      t.span_run(rc, "MMIO write", ns(5), ns(4), 0x80000004, 4);
    }  // the handle goes away with its run open
    t.span("rc.dma", "later", ns(100), ns(1));
    ASSERT_TRUE(t.close());
  }
  const auto g = events(gone, "X");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_NE(g[0].find("\"name\":\"MMIO write x2\""), std::string::npos) << g[0];
  EXPECT_NE(g[1].find("\"name\":\"later\""), std::string::npos) << g[1];
}
