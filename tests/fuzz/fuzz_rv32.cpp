// Fuzz harness: the RV32IMC decoder and executor (models/mcu/rv32). The input is the code image
// (random instruction words) of a sandboxed core: 4 KiB executable IMEM, 4 KiB DMEM and a small MMIO
// window on the BusIf; the first bytes pick the ISA, debug mode, interrupt lines and a breakpoint.
// The core runs a bounded number of cycles (also single steps). Memory outside the two vectors must
// never be touched (ASan), x0 stays 0, and nothing may throw.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "models/mcu/core_if.h"
#include "models/mcu/rv32/core.h"

using namespace hetvp::mcu;

namespace {
constexpr uint32_t kImem = 0x0, kImemSize = 0x1000, kDmem = 0x10000, kDmemSize = 0x1000;
constexpr uint32_t kMmio = 0x20000, kMmioSize = 0x100;

struct SandboxBus : BusIf {
  uint32_t regs[kMmioSize / 4] = {};
  CoreIf* core = nullptr;
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra) override {
    if (addr - kMmio >= kMmioSize || addr - kMmio + size > kMmioSize) return false;
    value = regs[(addr - kMmio) / 4] >> (8 * (addr & 3));
    if (size < 4) value &= (1u << (8 * size)) - 1;
    extra = addr & 7;
    return true;
  }
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra) override {
    if (addr - kMmio >= kMmioSize || addr - kMmio + size > kMmioSize) return false;
    if (size == 4) regs[(addr - kMmio) / 4] = value;
    if (addr == kMmio + 0xfc && core) core->halt("exit register written");  // like UC_EXIT
    if (addr == kMmio + 0xf8 && core) core->request_stop();
    extra = 1;
    return true;
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint8_t flags = data[0], irqs = data[1];
  const uint16_t bp = uint16_t(data[2] | data[3] << 8);
  data += 4;
  size -= 4;
  // The cores make_core("rv32imc") and make_core("rv32im") make, held as what they are (read_csr).
  static rv32::Rv32Core core_c;
  static rv32::Rv32Core& core_i = []() -> rv32::Rv32Core& {
    static rv32::Rv32Core c;
    c.set_compressed(false);
    return c;
  }();
  rv32::Rv32Core& rv = (flags & 1) ? core_i : core_c;
  CoreIf& core = rv;
  // Exactly-sized buffers: a stray access outside them is an ASan report.
  std::vector<uint8_t> imem(kImemSize), dmem(kDmemSize);
  std::memcpy(imem.data(), data, std::min<size_t>(size, kImemSize));
  if (size > kImemSize) std::memcpy(dmem.data(), data + kImemSize, std::min<size_t>(size - kImemSize, kDmemSize));
  SandboxBus bus;
  bus.core = &core;
  core.clear_regions();
  core.clear_breakpoints();
  core.add_region(MemRegion{kImem, kImemSize, imem.data(), (flags & 2) != 0, true});
  core.add_region(MemRegion{kDmem, kDmemSize, dmem.data(), true, (flags & 4) != 0});
  core.set_bus(&bus);
  core.dmi_control()->set_dmi((flags & 8) == 0);
  core.debug_control()->set_debug_mode((flags & 16) != 0);
  if (flags & 32) core.set_breakpoint(bp & 0xffe);
  core.reset((flags & 64) ? (bp & 0xffe) : 0);
  for (unsigned phase = 0; phase < 4; ++phase) {
    core.set_irq(IrqLine::software, irqs & (1u << phase));
    core.set_irq(IrqLine::timer, irqs & (2u << phase));
    core.set_irq(IrqLine::external, irqs & (4u << phase));
    RunResult r = (flags & 128) && phase == 0 ? core.step() : core.run(5000);
    if (core.read_gpr(0) != 0) std::abort();
    if (r.reason == RunResult::Reason::trapped_fatal || r.reason == RunResult::Reason::halted) break;
    if (r.reason == RunResult::Reason::breakpoint) core.write_pc(core.read_pc() + 2);
  }
  uint32_t v;
  for (uint32_t csr = 0x300; csr < 0x345; ++csr) rv.read_csr(csr, v);
  (void)core.last_trap();
  (void)core.instret();
  core.clear_regions();  // the buffers die with this call
  core.set_bus(nullptr);
  return 0;
}
