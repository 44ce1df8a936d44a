// #42: the debug prompt dumps and resets the statistics (gem5's m5 dumpstats / resetstats):
// `stats FILE.json` writes the --stats file's shape, `stats reset` zeroes counters and times (not
// configuration or derived values), the end-of-run --stats counts from the reset; a bad subcommand
// or an unwritable file is a located error and the session goes on. Every test runs hetvp.
#include <gtest/gtest.h>

#include <regex>

#include "common/run_hetvp.h"
#include "common/text_match.h"

using namespace hetvp::test;

namespace {
using hetvp::test::has;

// The number after `"key": ` inside the object `"comp": {` of a stats document's components.
double stat(const std::string& doc, const std::string& comp, const std::string& key) {
  const std::string c = components_section(doc);
  const size_t at = c.find("\"" + comp + "\": {");
  if (at == std::string::npos) ADD_FAILURE() << "no component " << comp;
  std::smatch m;
  const std::string rest = at == std::string::npos ? "" : c.substr(at);
  if (!std::regex_search(rest, m, std::regex("\"" + key + "\": ([-0-9.e+]+)"))) {
    ADD_FAILURE() << "no stat " << comp << "." << key;
    return -1;
  }
  return std::stod(m[1]);
}
}  // namespace

TEST(DebugStats, DumpResetAndDumpAtThePrompt) {
  const std::string d = scratch() + "/";
  const std::string in = write_file("stats_prompt.txt",
                                    "boot\n"
                                    "stats " + d + "before.json\n"
                                    "stats reset\n"
                                    "stats " + d + "zero.json\n"
                                    "read hub UC_CTRL\n"
                                    "stats " + d + "after.json\n"
                                    "stats frob\n"
                                    "stats /nonexistent-dir/s.json\n"
                                    "echo still here\n"
                                    "quit\n");
  auto r = run_hetvp("debug " + config("default.yaml") + " --stats " + d + "final.json < " + in);
  ASSERT_EQ(r.status, 0) << r.out << r.err;  // the prompt's errors do not fail the run
  EXPECT_FALSE(has(r.err, "FAILED")) << r.err;
  EXPECT_TRUE(has(r.out, "debug> stats reset at ")) << r.out;
  EXPECT_TRUE(has(r.out, "debug:7: error: stats: unknown subcommand 'frob' (stats [FILE.json|-] writes the "
                         "statistics, stats reset zeroes the counters)"))
      << r.out;
  EXPECT_TRUE(has(r.out, "debug:8: error: stats: cannot write /nonexistent-dir/s.json (No such file or directory); "
                         "the session goes on"))
      << r.out;
  EXPECT_TRUE(has(r.out, "debug> still here")) << r.out;
  EXPECT_TRUE(has(r.out, "debug: 9 line(s), 2 error(s) (the prompt's do not fail the run)")) << r.out;

  const std::string before = read_file(d + "before.json"), zero = read_file(d + "zero.json"),
                    after = read_file(d + "after.json"), final_ = read_file(d + "final.json");
  ASSERT_TRUE(has(before, "\"status\": \"running\"")) << before.substr(0, 600);
  EXPECT_TRUE(has(before, "\"stats_since_ns\": 0,"));
  EXPECT_TRUE(has(before, "\"workload\": \"debug\""));
  // Counters and times: something before, 0 right after the reset, the read's accesses after it.
  EXPECT_GT(stat(before, "cpu", "uncached_loads"), 0);
  EXPECT_GT(stat(before, "down", "busy_ns"), 0);  // pcie0's downstream link time
  EXPECT_EQ(stat(zero, "cpu", "uncached_loads"), 0);
  EXPECT_EQ(stat(zero, "cpu", "uncached_stores"), 0);
  EXPECT_EQ(stat(zero, "down", "busy_ns"), 0);
  EXPECT_EQ(stat(zero, "hub", "instructions"), 0);
  EXPECT_GE(stat(after, "cpu", "uncached_loads"), 1);
  EXPECT_LT(stat(after, "cpu", "uncached_loads"), stat(before, "cpu", "uncached_loads"));
  // The end-of-run --stats counts from the reset too, and says since when.
  EXPECT_TRUE(has(final_, "\"stats_since_ns\": ")) << final_.substr(0, 2000);
  EXPECT_EQ(stat(final_, "cpu", "uncached_loads"), stat(after, "cpu", "uncached_loads"));
  EXPECT_LT(stat(final_, "hub", "instructions"), stat(before, "hub", "instructions"));
  // A configuration-derived value is not reset: pcie0's link bandwidth.
  EXPECT_EQ(stat(zero, "pcie0", "bytes_per_second"), 8e9);
}

// Without a reset the --stats file has no stats_since_ns (the same bytes as before the command
// existed); `stats -` prints the document in the session's output; batch errors fail the run.
TEST(DebugStats, DumpToTheSessionAndBatchErrors) {
  const std::string d = scratch() + "/";
  auto r = run_hetvp("debug " + config("default.yaml") + " --stats " + d + "plain.json --commands 'stats -; stats reset now'");
  EXPECT_EQ(r.status, 1) << r.out << r.err;  // a --commands error fails the batch run, as any
  EXPECT_TRUE(has(r.out, "\"status\": \"running\"")) << r.out;
  EXPECT_TRUE(has(r.out, "debug:2: error: 'stats' takes one argument")) << r.out;
  EXPECT_FALSE(has(read_file(d + "plain.json"), "stats_since_ns"));
}
