// The `hetvp` program's command line (CLI11, platform/cli): `--opt=value` and `--opt value`,
// --help on every command, unknown options and bad values as usage errors (exit 2) that say
// what is wrong, configs found by name, the plugin hint, and progress that changes no statistic.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/run_hetvp.h"
#include "common/text_match.h"

using namespace hetvp::test;

namespace {
using hetvp::test::has;
}  // namespace

// Issue #27's example: both options with '='.
TEST(CliOptions, EqualsFormWorksForEveryOption) {
  const std::string stats = scratch() + "/eq.json", csv = scratch() + "/eq.csv";
  RunResult r = run_hetvp("run " + config("default.yaml") + " --stats=" + stats + " --workload=boot");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "workload boot")) << r.out;
  EXPECT_TRUE(has(read_file(stats), "\"workload\": \"boot\"")) << read_file(stats).substr(0, 400);
  // The same run with the values as separate words and --set both ways: the same statistics.
  const std::string a = scratch() + "/eq_a.json", b = scratch() + "/eq_b.json";
  ASSERT_EQ(run_hetvp("run " + config("default.yaml") + " -q --workload boot --set pcie0.lanes=8 --stats " + a).status,
            0);
  ASSERT_EQ(run_hetvp("run " + config("default.yaml") + " --quiet --workload=boot --set=pcie0.lanes=8 --stats=" + b)
                .status,
            0);
  EXPECT_EQ(components_section(read_file(a)), components_section(read_file(b)));
  // The sweep runner too: --out=DIR, -j4 (a short option with its value attached).
  RunResult sw = run_hetvp("sweep " + config("sweeps/fujii2014_pcie.yaml") + " --out=" + scratch() +
                           "/sweep -j4 --dry-run");
  EXPECT_EQ(sw.status, 0) << sw.err;
  EXPECT_TRUE(has(sw.out, "12 points (12 distinct), 0 finished, 12 to run")) << sw.out;
  // -v / -vv / --log-level=
  EXPECT_EQ(run_hetvp("run " + config("default.yaml") + " --workload boot -vv -q").status, 0);
  RunResult lvl = run_hetvp("run " + config("default.yaml") + " --log-level=loud");
  EXPECT_EQ(lvl.status, 2);
  EXPECT_TRUE(has(lvl.err, "--log-level loud: expected error, warning, info or debug")) << lvl.err;
}

TEST(CliOptions, HelpOnEveryCommandExitsZero) {
  for (const char* cmd : {"run", "check", "debug", "list", "schema", "registers", "stats-doc", "iss", "sweep",
                          "sweep plot", "sweep task", "--version"}) {
    RunResult r = run_hetvp(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd << ": " << r.err;
    EXPECT_EQ(r.out.rfind("usage: hetvp ", 0), 0u) << cmd << ": " << r.out;
    EXPECT_TRUE(has(r.out, "-h,--help")) << cmd << ": " << r.out;
  }
  // `registers --help` used to print the tables; `list --help` used to be an error.
  EXPECT_FALSE(has(run_hetvp("registers --help").out, "| offset | register |")) << "help, not the register tables";
  EXPECT_TRUE(has(run_hetvp("list -h").out, "--plugin LIB.so"));
  EXPECT_TRUE(has(run_hetvp("iss --help").out, "--trap-watchdog N=1000"));
}

TEST(CliOptions, UnknownOptionsAndArgumentsAreUsageErrors) {
  for (const char* cmd : {"list", "registers", "schema", "stats-doc", "iss x.elf", "sweep x.yaml --out d", "check x"}) {
    RunResult r = run_hetvp(std::string(cmd) + " --bogus=1");
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_TRUE(has(r.err, "error: unknown option '--bogus=1'")) << cmd << ": " << r.err;
  }
  RunResult extra = run_hetvp("registers extra");
  EXPECT_EQ(extra.status, 2);
  EXPECT_TRUE(has(extra.err, "error: unexpected argument 'extra'")) << extra.err;
  // `check` takes no outputs of a run.
  RunResult chk = run_hetvp("check " + config("default.yaml") + " --stats s.json");
  EXPECT_EQ(chk.status, 2);
  EXPECT_TRUE(has(chk.err, "unknown option '--stats'")) << chk.err;
  RunResult missing = run_hetvp("run " + config("default.yaml") + " --stats");
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing.err, "error: --stats: 1 required FILE.json missing")) << missing.err;
  RunResult both = run_hetvp("run " + config("default.yaml") + " --progress --no-progress");
  EXPECT_EQ(both.status, 2);
  EXPECT_TRUE(has(both.err, "--progress and --no-progress contradict each other")) << both.err;
  RunResult jobs = run_hetvp("sweep x.yaml --out d -j0");
  EXPECT_EQ(jobs.status, 2);
  EXPECT_TRUE(has(jobs.err, "error: --jobs: Value 0 not in range 1 to 4096")) << jobs.err;
}

// `hetvp iss`: counts are unsigned; "-5" must not wrap around to a huge count.
TEST(CliOptions, IssRefusesNegativeAndOversizedCounts) {
  for (const char* opt : {"--max-instructions=-5", "--max-instructions=0x"}) {
    RunResult r = run_hetvp(std::string("iss /nonexistent.elf ") + opt);
    EXPECT_EQ(r.status, 2) << opt;
    EXPECT_TRUE(has(r.err, "--max-instructions needs a number of at least 1, not '")) << opt << ": " << r.err;
  }
  for (const char* opt : {"--trap-watchdog=-1", "--trap-watchdog -1"}) {
    RunResult r = run_hetvp(std::string("iss /nonexistent.elf ") + opt);
    EXPECT_EQ(r.status, 2) << opt;
    EXPECT_TRUE(has(r.err, "--trap-watchdog: expected a number >= 0, not '-1'")) << opt << ": " << r.err;
  }
  RunResult big = run_hetvp("iss /nonexistent.elf --trap-watchdog 5000000000");
  EXPECT_EQ(big.status, 2);
  EXPECT_TRUE(has(big.err, "--trap-watchdog")) << big.err;
  RunResult none = run_hetvp("iss --strict-traps");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(has(none.err, "error: no ELF given")) << none.err;
}

// A name instead of a path: the shipped configs of the data folder (the build tree's configs/).
TEST(CliOptions, ConfigsAreFoundByName) {
  RunResult ok = run_hetvp("check default");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(has(ok.out, "configs/default.yaml: OK")) << ok.out;
  EXPECT_EQ(run_hetvp("check two_gpus.yaml").status, 0);
  RunResult run = run_hetvp("run default --workload boot -q");
  EXPECT_EQ(run.status, 0) << run.err;
  RunResult bad = run_hetvp("run defualt");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(has(bad.err, "error: defualt: no such configuration file, nor a shipped config of that name")) << bad.err;
  EXPECT_TRUE(has(bad.err, "coherence, default, ")) << "the shipped names are listed: " << bad.err;
  // A path is taken only as a path.
  RunResult path = run_hetvp("check ./default");
  EXPECT_EQ(path.status, 2);
  EXPECT_TRUE(has(path.err, "./default: no such configuration file")) << path.err;
}

// A configuration path that exists but cannot be a configuration says what is wrong with it, not
// "no such configuration file" (issue #43 item 6): a device, a directory, an empty file, a binary file.
TEST(CliOptions, ConfigThatExistsButIsNoConfigSaysWhatItIs) {
  RunResult dev = run_hetvp("check /dev/zero");
  EXPECT_EQ(dev.status, 2);
  EXPECT_TRUE(has(dev.err, "error: /dev/zero: is a character device, not a regular file (a YAML configuration file expected)"))
      << dev.err;
  EXPECT_FALSE(has(dev.err, "no such configuration file")) << dev.err;
  const std::string dir = scratch();
  RunResult d = run_hetvp("check " + dir);
  EXPECT_EQ(d.status, 2);
  EXPECT_TRUE(has(d.err, "error: " + dir + ": is a directory, not a regular file")) << d.err;
  const std::string empty = write_file("empty.yaml", "");
  RunResult e = run_hetvp("check " + empty);
  EXPECT_EQ(e.status, 2);
  EXPECT_TRUE(has(e.err, "error: " + empty + ":1:1: the configuration is empty")) << e.err;
  const std::string binary = write_file("binary.yaml", std::string("\x7f" "ELF\x01\x01\x01\0\0\0", 10));
  RunResult b = run_hetvp("run " + binary);
  EXPECT_EQ(b.status, 2);
  EXPECT_TRUE(has(b.err, "error: " + binary + ": is a binary file (a NUL byte at offset 7), not a YAML configuration file"))
      << b.err;
  for (const RunResult* r : {&dev, &d, &e, &b}) EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
}

// A type or workload hetvp does not know may come from a plugin that was not loaded.
TEST(CliOptions, UnknownTypeOrWorkloadSuggestsThePlugin) {
  const std::string hint = "did you load the plugin? (--plugin FILE or plugins: in the YAML)";
  std::string cfg =
      write_file("plugin_type.yaml", read_file(config("default.yaml")) + "\nacc:\n  type: my_accelerator\n");
  RunResult t = run_hetvp("check " + cfg);
  EXPECT_EQ(t.status, 2);
  EXPECT_TRUE(has(t.err, "acc.type: unknown component type 'my_accelerator'; " + hint)) << t.err;
  RunResult w = run_hetvp("run " + config("default.yaml") + " --workload my_benchmark");
  EXPECT_EQ(w.status, 2);
  EXPECT_TRUE(has(w.err, "unknown workload 'my_benchmark'")) << w.err;
  EXPECT_TRUE(has(w.err, hint)) << w.err;
}

// --progress slices the simulation (sc_start up to the next slice end); the statistics are the
// same bytes as one sc_start, and a log (stderr not a terminal) gets the last progress line, with
// the time limit's share and an ETA bound (platform/cli/progress.h).
TEST(CliOptions, ProgressChangesNoStatistic) {
  const std::string a = scratch() + "/progress_on.json", b = scratch() + "/progress_off.json";
  const std::string run = "run " + config("default.yaml") + " --set workload.args.max_size=256KiB --stats ";
  RunResult on = run_hetvp(run + a + " --progress");
  ASSERT_EQ(on.status, 0) << on.err;
  EXPECT_TRUE(has(on.err, "progress: ")) << on.err;
  EXPECT_TRUE(has(on.err, "progress: work ") && has(on.err, "/442 (100 %), ETA ")) << on.err;  // transfer's points
  EXPECT_TRUE(has(on.err, "; simulated ")) << on.err;
  EXPECT_TRUE(has(on.err, " simulated per wall second")) << on.err;
  RunResult off = run_hetvp(run + b);
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_FALSE(has(off.err, "progress:")) << "stderr is not a terminal: no progress unless asked";
  EXPECT_EQ(components_section(read_file(a)), components_section(read_file(b)));
  EXPECT_GT(read_file(a).size(), 1000u);
}

// `check` (and `run`) report every error of a file, each with its location, up to a limit:
// a user fixing typos sees them all at once.
TEST(CliOptions, CheckReportsEveryErrorUpToALimit) {
  const std::string two = write_file("two_typos.yaml",
                                     "simulation: {seed: 1}\n"
                                     "workload: {name: boot, cpu: cpu}\n"
                                     "cpu: {type: host_cpu, connect: {mem: host_bus}}\n"
                                     "host_bus:\n"
                                     "  type: router\n"
                                     "  latncy: 2 ns\n"
                                     "  map: [{to: host_mem, base: 0x0, size: 256 MiB}]\n"
                                     "host_mem: {type: memory, size: 256 MiB, latncy: 10 ns}\n");
  RunResult r = run_hetvp("check " + two);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "error: " + two + ":6:3: host_bus.latncy: unknown key 'latncy' (did you mean 'latency'?)"))
      << r.err;
  EXPECT_TRUE(has(r.err, "error: " + two + ":8:41: host_mem.latncy: unknown key 'latncy' (did you mean 'latency'?)"))
      << r.err;
  size_t lines = 0;
  for (size_t p = 0; (p = r.err.find("error: ", p)) != std::string::npos; ++p) ++lines;
  EXPECT_EQ(lines, 2u) << r.err;  // both typos, nothing else
  // 25 typos: the first 20 and a count of the others.
  std::string many = "simulation: {seed: 1}\nworkload: {name: boot, cpu: cpu}\ncpu: {type: host_cpu}\n";
  for (int i = 0; i < 25; ++i) many += "m" + std::to_string(i) + ": {type: memory, size: 1 MiB, sise: 1 MiB}\n";
  const std::string f = write_file("many_typos.yaml", many);
  RunResult m = run_hetvp("check " + f);
  EXPECT_EQ(m.status, 2);
  lines = 0;
  for (size_t p = 0; (p = m.err.find("unknown key 'sise'", p)) != std::string::npos; ++p) ++lines;
  EXPECT_EQ(lines, 20u) << m.err;
  EXPECT_TRUE(has(m.err, "error: " + f + ": 5 more error(s) not shown (the first 20 are)")) << m.err;
}

// Found by the yaml fuzzer: a workload argument that fails its schema (an unparsable size) was
// collected as an error, and then the workload's own check read it and threw past the collector
// (std::invalid_argument, the process terminated). Now the program's check runs only on
// arguments that passed, and the one located error is all the user sees.
TEST(CliOptions, CheckOfAnUnparsableWorkloadSizeIsOneLocatedError) {
  const std::string f = write_file("bad_size.yaml",
                                   "simulation: {seed: 1}\n"
                                   "workload:\n"
                                   "  name: transfer\n"
                                   "  cpu: cpu\n"
                                   "  args: {max_size: 64 Miname:B}\n"
                                   "cpu: {type: host_cpu}\n");
  RunResult r = run_hetvp("check " + f);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "error: " + f + ":5:")) << r.err;
  EXPECT_TRUE(has(r.err, "max_size")) << r.err;
  EXPECT_FALSE(has(r.err, "terminate")) << r.err;
}

TEST(CliOptions, CsvOfAWorkloadWithoutAResultTableIsEmptyAndSaysWhy) {  // #42: a 1-byte file before
  const std::string csv = scratch() + "/boot.csv";
  RunResult r = run_hetvp("run " + config("default.yaml") + " --workload boot --csv " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning: workload 'boot' has no result table: " + csv + " is empty"), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(csv), "");
}
