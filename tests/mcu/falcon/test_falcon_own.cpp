// hetvp's own C firmware on GF100's Falcon context controllers (issue #39, docs/firmware_falcon.md):
// configs/gf100_own.yaml (gf100_nouveau.yaml with gpu0.microcontrollers.firmware: hetvp) boots to the
// HUB's init-done with firmware/hub + firmware/gpc translated by firmware/falcon/rv2fuc.py; the same
// images boot gf100_nouveau.yaml through the image-file keys. The boot tests are skipped, with the
// reason, in a build without the RV32 cross compiler or python3; the missing-image error is tested in every build.
#include "common/run_hetvp.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace hetvp::test;

namespace {

std::string own_image(const char* name) { return binary_dir() + "/firmware/falcon/" + name + ".fuc3.h"; }

bool built() { return std::ifstream(own_image("hub")).good() && std::ifstream(own_image("gpc")).good(); }

#define SKIP_UNLESS_BUILT()                                                                                      \
  if (!built())                                                                                                  \
  GTEST_SKIP() << own_image("hub") << " was not built "                       \
               << "(firmware/falcon/CMakeLists.txt: needs riscv64-unknown-elf-gcc and python3)"

}  // namespace

TEST(FalconOwnFirmware, Gf100OwnBootsToInitDone) {
  SKIP_UNLESS_BUILT();
  auto r = run_hetvp("run " + config("gf100_own.yaml") + " --workload boot", 120);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("hetvp's own C firmware: init-done at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: PASS"), std::string::npos) << r.out;
}

TEST(FalconOwnFirmware, TheSameImagesBootGf100NouveauThroughTheImageKeys) {
  SKIP_UNLESS_BUILT();
  auto r = run_hetvp("run " + config("gf100_nouveau.yaml") +
                         " --workload boot --set workload.args.mcu.falcon_hub_image=" + own_image("hub") +
                         " --set workload.args.mcu.falcon_gpc_image=" + own_image("gpc"),
                     120);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Falcon image files firmware: init-done at"), std::string::npos) << r.out;
}

// Without the images (a firmware folder that has none): the boot names the file it looked for and why
// it may be missing, and nothing else fails.
TEST(FalconOwnFirmware, MissingImagesAreNamed) {
  const std::string empty = scratch() + "/no_firmware";
  ASSERT_EQ(mkdir(empty.c_str(), 0755), 0);
  setenv("HETVP_FIRMWARE_DIR", empty.c_str(), 1);  // platform/paths.h: the firmware folder
  auto r = run_hetvp("run " + config("gf100_own.yaml") + " --workload boot", 120);
  unsetenv("HETVP_FIRMWARE_DIR");
  EXPECT_NE(r.status, 0) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find(empty + "/falcon/hub.fuc3.h"), std::string::npos) << all;
  EXPECT_NE(all.find("gpu.microcontrollers.firmware is hetvp: its Falcon images are built from firmware/"),
            std::string::npos)
      << all;
  EXPECT_EQ(all.find("init-done"), std::string::npos) << all;
}
