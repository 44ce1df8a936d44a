// The host commands of hetvp's firmware (docs/firmware.md "Command protocol") on the Falcon cores of
// configs/gf100_own.yaml (docs/firmware_falcon.md): a test program boots the GPU with hetvp's Falcon
// images and sends each command through McuDriver, checking the results. Skipped, with the reason, in a
// build without riscv64-unknown-elf-gcc or python3.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

// fw.c's CTX_FILL then CTX_HASH on a GPC image (FW_CTX_BYTES 256): xorshift words into the context area
// and the 8 context registers, FNV-1a over both. The RV32 image answers the same for the same seed.
uint32_t ctx_fill_hash(uint32_t seed) {
  uint32_t x = seed ? seed : 0x9e3779b9u, words[64 + 8];
  for (uint32_t& w : words) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = x;
  }
  uint32_t h = 2166136261u;
  for (uint32_t w : words)
    for (int k = 0; k < 4; ++k) h = (h ^ ((w >> (8 * k)) & 0xff)) * 16777619u;
  return h;
}

struct Checks {
  HostApi& api;
  int failed = 0;
  void expect(bool ok, const std::string& what) {
    api.log(std::string(ok ? "ok: " : "FAILED CHECK: ") + what);
    failed += !ok;
  }
};

class OwnFalconCommands : public ProgramWithArgs<> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    GpuDriver drv(api);
    drv.open(0);
    const FalconBootReport boot = boot_nouveau(api, drv, sc_core::sc_time(10, sc_core::SC_MS));
    api.log(boot.summary());
    McuDriver mcu(api, drv);
    Checks c{api};
    auto cmd = [&](const McuId& m, uint32_t n, uint32_t data, std::vector<uint32_t> args = {}) {
      const McuResult r = mcu.command(m, n, data, args);
      api.log(format("%s command %u data 0x%x -> result 0x%x error %u (%.3f us)", m.name().c_str(), n, data, r.result,
                     r.error, r.latency.to_seconds() * 1e6));
      return r;
    };
    McuResult r = cmd(McuId::hub(), FW_CMD_ECHO, 0x1234abcd);
    c.expect(r.error == FW_ERR_OK && r.result == 0x1234abcd, "HUB ECHO answers its data");
    r = cmd(McuId::gpc_n(2), FW_CMD_ECHO, 0x55aa);
    c.expect(r.error == FW_ERR_OK && r.result == 0x55aa, "GPC 2 ECHO answers its data");
    r = cmd(McuId::hub(), FW_CMD_INFO, 0);
    c.expect(r.result == drv.num_gpcs(), "HUB INFO: the GPC count");
    r = cmd(McuId::gpc_n(3), FW_CMD_INFO, 0);
    c.expect(r.result == 3, "GPC 3 INFO: its index");
    r = cmd(McuId::hub(), FW_CMD_REG_READ, GPU_PTOP_BASE + PTOP_NUM_GPCS);
    c.expect(r.error == FW_ERR_OK && r.result == drv.num_gpcs(), "HUB REG_READ of BAR0 (PTOP NUM_GPCS) through its bridge");
    // an argument (CC_SCRATCH[2] on the Falcon): the HUB writes a register of GPC 1's window
    const uint32_t scratch6 = mcu.base(McuId::gpc_n(1)) + 0x818;  // GPC 1's CC_SCRATCH[6]
    r = cmd(McuId::hub(), FW_CMD_REG_WRITE, scratch6, {0xfeed0001});
    c.expect(r.error == FW_ERR_OK && drv.reg_read(scratch6) == 0xfeed0001, "HUB REG_WRITE with its argument");
    r = cmd(McuId::hub(), FW_CMD_REG_READ, 3);
    c.expect(r.error == FW_ERR_BAD_ARG, "HUB REG_READ of an unaligned offset: bad argument");
    r = cmd(McuId::gpc_n(1), FW_CMD_CTX_FILL, 7);
    const uint32_t filled = r.result;
    r = cmd(McuId::gpc_n(1), FW_CMD_CTX_HASH, 0);
    c.expect(r.error == FW_ERR_OK && r.result == filled && filled == ctx_fill_hash(7),
             "GPC 1 CTX_HASH = CTX_FILL's hash = fw.c's algorithm on the host");
    // the firmware's clock is the platform's: the controller's HETVP_CLOCK_KHZ (the YAML clock)
    r = cmd(McuId::gpc_n(0), FW_CMD_REG_READ, MCU_UC_CLOCK_KHZ);
    api.log(format("GPC 0 firmware clock: %u kHz", r.result));
    c.expect(r.error == FW_ERR_OK && r.result == drv.reg_read(mcu.base(McuId::gpc_n(0)) + FCTX_HETVP_CLOCK_KHZ),
             "GPC 0's firmware reads its clock from the controller");
    // its cycle counter is its core's, the window's debug port (FCTX_DBG_CYCLES_LO): the firmware's
    // reading lies between two host readings of the port around the command
    const uint32_t gpc0 = mcu.base(McuId::gpc_n(0));
    const uint32_t before = drv.reg_read(gpc0 + FCTX_DBG_CYCLES_LO);
    r = cmd(McuId::gpc_n(0), FW_CMD_REG_READ, MCU_UC_CYCLES_LO);
    const uint32_t after = drv.reg_read(gpc0 + FCTX_DBG_CYCLES_LO);
    api.log(format("GPC 0 firmware cycles: host %u, firmware %u, host %u", before, r.result, after));
    c.expect(r.error == FW_ERR_OK && before < r.result && r.result < after,
             "GPC 0's firmware reads its cycles from the debug port, between the host's two readings");
    r = cmd(McuId::gpc_n(1), 0x70, 0);
    c.expect(r.error == FW_ERR_UNKNOWN_CMD, "an unknown command: error 1");
    return c.failed ? 1 : 0;
  }
};
HETVP_REGISTER_PROGRAM("test_falcon_own_commands", OwnFalconCommands, "test: hetvp's firmware commands on Falcon");

bool built() {
  return std::ifstream(test::binary_dir() + "/firmware/falcon/hub.fuc3.h").good() &&
         std::ifstream(test::binary_dir() + "/firmware/falcon/gpc.fuc3.h").good();
}

}  // namespace

std::string run_commands(const std::vector<std::string>& overrides) {
  RunOptions opt;
  opt.config = test::config("gf100_own.yaml");
  opt.workload = "test_falcon_own_commands";
  opt.overrides = overrides;
  std::ostringstream out, err;
  const int status = run_platform(opt, out, err);
  const std::string log = out.str() + err.str();
  EXPECT_EQ(status, kExitOk) << log;
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
  size_t oks = 0;
  for (size_t p = log.find("ok: "); p != std::string::npos; p = log.find("ok: ", p + 1)) ++oks;
  EXPECT_EQ(oks, 11u) << log;  // every check ran
  EXPECT_NE(log.find("hetvp's own C firmware: init-done"), std::string::npos) << log;
  return log;
}

TEST(FalconOwnFirmware, HostCommandsAnswer) {
  if (!built())
    GTEST_SKIP() << "firmware/falcon/hub.fuc3.h was not built "
                 << "(firmware/falcon/CMakeLists.txt: needs riscv64-unknown-elf-gcc and python3)";
  const std::string log = run_commands({});
  EXPECT_NE(log.find("GPC 0 firmware clock: 700000 kHz"), std::string::npos) << log;  // gf100_own.yaml's
  std::cout << log;  // the commands' results and latencies, for the record
}

// The clock is learnt from the platform, not built into the image: another YAML clock, the same image.
TEST(FalconOwnFirmware, FirmwareClockFollowsTheConfiguration) {
  if (!built())
    GTEST_SKIP() << "firmware/falcon/hub.fuc3.h was not built "
                 << "(firmware/falcon/CMakeLists.txt: needs riscv64-unknown-elf-gcc and python3)";
  const std::string log = run_commands({"gpu0.microcontrollers.gpc.clock=350 MHz"});
  EXPECT_NE(log.find("GPC 0 firmware clock: 350000 kHz"), std::string::npos) << log;
}
