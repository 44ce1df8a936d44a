// hetvp tests — C programs built with hetvp_add_firmware, run on the ISS (standalone and MCU map).
#include "firmware/include/hetvp/mcu_map.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "models/mcu/rv32/core.h"
#include "models/mcu/rv32/standalone.h"
#include "platform/elf_image.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace hetvp::mcu;

namespace {
std::string elf_path(const std::string& name) {
  const char* dir = std::getenv("HETVP_BINARY_DIR");
  return std::string(dir ? dir : ".") + "/firmware/" + name + ".elf";
}
bool exists(const std::string& p) { return std::ifstream(p).good(); }
#define REQUIRE_ELF(name)                  \
  const std::string path = elf_path(name); \
  if (!exists(path)) GTEST_SKIP() << path << " not built (no RISC-V toolchain?)";
}  // namespace

TEST(Rv32Firmware, SelfcheckProgramPasses) {
  REQUIRE_ELF("rv32_selfcheck");
  std::ostringstream log;
  StandaloneStats st;
  const int rc = run_standalone_elf(path, StandaloneOptions{}, log, &st);
  EXPECT_EQ(rc, 0) << log.str();
  EXPECT_NE(log.str().find("selfcheck ok"), std::string::npos) << log.str();
  EXPECT_GT(st.instructions, 100000u);  // it really computed something
  EXPECT_GT(st.cycles, st.instructions);
}

TEST(Rv32Firmware, SelfcheckPassesWithDmiOffAndCostOverride) {
  REQUIRE_ELF("rv32_selfcheck");
  std::ostringstream l1, l2;
  StandaloneStats a, b;
  EXPECT_EQ(run_standalone_elf(path, StandaloneOptions{}, l1, &a), 0);
  StandaloneOptions o;
  o.dmi = false;
  o.cycle_costs = {{"div", 1}};
  EXPECT_EQ(run_standalone_elf(path, o, l2, &b), 0) << l2.str();
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_LT(b.cycles, a.cycles);  // div got cheaper
}

TEST(Rv32Firmware, ExitCodeComesThroughTohost) {
  REQUIRE_ELF("rv32_exit42");
  std::ostringstream log;
  EXPECT_EQ(run_standalone_elf(path, StandaloneOptions{}, log), 42) << log.str();
  EXPECT_NE(log.str().find("exit code 42"), std::string::npos);
}

TEST(Rv32Firmware, FatalTrapIsReported) {
  REQUIRE_ELF("rv32_trap_fatal");
  std::ostringstream log;
  EXPECT_EQ(run_standalone_elf(path, StandaloneOptions{}, log), kStandaloneFatal);
  EXPECT_NE(log.str().find("fatal trap: illegal instruction 0xffffffff at pc"), std::string::npos) << log.str();
}

TEST(Rv32Firmware, TimeoutIsDistinct) {
  REQUIRE_ELF("bench_loop");
  std::ostringstream log;
  StandaloneOptions o;
  o.max_instructions = 100000;
  StandaloneStats st;
  EXPECT_EQ(run_standalone_elf(path, o, log, &st), kStandaloneTimeout);
  EXPECT_NE(log.str().find("timeout"), std::string::npos) << log.str();
  EXPECT_EQ(st.instructions, 100000u);
}

TEST(Rv32Firmware, TraceListsInstructions) {
  REQUIRE_ELF("rv32_exit42");
  std::ostringstream log;
  StandaloneOptions o;
  o.trace = true;
  EXPECT_EQ(run_standalone_elf(path, o, log), 42);
  EXPECT_NE(log.str().find("00000000: "), std::string::npos) << log.str();  // _start
}

TEST(Rv32Firmware, BadInputsGiveLoadError) {
  std::ostringstream log;
  EXPECT_EQ(run_standalone_elf("/nonexistent.elf", StandaloneOptions{}, log), kStandaloneLoadError);
  EXPECT_NE(log.str().find("cannot open file"), std::string::npos);
}

// The GPC image has the layout the driver expects, and crt0's halt convention works on the MCU map.
TEST(Rv32Firmware, GpcImageLayoutAndHaltConvention) {
  REQUIRE_ELF("rv32_gpc_small");
  const hetvp::ElfImage img = hetvp::ElfImage::from_file(path);
  ASSERT_EQ(img.segments().size(), 2u);
  const auto& code = img.segments()[0];
  const auto& data = img.segments()[1];
  EXPECT_EQ(code.paddr, MCU_IMEM_BASE);
  EXPECT_TRUE(code.executable());
  EXPECT_LE(code.memsz, MCU_GPC_IMEM_SIZE);
  EXPECT_EQ(data.paddr, MCU_DMEM_BASE);
  EXPECT_FALSE(data.executable());
  EXPECT_EQ(img.symbol("tohost"), std::optional<uint32_t>(MCU_TOHOST_ADDR));
  EXPECT_EQ(img.symbol("__stack_top"), std::optional<uint32_t>(MCU_DMEM_BASE + MCU_GPC_DMEM_SIZE));

  std::vector<uint8_t> imem(MCU_GPC_IMEM_SIZE), dmem(MCU_GPC_DMEM_SIZE);
  std::copy(code.data.begin(), code.data.end(), imem.begin());
  std::copy(data.data.begin(), data.data.end(), dmem.begin());
  struct RegBus : BusIf {
    CoreIf* core = nullptr;
    int exit_writes = 0;
    uint32_t exit_value = 0xdead;
    bool read(uint32_t, uint32_t, uint32_t&, uint64_t&) override { return false; }
    bool write(uint32_t addr, uint32_t, uint32_t v, uint64_t&) override {
      if (addr != MCU_REG_BASE + MCU_UC_EXIT) return false;
      ++exit_writes;
      exit_value = v;
      core->halt("exit");
      return true;
    }
  } bus;
  rv32::Rv32Core core;
  bus.core = &core;
  core.add_region({MCU_IMEM_BASE, MCU_GPC_IMEM_SIZE, imem.data(), false, true});
  core.add_region({MCU_DMEM_BASE, MCU_GPC_DMEM_SIZE, dmem.data(), true, false});
  core.set_bus(&bus);
  core.reset(img.entry());
  const auto r = core.run(1000000);
  EXPECT_EQ(r.reason, RunResult::Reason::halted) << core.halt_reason();
  EXPECT_EQ(bus.exit_writes, 1);
  EXPECT_EQ(bus.exit_value, 0u);
  uint32_t tohost;
  std::memcpy(&tohost, dmem.data(), 4);
  EXPECT_EQ(tohost, 1u);                                           // (0 << 1) | 1
  EXPECT_EQ(core.read_gpr(2), MCU_DMEM_BASE + MCU_GPC_DMEM_SIZE);  // sp back at the top
}
