// The statistics on demand and their reset (platform/stats_control.h, the debug prompt's `stats`):
// a reset zeroes counter and time stats and leaves values alone; without a reset a dump is the
// component's own; the JSON round trip a reset relies on gives the same bytes.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "platform/component.h"
#include "platform/run_context.h"
#include "platform/stats_control.h"

using namespace hetvp;

namespace {

struct Part {
  uint64_t hits = 0;
  StatGroup stats{"part"};
  Part() { stats.counter("hits", "count", "hits", hits); }
};

struct Model : Component {
  uint64_t reads = 0;
  sc_core::sc_time busy;
  unsigned lanes = 16;
  Part gpc0, gpc1;
  explicit Model(sc_core::sc_module_name n) : Component(n) {
    stats()
        .counter("reads", "count", "read transactions", reads)
        .time("busy_ns", "time spent", busy)
        .value("lanes", "lanes", "configured lanes", [this] { return lanes; })
        .value("reads_per_lane", "", "derived at dump time", [this] { return double(reads) / lanes; })
        .value("mode", "", "a name", [] { return std::string("fast \"x\"\n"); });
    stats().add("gpc0", gpc0.stats).add("gpc1", gpc1.stats);
    stats().add_undeclared("raw", [this](JsonWriter& w) { w.value("count", reads); });
  }
};

std::string components(const StatsControl& s) {
  std::ostringstream os;
  JsonWriter w(os);
  w.begin_object();
  s.write_components(w);
  w.end_object();
  return os.str();
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST(StatsControl, ResetZeroesCountersAndTimesNotValues) {
  RunContext run;
  Model m("m");
  StatsControl s(run);
  s.set_components({&m});
  m.reads = 10;
  m.busy = sc_core::sc_time(5, sc_core::SC_NS);
  m.gpc1.hits = 3;
  s.reset();
  EXPECT_EQ(s.resets(), 1u);
  m.reads = 14;
  m.busy = sc_core::sc_time(7.5, sc_core::SC_NS);
  m.gpc1.hits = 4;
  const std::string j = components(s);
  EXPECT_TRUE(has(j, "\"reads\": 4,")) << j;
  EXPECT_TRUE(has(j, "\"busy_ns\": 2.5,")) << j;
  EXPECT_TRUE(has(j, "\"lanes\": 16,")) << j;                  // configuration: untouched
  EXPECT_TRUE(has(j, "\"reads_per_lane\": 0.875,")) << j;      // derived from the raw member: untouched
  EXPECT_TRUE(has(j, "\"mode\": \"fast \\\"x\\\"\\n\"")) << j;  // a name, escaped as before
  EXPECT_TRUE(has(j, "\"gpc1\": {\n      \"hits\": 1\n")) << j;  // alike groups (gpcN) by their list() name
  EXPECT_TRUE(has(j, "\"count\": 14\n")) << j;                  // hand-written (undeclared): untouched
}

TEST(StatsControl, WithoutResetADumpIsTheComponentsOwn) {
  RunContext run;
  Model m("m2");
  StatsControl s(run);
  s.set_components({&m});
  m.reads = 7;
  std::ostringstream own;
  JsonWriter w(own);
  w.begin_object();
  w.begin_object("m2");
  m.dump_stats(w);
  w.end_object();
  w.end_object();
  EXPECT_EQ(components(s), own.str());
  const std::string doc = s.document();
  EXPECT_TRUE(has(doc, "\"stats_since_ns\": 0,")) << doc;
  EXPECT_TRUE(has(doc, "\"status\": \"running\"")) << doc;
  EXPECT_TRUE(has(doc, "\"components\": {\n    \"m2\": {")) << doc;
}

TEST(StatsControl, JsonRoundTripGivesTheSameBytes) {
  std::ostringstream a;
  JsonWriter w(a);
  w.begin_object();
  w.begin_object("x");
  w.value("u", uint64_t(18446744073709551615ull)).value("i", int64_t(-42)).value("d", 1234.5678901234);
  w.value("big", 1e300).value("small", 1.5e-9).value("whole", 3.0).value("nan", 0.0 / 0.0);
  w.value("t", true).value("f", false).value("s", std::string("a\\b\"c\td\x01"));
  w.begin_array("list");
  w.begin_object().value("k", 1).end_object();
  w.value("", "e");
  w.begin_array().end_array();
  w.end_array();
  w.begin_object("empty").end_object();
  w.end_object();
  w.end_object();
  std::ostringstream b;
  JsonWriter w2(b);
  w2.begin_object();
  rewrite_json(w2, "x", a.str().substr(a.str().find("\"x\": ") + 5, a.str().rfind('}') - a.str().find("\"x\": ") - 5));
  w2.end_object();
  EXPECT_EQ(b.str(), a.str());
  JsonWriter w3(b);
  EXPECT_THROW(rewrite_json(w3, "y", "{\"a\": }"), std::runtime_error);
}
