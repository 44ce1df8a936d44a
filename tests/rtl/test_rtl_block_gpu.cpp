// The example RTL block rtl.crc32 in the GPU's BAR0 (gpu.bar0_ports, configs/rtl_block_gpu.yaml),
// driven by the HUB firmware (FW_CMD_RTL_CRC32) and by the host through PCIe BAR0: the platform
// boots and the CRCs match the host's in rtl, tlm and lockstep modes; bad windows are located
// config errors; the command on a GPU without the block is a clear error, not a hang.
#include <gtest/gtest.h>

#include <sstream>

#include "common/run_hetvp.h"

namespace {

using hetvp::test::config;
using hetvp::test::read_file;
using hetvp::test::run_hetvp;
using hetvp::test::scratch;
using hetvp::test::write_file;

const std::string kWindow = "- {name: crc, base: 0x800000, size: 0x100}";

// configs/rtl_block_gpu.yaml with `from` replaced by `to` (each must occur once).
std::string variant(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string y = read_file(config("rtl_block_gpu.yaml"));
  for (auto& [from, to] : edits) {
    const size_t p = y.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    if (p != std::string::npos) y.replace(p, from.size(), to);
  }
  return write_file(name, y);
}

class HubCrc : public ::testing::TestWithParam<std::string> {};

TEST_P(HubCrc, HubAndHostGetTheHostsCrcFromVram) {
  const std::string mode = GetParam();
  const std::string csv = scratch() + "/hub_crc_" + mode + ".csv", stats = scratch() + "/hub_crc_" + mode + ".json";
  auto r = run_hetvp("run " + config("rtl_block_gpu.yaml") + " --set crc0.mode=" + mode + " --csv " + csv +
                         " --stats " + stats,
                     300);
  ASSERT_EQ(r.status, 0) << mode << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("HUB, 65536 bytes: error 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("HUB, 4093 bytes: error 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("misaligned source: error 7, status 0x6 (FW_ERR_DEVICE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host through PCIe BAR0 0x800000, 65536 bytes"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
  const std::string c = read_file(csv);
  EXPECT_EQ(c.rfind("driver,bytes,time_ns,crc,ok\n", 0), 0u) << c;
  EXPECT_NE(c.find("hub,65536,"), std::string::npos) << c;
  EXPECT_NE(c.find("host,65536,"), std::string::npos) << c;
  EXPECT_EQ(c.find(",0\n"), std::string::npos) << c;  // every row ok
  const std::string s = read_file(stats);
  EXPECT_NE(s.find("\"hub_crc_65536\""), std::string::npos);
  EXPECT_NE(s.find("\"mem_reads\""), std::string::npos);  // the block's bus master did read
}

// The three modes give the same CRCs, the same simulated times and the same lines.
TEST(HubCrcModes, SameResultsInAllModes) {
  std::string out[3];
  const char* modes[3] = {"rtl", "tlm", "lockstep"};
  for (int i = 0; i < 3; ++i) {
    auto r = run_hetvp("run " + config("rtl_block_gpu.yaml") + " --set crc0.mode=" + modes[i] +
                           " --set workload.args.size=4096",
                       300);
    ASSERT_EQ(r.status, 0) << modes[i] << "\n" << r.out << r.err;
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);)
      if (l.rfind("  mcu_rtl_crc32:", 0) == 0) out[i] += l + "\n";
  }
  EXPECT_FALSE(out[0].empty());
  EXPECT_EQ(out[0], out[1]);
  EXPECT_EQ(out[0], out[2]);
}

INSTANTIATE_TEST_SUITE_P(Modes, HubCrc, ::testing::Values("rtl", "tlm", "lockstep"));

TEST(HubCrcErrors, WindowOutsideBar0IsLocated) {
  auto y = variant("outside.yaml", {{kWindow, "- {name: crc, base: 0xffff00, size: 0x200}"}});
  auto r = run_hetvp("check " + y);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("outside.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bar0_ports 'crc'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("lies outside BAR0"), std::string::npos) << r.err;
}

TEST(HubCrcErrors, WindowOverlappingAGpuBlockNamesBoth) {
  auto y = variant("overlap.yaml", {{kWindow, "- {name: crc, base: 0x409080, size: 0x100}"}});
  auto r = run_hetvp("check " + y);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bar0_ports 'crc'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("overlaps [0x409000, 0x40a000)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hub"), std::string::npos) << r.err;
}

TEST(HubCrcErrors, TwoWindowsOverlapping) {
  auto y = variant("two.yaml", {{kWindow, kWindow + "\n    - {name: crc2, base: 0x800080, size: 0x100}"},
                                {"crc: crc0.regs}", "crc: crc0.regs, crc2: crc0.regs}"}});
  auto r = run_hetvp("check " + y);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bar0_ports 'crc2'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("overlaps [0x800000, 0x800100)"), std::string::npos) << r.err;
}

TEST(HubCrcErrors, UnconnectedPortIsLocated) {
  auto y = variant("unconnected.yaml", {{", crc: crc0.regs}", "}"}});
  auto r = run_hetvp("check " + y);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("gpu0: required port 'crc' is not connected"), std::string::npos) << r.err;
}

TEST(HubCrcErrors, BadNamesAndShapes) {
  struct Case {
    std::string window, connect, message;
  } cases[] = {
      {"- {name: pcie, base: 0x800000, size: 0x100}", "pcie: crc0.regs", "'pcie' is a port of the gpu itself"},
      {"- {name: crc.x, base: 0x800000, size: 0x100}", "crc: crc0.regs", "port name 'crc.x' must be letters"},
      {"- {name: crc, base: 0x800002, size: 0x100}", "crc: crc0.regs", "must be 4-byte aligned"},
      {kWindow + "\n    - {name: crc, base: 0x900000, size: 0x100}", "crc: crc0.regs", "port 'crc' named twice"},
      {"- {base: 0x800000, size: 0x100}", "crc: crc0.regs", "name"},
  };
  int i = 0;
  for (auto& c : cases) {
    auto y = variant("bad" + std::to_string(i++) + ".yaml", {{kWindow, c.window}, {"crc: crc0.regs", c.connect}});
    auto r = run_hetvp("check " + y);
    EXPECT_EQ(r.status, 2) << c.window << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.window << "\n" << r.err;
    EXPECT_NE(r.err.find(".yaml:"), std::string::npos) << r.err;  // located
  }
}

TEST(HubCrcErrors, FiveWindowsAreTooMany) {
  std::string w = kWindow, conn = "crc: crc0.regs";
  for (int i = 1; i < 5; ++i) {
    w += "\n    - {name: crc" + std::to_string(i) + ", base: 0x" + std::to_string(8 + i) + "00000, size: 0x100}";
    conn += ", crc" + std::to_string(i) + ": crc0.regs";
  }
  auto y = variant("five.yaml", {{kWindow, w}, {"crc: crc0.regs", conn}});
  auto r = run_hetvp("check " + y);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("5 bar0_ports, PTOP describes at most 4"), std::string::npos) << r.err;
}

// A GPU without the block: the firmware answers FW_ERR_NO_DEVICE at once (no trap, no hang).
TEST(HubCrcErrors, CommandOnAGpuWithoutTheBlock) {
  std::string y = read_file(config("rtl_block_gpu.yaml"));
  y = y.substr(0, y.find("\ncrc0:"));  // no crc0 instance,
  const size_t w = y.find("  bar0_ports:");  // no window,
  y.erase(w, y.find('\n', y.find(kWindow)) + 1 - w);
  y.replace(y.find(", crc: crc0.regs}"), 17, "}");  // no port
  y = write_file("noblock.yaml", y);
  auto r = run_hetvp("run " + y, 120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the HUB found no crc32 block in the GPU's BAR0 (FW_ERR_NO_DEVICE"), std::string::npos)
      << r.out << r.err;
}

// hub.elf (without the command) answers FW_ERR_UNKNOWN_CMD: the workload says which image has it.
TEST(HubCrcErrors, PlainHubImageDoesNotKnowTheCommand) {
  auto r = run_hetvp("run " + config("rtl_block_gpu.yaml") + " --set workload.args.hub_firmware=" +
                         hetvp::test::binary_dir() + "/firmware/hub.elf",
                     120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the HUB image does not know FW_CMD_RTL_CRC32 (FW_ERR_UNKNOWN_CMD; it is in hub_rtl.elf)"),
            std::string::npos)
      << r.out << r.err;
}

}  // namespace
