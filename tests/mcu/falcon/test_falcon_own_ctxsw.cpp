// Context switches by hetvp's own C firmware on GF100's Falcon controllers (issue #39 must-show 2,
// docs/firmware_falcon.md "GF100's context"): configs/gf100_own.yaml runs gpu_bench with several
// contexts, the HUB's firmware switches them on the CHSW interrupt with GF100's register lists (the
// ones nouveau's firmware runs, uploaded by the driver), and every gpu_bench program gives the same
// self-checked results as under nouveau's firmware (gf100_nouveau.yaml) and hetvp's RV32 firmware
// (default.yaml). Skipped, with the reason, without the Falcon images or nouveau's GF100 lists.
#include "common/run_hetvp.h"
#include "common/stats_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "models/gpu/gr/gf100_lists.h"

using namespace hetvp::test;

namespace {

std::string own_image(const char* name) { return binary_dir() + "/firmware/falcon/" + name + ".fuc3.h"; }

#define SKIP_UNLESS_BUILT()                                                                                 \
  do {                                                                                                      \
    if (!std::ifstream(own_image("hub")).good() || !std::ifstream(own_image("gpc")).good())                 \
      GTEST_SKIP() << own_image("hub") << " was not built "                                                 \
                   << "(firmware/falcon/CMakeLists.txt: needs riscv64-unknown-elf-gcc and python3)";        \
    const auto& lists = hetvp::gpu::gr::gr_lists("gf100");                                                  \
    if (!lists.available) GTEST_SKIP() << lists.reason;                                                     \
  } while (0)

std::string bench(const std::string& cfg, const std::string& extra) {
  return "run " + config(cfg) + " --workload gpu_bench " + extra;
}

// The resolved configuration's lines, without comments (the first names the file) and the firmware key.
std::string without_firmware_key(const std::string& yaml) {
  std::istringstream in(yaml);
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (line.find("firmware:") == std::string::npos && line.rfind("#", 0) != 0) out += line + "\n";
  return out;
}

}  // namespace

// The issue's command: the resolved configuration names the Falcon core and hetvp's firmware, the
// boot is the own firmware's, and every switch the FIFO asked for reached the HUB Falcon as its CHSW
// interrupt and was acknowledged by it, moving GF100's context.
TEST(FalconOwnFirmware, Madd4ContextsAreSwitchedByTheOwnFirmware) {
  SKIP_UNLESS_BUILT();
  const std::string stats = scratch() + "/own_madd4.json", resolved = scratch() + "/own_madd4.yaml";
  auto r = run_hetvp(bench("gf100_own.yaml", "--set workload.args.program=madd --set workload.args.contexts=4 --stats " +
                                                 stats + " --dump-config " + resolved),
                     120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("hetvp's own C firmware: init-done at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every result correct"), std::string::npos) << r.out;
  const std::string yaml = read_file(resolved);
  const size_t mc = yaml.find("  microcontrollers:\n");
  ASSERT_NE(mc, std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("    core: falcon\n", mc), yaml.find("\n", mc) + 1) << yaml;
  EXPECT_NE(yaml.find("    firmware: hetvp", mc), std::string::npos) << yaml;
  const std::string s = read_file(stats);
  const double switches = stats_number(s, {"gr", "switches"});
  EXPECT_GT(switches, 0) << s;
  EXPECT_EQ(stats_number(s, {"microcontrollers", "hub", "chsw_irqs"}), switches) << s;
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "switch_errors"}), 0) << s;
  // The controller measures the HUB's cycles per switch for either firmware (the own one reports none).
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "fw_cycles_total"}),
            stats_number(s, {"microcontrollers", "hub", "chsw_cycles"}))
      << s;
  // GF100's context, as the boot line's lists give it: HUB 2 (the image's entry) + 200 (`hub`) + 23
  // (compute) words = 900 bytes per save or load; each GPC 41 + 23 (`gpc_0`, `gpc_1`) + 4 TPCs x 56 (`tpc`)
  // words = 1152 bytes and its 3 strand words (12 bytes). The golden save is one save; the first
  // switch loads only.
  const double hub_save = stats_number(s, {"hub_ctxsw", "mmctx_save_bytes"});
  EXPECT_EQ(hub_save, 900.0 * switches) << s;  // golden + (switches - 1) saves
  EXPECT_EQ(stats_number(s, {"gpc0_ctxsw", "mmctx_save_bytes"}), 1152.0 * switches) << s;
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "switch_bytes"}), (900.0 + 4 * (1152 + 12)) * (2 * switches - 1)) << s;
  // the context size the firmware answers (FW_CMD_GR_INFO): HUB 900 -> 1024, each GPC 1152 -> 1280 + 256
  EXPECT_NE(r.out.find("context size 7168 bytes"), std::string::npos) << r.out;
}

// Every gpu_bench program passes its self-checks with two contexts under the own firmware, nouveau's
// firmware (both on the same GF100 Falcon hardware) and hetvp's RV32 firmware.
TEST(FalconOwnFirmware, EveryProgramGivesTheSameResultsUnderAllThreeConfigs) {
  SKIP_UNLESS_BUILT();
  struct P {
    const char* program;
    unsigned size;
  };
  for (const P& p : {P{"madd", 16}, P{"fmadd", 16}, P{"mmul", 16}, P{"memcpy", 1024}, P{"loop", 10}, P{"idle", 100}})
    for (const char* cfg : {"gf100_own.yaml", "gf100_nouveau.yaml", "default.yaml"}) {
      const std::string csv = scratch() + "/" + p.program + "_" + cfg + ".csv";
      auto r = run_hetvp(bench(cfg, std::string("--set workload.args.program=") + p.program +
                                        " --set workload.args.size=" + std::to_string(p.size) +
                                        " --set workload.args.contexts=2 --csv " + csv),
                         120);
      ASSERT_EQ(r.status, 0) << cfg << " " << p.program << r.out << r.err;
      EXPECT_NE(r.out.find("every result correct"), std::string::npos) << cfg << " " << p.program << r.out;
      const auto rows = read_csv(csv);
      ASSERT_EQ(rows.size(), 2u) << cfg << " " << p.program;
      size_t check = 0, switches = 0;
      for (size_t i = 0; i < rows[0].size(); ++i) {
        if (rows[0][i] == "check") check = i;
        if (rows[0][i] == "switches") switches = i;
      }
      ASSERT_GT(check, 0u);
      EXPECT_EQ(rows[1][check], "ok") << cfg << " " << p.program;
      EXPECT_GT(std::stoul(rows[1][switches]), 0u) << cfg << " " << p.program;  // each context bound GR
    }
}

// The lists switched are GF100's, not hetvp's compute registers only: a restore skipped (test fault) at
// TPC 1 of GPC 0 (`tpc`'s 0x419818, reached through the TPC list's MULTI entries) and at the HUB image's
// own word 0x17e91c happens under the own firmware, and never under the RV32 firmware, whose context
// has neither.
TEST(FalconOwnFirmware, TheContextIsGf100sRegisterLists) {
  SKIP_UNLESS_BUILT();
  for (const char* reg : {"0x504818", "0x17e91c"})
    for (const char* cfg : {"gf100_own.yaml", "default.yaml"}) {
      const std::string stats = scratch() + "/skip_" + reg + "_" + cfg + ".json";
      auto r = run_hetvp(bench(cfg, std::string("--set workload.args.program=madd --set workload.args.size=16 ") +
                                        "--set workload.args.contexts=2 --set gpu0.gr.test_skip_restore=" + reg +
                                        " --stats " + stats),
                         120);
      ASSERT_EQ(r.status, 0) << cfg << " " << reg << r.out << r.err;
      const std::string s = read_file(stats);
      const char* unit = std::string(reg) == "0x17e91c" ? "hub_ctxsw" : "gpc0_ctxsw";
      if (std::string(cfg) == "gf100_own.yaml")
        EXPECT_GT(stats_number(s, {unit, "skipped_restores"}), 0) << cfg << " " << reg << s;
      else
        EXPECT_EQ(stats_number(s, {unit, "skipped_restores"}), 0) << cfg << " " << reg << s;
    }
}

// The own firmware's switch costs do not move with simulation.quantum (as nouveau's do not): its waits
// poll, so no interrupt from another controller lands at a quantum-dependent point of a spin.
TEST(FalconOwnFirmware, SwitchCostsDoNotDependOnTheQuantum) {
  SKIP_UNLESS_BUILT();
  std::string s[2];
  const char* quanta[2] = {"10ns", "100us"};
  for (int i = 0; i < 2; ++i) {
    const std::string stats = scratch() + "/own_q" + std::to_string(i) + ".json";
    auto r = run_hetvp(bench("gf100_own.yaml", std::string("--set workload.args.program=madd --set workload.args.size=16 ") +
                                                   "--set workload.args.contexts=2 --set simulation.quantum=" + quanta[i] +
                                                   " --stats " + stats),
                       120);
    ASSERT_EQ(r.status, 0) << quanta[i] << r.out << r.err;
    s[i] = read_file(stats);
  }
  EXPECT_GT(stats_number(s[0], {"gr", "switches"}), 0);
  EXPECT_EQ(stats_number(s[0], {"gr", "switches"}), stats_number(s[1], {"gr", "switches"}));
  for (const char* unit : {"hub", "gpc0", "gpc3"})
    EXPECT_EQ(stats_number(s[0], {"microcontrollers", unit, "cycles"}),
              stats_number(s[1], {"microcontrollers", unit, "cycles"}))
        << unit;
  EXPECT_EQ(stats_number(s[0], {"hub_ctxsw", "fw_cycles_total"}), stats_number(s[1], {"hub_ctxsw", "fw_cycles_total"}));
  EXPECT_NEAR(stats_number(s[0], {"hub_ctxsw", "pulse_to_ack_ns_mean"}),
              stats_number(s[1], {"hub_ctxsw", "pulse_to_ack_ns_mean"}), 1.0);
}

// gf100_own.yaml is gf100_nouveau.yaml but for the firmware key: the comparison runs on identical
// hardware (resolved configurations, so comments may differ, values may not).
TEST(FalconOwnFirmware, ConfigIsGf100NouveauButTheFirmware) {
  const std::string own = scratch() + "/own.yaml", nv = scratch() + "/nv.yaml";
  auto a = run_hetvp("run " + config("gf100_own.yaml") + " --workload boot --dump-config " + own, 60);
  auto b = run_hetvp("run " + config("gf100_nouveau.yaml") + " --workload boot --dump-config " + nv, 60);
  ASSERT_EQ(a.status, 0) << a.out << a.err;
  ASSERT_EQ(b.status, 0) << b.out << b.err;
  const std::string x = read_file(own), y = read_file(nv);
  ASSERT_FALSE(x.empty());
  EXPECT_NE(x.find("firmware: hetvp"), std::string::npos) << x;
  EXPECT_NE(y.find("firmware: nouveau"), std::string::npos) << y;
  EXPECT_EQ(without_firmware_key(x), without_firmware_key(y));
}
