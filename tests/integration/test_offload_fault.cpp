// A microcontroller that faults in the middle of an offloaded copy: the host gets an error at
// once (the trap raises the microcontroller's host interrupt), not after the copy timeout.
// In-process: a test-only host program drives the driver; run_platform builds the default system.
#include <gtest/gtest.h>

#include <sstream>

#include "common/run_hetvp.h"
#include "common/tlm_harness.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/offload.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {
class TrapMidCopy : public ProgramWithArgs<> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    GpuDriver drv(api);
    drv.open(0);
    boot_microcontrollers(api, drv);
    McuDriver mcu(api, drv);
    OffloadCopier copier(api, drv, mcu, test::config_from<DriverOptions>("copy_timeout: 50 ms"));
    const uint64_t size = 1 << 20;
    GpuBuffer host = drv.map_host(api.alloc_pinned(size, 4096), size);
    GpuBuffer dev = drv.alloc_vram(size);
    const McuId g = McuId::gpc_n(1);
    OffloadTicket t = copier.start(g, host.va, dev.va, size);
    api.sleep(sc_core::sc_time(30, sc_core::SC_US));  // the copy is under way (~1 ms in all)
    // Debug port: stop the core, point its pc at nothing, let it go: an instruction fault.
    mcu.write(g, MCU_UC_CTRL, MCU_CTRL_STOP);
    mcu.write(g, MCU_DBG_INDEX, 32);
    mcu.write(g, MCU_DBG_DATA, 0x00ff0000);
    mcu.write(g, MCU_UC_CTRL, MCU_CTRL_CONT);
    copier.wait({t});  // must throw
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("test_trap_mid_copy", TrapMidCopy, "test: a GPC traps during an offloaded copy");
}  // namespace

TEST(OffloadFault, TrapMidCopyIsReportedAtOnce) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = "test_trap_mid_copy";
  opt.quiet = true;
  opt.stats_path = test::scratch() + "/trap.json";
  std::ostringstream out, err;
  EXPECT_EQ(run_platform(opt, out, err), kExitSimFailure);
  EXPECT_NE(err.str().find("gpc1: offloaded copy of 1048576 bytes"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("the microcontroller stopped: trapped"), std::string::npos) << err.str();
  EXPECT_EQ(err.str().find("copy_timeout"), std::string::npos) << "reported by the trap, not the timeout";
  // Well before the 50 ms timeout.
  std::string stats = test::read_file(opt.stats_path);
  auto p = stats.find("\"simulated_ns\": ");
  ASSERT_NE(p, std::string::npos);
  EXPECT_LT(std::stod(stats.substr(p + 16)), 5e6) << "simulated ns";
}
