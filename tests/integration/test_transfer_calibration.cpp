// The two transfer calibrations (docs/calibration.md):
//  - configs/gdev2012.yaml, the Gdev ATC'12 machine, must reproduce Gdev's MAGNITUDES: every
//    cell of the Gdev spreadsheet (4 B .. 16 KB; the issue asks for 4 B .. 4 KB) within ±20 %,
//    and both DMA/IORW crossovers at Gdev's sizes;
//  - configs/default.yaml, the Fujii 2014 machine, keeps the paper's SHAPES
//    (tests/integration/test_offload.cpp); here only what this issue added to it: the
//    direction-dependent completion term is 0 there, and command_per_block's effect.
// Reference: github.com/shinpei0208/atc12 eval/memcpy/memcpy.ods (commit cbf7fbb), sheet "dma",
// times in ms; column B = IORW, column C = DMA; rows 3..15 = H->D 4 B .. 16 KB, rows 24..36 = D->H.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
// (method, direction, size) -> ns
using Times = std::map<std::tuple<std::string, std::string, uint64_t>, double>;

Times run_csv(const std::string& cfg, const std::string& extra) {
  static int n = 0;
  const std::string csv = scratch() + "/cal" + std::to_string(n++) + ".csv";
  RunResult r = run_hetvp("run " + config(cfg) + " --quiet --csv " + csv + " " + extra);
  EXPECT_EQ(r.status, 0) << r.err;
  Times t;
  auto rows = read_csv(csv);
  for (size_t i = 1; i < rows.size(); ++i) t[{rows[i][0], rows[i][1], std::stoull(rows[i][2])}] = std::stod(rows[i][3]);
  return t;
}

// The configuration's own workload: DMA and IORW, both directions, 4 B .. 16 KB.
const Times& gdev_sweep() {
  static Times t = run_csv("gdev2012.yaml", "");
  return t;
}

struct GdevPoint {
  const char* method;  // CSV name
  const char* dir;
  uint64_t size;
  double ms;
  const char* cell;
};
// Sheet "dma", every cell: 4 B .. 16 KB, both methods, both directions. SPEC §6 quotes B3, B13, C3,
// C13, C15, B24, B34 and C24.
const GdevPoint kGdev[] = {
    {"IORW", "HtoD", 4, 0.007, "B3"},     {"IORW", "HtoD", 8, 0.007, "B4"},      {"IORW", "HtoD", 16, 0.007, "B5"},
    {"IORW", "HtoD", 32, 0.007, "B6"},    {"IORW", "HtoD", 64, 0.009, "B7"},     {"IORW", "HtoD", 128, 0.009, "B8"},
    {"IORW", "HtoD", 256, 0.009, "B9"},   {"IORW", "HtoD", 512, 0.011, "B10"},   {"IORW", "HtoD", 1024, 0.014, "B11"},
    {"IORW", "HtoD", 2048, 0.020, "B12"}, {"IORW", "HtoD", 4096, 0.032, "B13"},  {"DMA", "HtoD", 4, 0.033, "C3"},
    {"DMA", "HtoD", 8, 0.034, "C4"},      {"DMA", "HtoD", 16, 0.034, "C5"},      {"DMA", "HtoD", 32, 0.037, "C6"},
    {"DMA", "HtoD", 64, 0.033, "C7"},     {"DMA", "HtoD", 128, 0.034, "C8"},     {"DMA", "HtoD", 256, 0.035, "C9"},
    {"DMA", "HtoD", 512, 0.035, "C10"},   {"DMA", "HtoD", 1024, 0.036, "C11"},   {"DMA", "HtoD", 2048, 0.035, "C12"},
    {"DMA", "HtoD", 4096, 0.036, "C13"},  {"IORW", "DtoH", 4, 0.008, "B24"},     {"IORW", "DtoH", 8, 0.010, "B25"},
    {"IORW", "DtoH", 16, 0.013, "B26"},   {"IORW", "DtoH", 32, 0.018, "B27"},    {"IORW", "DtoH", 64, 0.031, "B28"},
    {"IORW", "DtoH", 128, 0.059, "B29"},  {"IORW", "DtoH", 256, 0.115, "B30"},   {"IORW", "DtoH", 512, 0.221, "B31"},
    {"IORW", "DtoH", 1024, 0.449, "B32"}, {"IORW", "DtoH", 2048, 0.891, "B33"},  {"IORW", "DtoH", 4096, 1.763, "B34"},
    {"DMA", "DtoH", 4, 0.299, "C24"},     {"DMA", "DtoH", 8, 0.300, "C25"},      {"DMA", "DtoH", 16, 0.319, "C26"},
    {"DMA", "DtoH", 32, 0.313, "C27"},    {"DMA", "DtoH", 64, 0.337, "C28"},     {"DMA", "DtoH", 128, 0.334, "C29"},
    {"DMA", "DtoH", 256, 0.327, "C30"},   {"DMA", "DtoH", 512, 0.332, "C31"},    {"DMA", "DtoH", 1024, 0.323, "C32"},
    {"DMA", "DtoH", 2048, 0.326, "C33"},  {"DMA", "DtoH", 4096, 0.320, "C34"},
    // 8 KB and 16 KB: IORW one byte per access (iorw_word_limit), DMA through the bounce buffer.
    {"IORW", "HtoD", 8192, 0.215, "B14"}, {"IORW", "HtoD", 16384, 0.392, "B15"}, {"DMA", "HtoD", 8192, 0.041, "C14"},
    {"DMA", "HtoD", 16384, 0.051, "C15"}, {"IORW", "DtoH", 8192, 14.014, "B35"}, {"IORW", "DtoH", 16384, 28.525, "B36"},
    {"DMA", "DtoH", 8192, 0.363, "C35"},  {"DMA", "DtoH", 16384, 0.389, "C36"},
};
}  // namespace

TEST(Gdev2012, EveryPointFrom4BTo16KbWithin20Percent) {
  const Times& t = gdev_sweep();
  for (const GdevPoint& p : kGdev) {
    auto it = t.find({p.method, p.dir, p.size});
    ASSERT_NE(it, t.end()) << p.method << " " << p.dir << " " << p.size;
    const double want_ns = p.ms * 1e6;
    EXPECT_NEAR(it->second / want_ns, 1.0, 0.20)
        << p.method << " " << p.dir << " " << p.size << " B: hetvp " << it->second / 1e3 << " us, Gdev (sheet dma!"
        << p.cell << ") " << want_ns / 1e3 << " us";
  }
}

TEST(Gdev2012, CrossoversAtGdevsSizes) {
  // ATC'12 §6: "the data transfer speed inverses around a data size of 4KB and 1KB for HtoD and
  // DtoH directions respectively" (sheet dma: B13 < C13 but B14 > C14; B31 < C31 but B32 > C32).
  const Times& t = gdev_sweep();
  auto iorw_wins = [&](const char* d, uint64_t s) { return t.at({"IORW", d, s}) < t.at({"DMA", d, s}); };
  for (uint64_t s = 4; s <= 4096; s *= 2) EXPECT_TRUE(iorw_wins("HtoD", s)) << "H->D IORW fastest at " << s;
  for (uint64_t s = 8192; s <= 16384; s *= 2) EXPECT_FALSE(iorw_wins("HtoD", s)) << "H->D DMA fastest at " << s;
  for (uint64_t s = 4; s <= 512; s *= 2) EXPECT_TRUE(iorw_wins("DtoH", s)) << "D->H IORW fastest at " << s;
  for (uint64_t s = 1024; s <= 16384; s *= 2) EXPECT_FALSE(iorw_wins("DtoH", s)) << "D->H DMA fastest at " << s;
}

TEST(Gdev2012, IorwAbove4KbMovesOneBytePerAccess) {
  // Sheet dma!B35/B36 and B14/B15 (asserted with every other cell above): above pscnv's 4 KB
  // 32-bit loop each byte costs what a 32-bit access cost below it: twice the bytes, eight times
  // the accesses.
  const Times& t = gdev_sweep();
  EXPECT_NEAR(t.at({"IORW", "DtoH", 8192}) / t.at({"IORW", "DtoH", 4096}), 8.0, 0.3);
  // Without the limit the 32-bit loop would go on: 8 KB D->H about twice 4 KB, not eight times.
  Times w = run_csv("gdev2012.yaml",
                    "--set workload.args.driver.iorw_word_limit=0 --set workload.args.methods=iorw "
                    "--set workload.args.directions=dtoh --set workload.args.min_size=4KiB "
                    "--set workload.args.max_size=8KiB");
  EXPECT_NEAR(w.at({"IORW", "DtoH", 8192}) / w.at({"IORW", "DtoH", 4096}), 2.0, 0.1);
}

TEST(Gdev2012, BounceCopyCostsCpuTimePerKibOnlyForDma) {
  const std::string args =
      "--set workload.args.methods=dma,iorw --set workload.args.min_size=16KiB --set workload.args.max_size=16KiB ";
  Times none = run_csv("gdev2012.yaml", args + "--set workload.args.driver.bounce_htod_per_kib=0s "
                                              "--set workload.args.driver.bounce_dtoh_per_kib=0s");
  Times with = run_csv("gdev2012.yaml", args);
  // 16 KiB x 1.25 us (H->D) and x 5.75 us (D->H); IORW has no bounce buffer.
  EXPECT_NEAR((with[{"DMA", "HtoD", 16384}]) - (none[{"DMA", "HtoD", 16384}]), 20e3, 10.0);
  EXPECT_NEAR((with[{"DMA", "DtoH", 16384}]) - (none[{"DMA", "DtoH", 16384}]), 92e3, 10.0);
  EXPECT_NEAR((with[{"IORW", "HtoD", 16384}]), (none[{"IORW", "HtoD", 16384}]), 1.0);
  RunResult r =
      run_hetvp("run " + config("gdev2012.yaml") + " --quiet --set workload.args.driver.bounce_dtoh_per_kib=-1us");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("workload.args.driver.bounce_dtoh_per_kib: expected a time (e.g. 250 ns): time '-1us' is negative"),
            std::string::npos)
      << r.err;
}

TEST(CopyEngine, ToHostCompletionDelaysOnlyCopiesIntoHostMemory) {
  const std::string args =
      "--set workload.args.methods=dma --set workload.args.max_size=4KiB --set workload.args.factor=1024 ";
  Times base = run_csv("default.yaml", args);
  Times slow = run_csv("default.yaml", args + "--set gpu0.copy_engine.to_host_completion=100us");
  for (uint64_t s : {4ull, 4096ull}) {
    // The default is 0: D->H and H->D DMA of one size cost about the same.
    EXPECT_NEAR((base[{"DMA", "DtoH", s}]) / (base[{"DMA", "HtoD", s}]), 1.0, 0.05) << s;
    EXPECT_NEAR((slow[{"DMA", "DtoH", s}]) - (base[{"DMA", "DtoH", s}]), 100e3, 1e3) << s;
    EXPECT_NEAR((slow[{"DMA", "HtoD", s}]), (base[{"DMA", "HtoD", s}]), 1.0) << s;
  }
}

TEST(CopyEngine, ToHostCompletionRejectsANonTime) {
  RunResult r = run_hetvp("run " + config("gdev2012.yaml") + " --quiet --set gpu0.copy_engine.to_host_completion=soon");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("gpu0.copy_engine.to_host_completion: expected a time (e.g. 250 ns): 'soon' is not a number"),
            std::string::npos)
      << r.err;
}

TEST(Offload, CommandPerBlockCostsOneCommandPerExtraBlock) {
  const std::string args =
      "--set workload.args.methods=hub,gpc4,hub+dma --set workload.args.directions=dtoh "
      "--set workload.args.min_size=256 --set workload.args.max_size=4KiB --set workload.args.factor=16 ";
  Times loop = run_csv("default.yaml", args);
  Times per = run_csv("default.yaml", args + "--set workload.args.offload.command_per_block=true");
  // One block: one command either way.
  EXPECT_NEAR((per[{"HUB", "DtoH", 256}]), (loop[{"HUB", "DtoH", 256}]), 1.0);
  // 16 blocks: 15 more commands, each a host round trip (method registers, MSI, PMC_INTR).
  const double extra = (per[{"HUB", "DtoH", 4096}]) - (loop[{"HUB", "DtoH", 4096}]);
  EXPECT_GT(extra, 15 * 3e3) << "at least ~3 us of host commanding per extra block";
  // GPC4: four blocks per round, 4 rounds instead of one command each.
  EXPECT_GT((per[{"GPC4", "DtoH", 4096}]), (loop[{"GPC4", "DtoH", 4096}]));
  // The host drives every block but the last, so the overlap with DMA is mostly lost.
  EXPECT_GT((per[{"HUB+DMA", "DtoH", 4096}]), (loop[{"HUB+DMA", "DtoH", 4096}]) + 0.5 * extra);
}

TEST(Offload, CommandPerBlockCopiesOddSizesByteForByte) {
  // The workload checks every byte and 16 guard bytes around each destination.
  for (const char* size : {"257", "4097"}) {
    RunResult r = run_hetvp("run " + config("default.yaml") +
                            " --quiet --set workload.args.offload.command_per_block=true"
                            " --set workload.args.methods=hub,gpc1,gpc4,hub+dma,gpc4+iorw --set workload.args.min_size=" +
                            size + " --set workload.args.max_size=" + size +
                            " --set workload.args.src_offset=3 --set workload.args.dst_offset=5");
    EXPECT_EQ(r.status, 0) << size << ": " << r.out << r.err;
  }
}

TEST(Offload, CommandPerBlockRejectsANonBoolean) {
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --quiet --set workload.args.offload.command_per_block=sometimes");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("workload.args.offload.command_per_block: expected a boolean: 'sometimes' is not a boolean"),
            std::string::npos)
      << r.err;
}

TEST(Gdev2012, IorwWordLimitRejectsANegativeSize) {
  RunResult r =
      run_hetvp("run " + config("gdev2012.yaml") + " --quiet --set workload.args.driver.iorw_word_limit=-4");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("workload.args.driver.iorw_word_limit: expected a size (e.g. 4 KiB): size '-4' is negative"),
            std::string::npos)
      << r.err;
}
