// GPU generations as configuration (issue #25): nouveau's own GF117/GK104/GK110 images on the chips
// gpu0.chip names, the GPC count read by the firmware, the bad inputs (a chip that does not exist, a
// GPC count the chip cannot have, an image for another chip), and Falcon images read from files.
#include "common/run_hetvp.h"
#include "nouveau_boot_expect.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gr/gf100_lists.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <regex>

using namespace hetvp::test;

namespace {
std::string boot(const std::string& cfg, const std::string& extra = "") {
  return "run " + config(cfg) + " --workload boot " + extra;
}
long context_size(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("context size ([0-9]+) bytes"))) return -1;
  return std::stol(m[1]);
}
#define NEED_FIRMWARE(chip)                                      \
  do {                                                           \
    const auto& fw = hetvp::mcu::falcon::nouveau_firmware(chip); \
    if (!fw.available) GTEST_SKIP() << fw.reason;                \
    const auto& gl = hetvp::gpu::gr::gr_lists(chip);             \
    if (!gl.available) GTEST_SKIP() << gl.reason;                \
  } while (0)

}  // namespace

// GK208's images are Falcon v5 (fuc5): the core runs them in v5 mode (UC_CAPS2 5, gpu_chips.h FUC).
// Every chip runs on its own nouveau lists (the pgraph block in each config): the expected sizes
// come from expected_context_size() above, as for GF100 (docs/falcon.md "Kepler's register lists").
TEST(FalconChips, KeplerAndGf117ImagesReachInitDoneOverTheirGpcRange) {
  struct Case {
    const char* chip;
    const char* cfg;
    unsigned max_gpcs;
    const char* banner;
    const char* pci_id;  // the board's, envytools docs/hw/pciid.rst (#42: every chip printed GF100's 10de:06c0)
  };
  for (const Case& c : {Case{"gk104", "gk104_nouveau.yaml", 4, "nouveau GK104 firmware", "gpu0: 10de:1180 "},
                        Case{"gk110", "gk110_nouveau.yaml", 5, "nouveau GK110 firmware", "gpu0: 10de:1005 "},
                        Case{"gf117", "gf117_nouveau.yaml", 1, "nouveau GF117 firmware", "gpu0: 10de:1140 "},
                        Case{"gk208", "gk208_nouveau.yaml", 1, "nouveau GK208 firmware", "gpu0: 10de:1282 "}}) {
    NEED_FIRMWARE(c.chip);
    // The config's own GPC count (the full chip), then every count down to 1.
    auto full = run_hetvp(boot(c.cfg), 120);
    ASSERT_EQ(full.status, 0) << full.out << full.err;
    EXPECT_NE(full.out.find(c.banner), std::string::npos) << full.out;
    EXPECT_NE(full.out.find(c.pci_id), std::string::npos) << full.out;
    EXPECT_EQ(context_size(full.out), expected_context_size(c.chip, c.max_gpcs)) << full.out;
    EXPECT_EQ(full.err.find("unmodelled"), std::string::npos) << full.err;
    for (unsigned g = 1; g < c.max_gpcs; ++g) {
      auto r = run_hetvp(boot(c.cfg, "--set gpu0.gpcs=" + std::to_string(g)), 120);
      ASSERT_EQ(r.status, 0) << c.chip << " gpcs " << g << r.out << r.err;
      EXPECT_EQ(context_size(r.out), expected_context_size(c.chip, g)) << r.out;
    }
  }
}

// As for GF100 (FalconBoot.InitDoneTimeAndStatsDoNotDependOnTheQuantum): the quantum trades speed, never
// results, also with GK110's moved registers and GK208's v5 core.
TEST(FalconChips, InitDoneDoesNotDependOnTheQuantum) {
  for (const char* chip : {"gk110", "gk208"}) {
    NEED_FIRMWARE(chip);
    std::string first;
    for (const char* q : {"100ns", "1us", "100us"}) {
      auto r = run_hetvp(boot(std::string(chip) + "_nouveau.yaml", std::string("--set simulation.quantum=") + q), 120);
      ASSERT_EQ(r.status, 0) << r.out << r.err;
      std::smatch m;
      ASSERT_TRUE(std::regex_search(r.out, m, std::regex("firmware: init-done at [^\n]*"))) << r.out;
      if (first.empty()) first = m[0];
      EXPECT_EQ(m[0], first) << chip << " quantum " << q;
    }
  }
}

TEST(FalconChips, UnknownChipAndImpossibleGpcCountAreLocatedConfigErrors) {
  auto a = run_hetvp(boot("gk104_nouveau.yaml", "--set gpu0.chip=gk999"));
  EXPECT_EQ(a.status, 2) << a.out << a.err;
  EXPECT_NE(a.err.find("gpu0.chip: 'gk999' is not one of: hetvp, gf100, gf117, gk104, gk110, gk208"),
            std::string::npos)
      << a.err;
  auto b = run_hetvp(boot("gk104_nouveau.yaml", "--set gpu0.gpcs=5"));
  EXPECT_EQ(b.status, 2) << b.out << b.err;
  EXPECT_NE(b.err.find("5 GPCs, but chip gk104 has 4 (legal: 1..4"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("gk104_nouveau.yaml:"), std::string::npos) << b.err;
  auto c = run_hetvp(boot("gk110_nouveau.yaml", "--set gpu0.microcontrollers.tpcs=4"));
  EXPECT_EQ(c.status, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("4 TPCs per GPC, but gk110 has 3"), std::string::npos) << c.err;
}

// GK110's HUB image on GF100 (hetvp's generic chip): its first trace_set writes CC_SCRATCH_SET(7) at 0x4098dc, which
// moved there only on GK110; GF100 has no register there, so the run stops naming it.
TEST(FalconChips, AnImageForAnotherChipStopsAtTheRegisterItsChipLacks) {
  NEED_FIRMWARE("gk110");
  const std::string dir = ::testing::TempDir();
  const auto& fw = hetvp::mcu::falcon::nouveau_firmware("gk110");
  const std::string path = dir + "/hetvp_gk110_hub.fuc3.h";
  {
    std::ofstream f(path);
    f << "static uint32_t gk110_grhub_data[] = {";
    for (size_t i = 0; i < fw.hub.data_words; ++i) f << (i ? ", " : "") << "0x" << std::hex << fw.hub.data[i];
    f << "};\nstatic uint32_t gk110_grhub_code[] = {";
    for (size_t i = 0; i < fw.hub.code_words; ++i) f << (i ? ", " : "") << "0x" << std::hex << fw.hub.code[i];
    f << "};\n";
  }
  auto r = run_hetvp(boot("gf100_nouveau.yaml", "--set workload.args.mcu.falcon_hub_image=" + path), 120);
  std::remove(path.c_str());
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("unmodelled register 0x4098dc (I/O 0x23700) written by gpu0.hub"), std::string::npos) << all;
  EXPECT_NE(all.find("written by gpu0.hub"), std::string::npos) << all;
  EXPECT_NE(all.find("the HUB Falcon stopped before init-done"), std::string::npos) << all;
}

// The same images from files boot like the built-in ones, and each bad file is a located error.
TEST(FalconChips, ImageFilesBootAndBadFilesAreLocatedErrors) {
  NEED_FIRMWARE("gk104");
  const std::string dir = ::testing::TempDir();
  const auto& fw = hetvp::mcu::falcon::nouveau_firmware("gk104");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  auto arrays = [](const hetvp::mcu::falcon::NouveauImage& im, const char* name) {
    std::string t = std::string("/* test image */\nstatic uint32_t ") + name + "_data[] = {\n";
    char b[16];
    for (size_t i = 0; i < im.data_words; ++i) {
      std::snprintf(b, sizeof b, "0x%08x,", im.data[i]);
      t += b;
    }
    t += "\n};\n// code\nstatic uint32_t " + std::string(name) + "_code[] = {\n";
    for (size_t i = 0; i < im.code_words; ++i) {
      std::snprintf(b, sizeof b, "0x%08x,", im.code[i]);
      t += b;
    }
    return t + "\n};\n";
  };
  const std::string hub = write("hetvp_hub.fuc3.h", arrays(fw.hub, "my_hub"));
  const std::string gpc = write("hetvp_gpc.fuc3.h", arrays(fw.gpc, "my_gpc"));
  auto ok = run_hetvp(boot("gk104_nouveau.yaml", "--set workload.args.mcu.falcon_hub_image=" + hub +
                                                     " --set workload.args.mcu.falcon_gpc_image=" + gpc),
                      120);
  ASSERT_EQ(ok.status, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("Falcon image files firmware: init-done"), std::string::npos) << ok.out;
  EXPECT_EQ(context_size(ok.out), expected_context_size("gk104", 4)) << ok.out;

  struct Bad {
    const char* name;
    std::string text;
    const char* message;
  };
  const Bad bad[] = {
      {"no_code.h", "static uint32_t x_data[] = { 1, 2 };\n", ":2: no <name>_code[] array in the file"},
      {"no_data.h", "static uint32_t x_code[] = { 1 };\n", ":2: no <name>_data[] array in the file"},
      {"bad_number.h", "static uint32_t x_data[] = {0};\nstatic uint32_t x_code[] = {\n 0x12, 0xzz };\n",
       ":3: '0xzz' in array x_code is not a number"},
      {"too_wide.h", "static uint32_t x_data[] = {0x100000000}; static uint32_t x_code[] = {1};",
       ":1: 0x100000000 in array x_data does not fit 32 bits"},
      {"unterminated.h", "static uint32_t x_data[] = {0};\nstatic uint32_t x_code[] = { 1, 2,",
       ":2: array x_code has no closing '}'"},
      {"twice.h", "static uint32_t a_code[] = {1};\nstatic uint32_t b_code[] = {2};",
       ":2: a second _code array ('b_code')"},
      {"other.h", "int main() { return 0; }", ":1: 'int': only uint32_t arrays"},
      {"empty_code.h", "static uint32_t x_data[] = {0}; static uint32_t x_code[] = {};", ":1: the _code array is empty"},
  };
  for (const Bad& b : bad) {
    const std::string p = write(b.name, b.text);
    auto r = run_hetvp(boot("gk104_nouveau.yaml", "--set workload.args.mcu.falcon_gpc_image=" + p));
    EXPECT_EQ(r.status, 2) << b.name << r.out << r.err;
    EXPECT_NE(r.err.find(p + b.message), std::string::npos) << b.name << ": " << r.err;
    EXPECT_NE(r.err.find("falcon_gpc_image"), std::string::npos) << r.err;
    std::remove(p.c_str());
  }
  // Not a regular file; and an image larger than the GPC's code segment (UC_CAPS 0x2800 bytes).
  auto d = run_hetvp(boot("gk104_nouveau.yaml", "--set workload.args.mcu.falcon_hub_image=" + dir));
  EXPECT_EQ(d.status, 2) << d.out << d.err;
  EXPECT_NE(d.err.find("falcon_hub_image"), std::string::npos) << d.err;
  std::string big = "static uint32_t x_data[] = {0};\nstatic uint32_t x_code[] = {";
  for (unsigned i = 0; i < 0x2800 / 4 + 1; ++i) big += "0,";
  const std::string bp = write("big.h", big + "};\n");
  auto e = run_hetvp(boot("gk104_nouveau.yaml", "--set workload.args.mcu.falcon_gpc_image=" + bp));
  EXPECT_EQ(e.status, 1) << e.out << e.err;
  EXPECT_NE((e.out + e.err).find("GPC image " + bp + " image (code 0x2804, data 0x4 bytes) does not fit"),
            std::string::npos)
      << e.out << e.err;
  std::remove(bp.c_str());
  std::remove(hub.c_str());
  std::remove(gpc.c_str());
}

// What each chip's boot prints: per pack its entries and words, the list words uploaded and their
// bytes (the ppc pack at D[8] too), the mmio words and the context size, all from the lists.
TEST(FalconChips, PrintTheirOwnListLengthsAndTheComputedSize) {
  namespace gr = hetvp::gpu::gr;
  for (const char* chip : {"gf117", "gk104", "gk110", "gk208"}) {
    NEED_FIRMWARE(chip);
    const auto& l = gr::gr_lists(chip);
    auto r = run_hetvp(boot(std::string(chip) + "_nouveau.yaml"), 120);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    std::string upper;
    for (const char* c = chip; *c; ++c) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
    auto uploaded = [&](const char* pack, uint32_t base) {
      const auto w = gr::csdata_words(l.pack(pack), base);
      return std::string(pack) + " " + std::to_string(l.pack(pack).entries()) + " entries/" +
             std::to_string(l.pack(pack).words()) + " words -> " + std::to_string(w.size()) + " list words (" +
             std::to_string(gr::mmctx_bytes(w)) + " bytes)";
    };
    const hetvp::GpuChip& c = *hetvp::find_gpu_chip(chip);
    for (const std::string& want : std::vector<std::string>{
             upper + " register lists (nouveau ctx" + chip + ".c, " + chip + ".c):", uploaded("hub", 0),
             uploaded("gpc_0", 0x418000), uploaded("gpc_1", 0x418000), uploaded("tpc", 0x419800),
             uploaded("ppc", 0x41be00),
             "mthd " + std::to_string(l.pack("mthd").entries()) + " entries/" + std::to_string(l.pack("mthd").words()),
             "mmio " + std::to_string(l.pack("mmio").words()) + " words written before the start",
             "context size " + std::to_string(expected_context_size(chip, c.gpcs)) + " bytes"})
      EXPECT_NE(r.out.find(want), std::string::npos) << chip << ": " << want << "\n" << r.out;
  }
}

// Without the pgraph block a Kepler chip's mmio list has nowhere to go: the boot fails at its first
// word (gk104_gr_pack_mmio's), naming the pack and what is missing, before any firmware is uploaded.
TEST(FalconChips, Gk104WithoutTheRegisterFileFailsAtTheFirstListWord) {
  NEED_FIRMWARE("gk104");
  expect_stop_at_first_mmio_word(run_hetvp(boot("gk104_nouveau.yaml", "--set gpu0.blocks=microcontrollers"), 120),
                                 "gk104", "(gk104_gr_pack_mmio; GK104's GR registers need the pgraph block");
}
