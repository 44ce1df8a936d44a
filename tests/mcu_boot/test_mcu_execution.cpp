// The RV32 microcontrollers run the same way on every execution path of their core (issue #43):
// `gpu0.microcontrollers.{hub,gpc}.execution` = translated (blocks as x86-64 code, the default),
// threaded (the blocks without translation) or interpreted (one instruction at a time). Whole-platform
// runs — the boot, offloaded copies through the HUB and GPC firmware, and gpu_bench's context switches
// between four channels — give byte-identical statistics and CSV tables on all three.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
struct PlatformRun {
  std::string stats, csv;
};
PlatformRun run_with(const std::string& workload, const std::string& execution) {
  const std::string json = scratch() + "/exec_" + execution + ".json", csv = scratch() + "/exec_" + execution + ".csv";
  auto r = run_hetvp("run " + config("default.yaml") + " --quiet --workload " + workload +
                     " --set gpu0.microcontrollers.hub.execution=" + execution +
                     " --set gpu0.microcontrollers.gpc.execution=" + execution + " --stats " + json + " --csv " + csv);
  EXPECT_EQ(r.status, 0) << workload << " " << execution << ": " << r.out << r.err;
  return {components_section(without_host_time(read_file(json))), read_file(csv)};
}
}  // namespace

TEST(McuExecution, PlatformStatsAreTheSameTranslatedThreadedAndInterpreted) {
  for (const std::string w :
       {"gpu_bench --set workload.args.runs=2 --set workload.args.contexts=4 --set workload.args.program=madd "
        "--set workload.args.size=64",
        "transfer --set workload.args.methods=hub,gpc1,gpc4 --set workload.args.max_size=16KiB",
        "mcu_boot"}) {
    SCOPED_TRACE(w);
    const PlatformRun translated = run_with(w, "translated");
    ASSERT_NE(translated.stats.find("\"microcontrollers\""), std::string::npos) << translated.stats;
    ASSERT_NE(translated.stats.find("\"instructions\""), std::string::npos);
    for (const char* e : {"threaded", "interpreted"}) {
      const PlatformRun other = run_with(w, e);
      EXPECT_EQ(other.stats, translated.stats) << e;
      EXPECT_EQ(other.csv, translated.csv) << e;
    }
  }
}

// Bad values of the new keys and options: refused before anything runs, naming the key and the
// valid words, and nothing else reported.
TEST(McuExecution, BadExecutionOrMisalignedValuesAreLocatedErrors) {
  for (const auto& [key, bad, valid] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"gpu0.microcontrollers.hub.execution", "fast", "translated, threaded, interpreted"},
           {"gpu0.microcontrollers.gpc.misaligned", "sometimes", "trap, emulate"}}) {
    auto r = run_hetvp("check " + config("default.yaml") + " --set " + key + "=" + bad);
    EXPECT_EQ(r.status, 2) << key;
    EXPECT_NE(r.err.find("(--set " + key + "): " + key + ": '" + bad + "' is not one of: " + valid), std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // that error alone
  }
  auto i = run_hetvp("iss " + binary_dir() + "/firmware/mcu_spin.elf --misaligned bogus");
  EXPECT_EQ(i.status, 2);
  EXPECT_NE(i.err.find("error: --misaligned: expected trap or emulate, not 'bogus'"), std::string::npos) << i.err;
}
