// `mmio` and `dma`: single raw operations for debugging a topology (and for the tests that
// show what a bad address or a bad copy request does).
//   mmio: one load or store of `width` bytes at a host physical address, cached or not.
//   dma:  open the GPU, map a pinned host buffer and a VRAM buffer, then run one copy-engine
//         copy between two GPU virtual addresses (default: host buffer -> VRAM buffer);
//         `src`/`dst` override the addresses with raw ones, to see a fault.
#include <cinttypes>

#include "models/host/host_api.h"
#include "models/gpu/gpu_regs.h"
#include "platform/program.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/offload.h"
#include "sw/driver/mcu_driver.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {

HETVP_ENUM(MmioOp, read, write);
HETVP_ENUM(CopyDirection, htod, dtoh);
// The access sizes, named by their bytes (words HETVP_ENUM cannot declare).
enum class MmioWidth { w1, w2, w4, w8 };
inline const std::vector<std::string>& enum_names(MmioWidth) {
  static const std::vector<std::string> names{"1", "2", "4", "8"};
  return names;
}

struct MmioArgs : ParamSet {
  Int<uint64_t> address{this, "address", 0, "host physical address", Required{}, Min{0}};
  Enum<MmioOp> op{this, "op", MmioOp::read, "load or store"};
  Int<uint64_t> value{this, "value", 0, "value to store", Min{0}};
  Enum<MmioWidth> width{this, "width", MmioWidth::w4, "access size in bytes"};
  Bool uncached{this, "uncached", true, "uncached (MMIO) access"};
  Bool enumerate{this, "enumerate", false, "enumerate PCIe first (so BARs are assigned)"};
};

class MmioProgram : public ProgramWithArgs<MmioArgs> {
 public:
  int run(HostApi& api, const MmioArgs& a) override {
    if (a.enumerate) GpuDriver(api).enumerate();
    const uint64_t addr = a.address;
    const unsigned width = 1u << static_cast<unsigned>(a.width());
    const Access acc = a.uncached ? Access::Uncached : Access::Cached;
    uint64_t v = a.value;
    char line[128];
    if (a.op == MmioOp::read) {
      v = 0;
      api.read(addr, &v, width, acc);
      snprintf(line, sizeof line, "mmio: read%u 0x%" PRIx64 " = 0x%" PRIx64, width * 8, addr, v);
    } else {
      api.write(addr, &v, width, acc);
      snprintf(line, sizeof line, "mmio: write%u 0x%" PRIx64 " <- 0x%" PRIx64, width * 8, addr, v);
    }
    api.log(line);
    return 0;
  }
};

struct DmaArgs : ParamSet {
  Size size{this, "size", "4 KiB", "bytes to copy (0 shows the engine's refusal)"};
  Int<int64_t> src{this, "src", -1, "raw source GPU virtual address (-1: the mapped host buffer)"};
  Int<int64_t> dst{this, "dst", -1, "raw destination GPU virtual address (-1: the VRAM buffer)"};
  Int<unsigned> engine{this, "engine", 0, "copy engine", Range{0, 7}};
  Group<DriverOptions> driver{this, "driver", "driver options"};
};

class DmaProgram : public ProgramWithArgs<DmaArgs> {
 public:
  int run(HostApi& api, const DmaArgs& a) override {
    GpuDriver drv(api, a.driver);
    drv.open(0);
    const uint64_t size = a.size;
    const uint64_t buf = std::max<uint64_t>(size, 4096);
    GpuBuffer host = drv.map_host(api.alloc_pinned(buf, 4096), buf);
    GpuBuffer dev = drv.alloc_vram(buf);
    GpuBuffer src = host, dst = dev;
    if (a.src >= 0) src.va = uint64_t(a.src);
    if (a.dst >= 0) dst.va = uint64_t(a.dst);
    // Zero length goes to the hardware unchecked, to show what the engine says.
    const uint32_t base = drv.block_base(PTOP_COPY_BASE, "copy engines") + a.engine * GPU_COPY_STRIDE;
    if (size == 0) {
      drv.reg_write(base + COPY_LENGTH, 0);
      drv.reg_write(base + COPY_LAUNCH, COPY_LAUNCH_GO);
      api.sleep(sc_core::sc_time(10, sc_core::SC_US));
      uint32_t st = drv.reg_read(base + COPY_STATUS);
      std::string line = format("dma: zero-length copy: status 0x%x (error code %u)", st, COPY_STATUS_CODE(st));
      api.log(line);
      return (st & COPY_STATUS_ERROR) ? 1 : 0;
    }
    drv.wait_dma(drv.start_dma(a.engine, src, dst, size));
    std::string line = format("dma: %" PRIu64 " bytes 0x%" PRIx64 " -> 0x%" PRIx64 " done at %.3f us", size, src.va,
                              dst.va, api.now().to_seconds() * 1e6);
    api.log(line);
    return 0;
  }
};

// `offload`: one offloaded copy by a chosen microcontroller, host buffer -> VRAM buffer (or the
// other way), optionally between raw GPU addresses, to see what a bad request does.
struct OffloadArgs : ParamSet {
  Str mcu{this, "mcu", "hub", "hub, gpc0 .. gpcN, or gpc4 (four GPCs, a quarter each)"};
  Size size{this, "size", "4 KiB", "bytes to copy"};
  Enum<CopyDirection> direction{this, "direction", CopyDirection::htod, "host->device or device->host"};
  Int<int64_t> src{this, "src", -1, "raw source GPU virtual address (-1: the buffer)"};
  Int<int64_t> dst{this, "dst", -1, "raw destination GPU virtual address (-1: the buffer)"};
  Size map{this, "map", "0", "bytes of the buffers mapped (0: size; less leaves the rest unmapped)"};
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Group<McuBootOptions> mcu_boot{this, "mcu_boot", "firmware images"};
  void validate(Diagnostics& d) const override { mcu_boot.validate(d); }
};

class OffloadProgram : public ProgramWithArgs<OffloadArgs> {
 public:
  int run(HostApi& api, const OffloadArgs& a) override {
    GpuDriver drv(api, a.driver);
    drv.open(0);
    boot_microcontrollers(api, drv, a.mcu_boot);
    McuDriver mcu(api, drv);
    OffloadCopier copier(api, drv, mcu, a.driver);
    const uint64_t size = a.size;
    const uint64_t mapped = a.map ? a.map() : std::max<uint64_t>(size, 1);
    GpuBuffer host = drv.map_host(api.alloc_pinned(mapped, 4096), mapped);
    GpuBuffer dev = drv.alloc_vram(mapped);
    const bool htod = a.direction == CopyDirection::htod;
    uint64_t src = htod ? host.va : dev.va;
    uint64_t dst = htod ? dev.va : host.va;
    if (a.src >= 0) src = uint64_t(a.src);
    if (a.dst >= 0) dst = uint64_t(a.dst);
    std::vector<McuId> who;
    if (a.mcu() == "gpc4") {
      if (drv.num_gpcs() < 4)
        throw HostError("offload: gpc4 needs four GPC microcontrollers; the GPU has " + std::to_string(drv.num_gpcs()));
      for (unsigned i = 0; i < 4; ++i) who.push_back(McuId::gpc_n(i));
    } else {
      who.push_back(McuId::parse(a.mcu, drv.num_gpcs()));
    }
    const sc_core::sc_time t0 = api.now();
    copier.copy(who, src, dst, size);
    std::string line = format("offload: %s copied %" PRIu64 " bytes 0x%" PRIx64 " -> 0x%" PRIx64 " in %.3f us",
                              a.mcu.c_str(), size, src, dst, (api.now() - t0).to_seconds() * 1e6);
    api.log(line);
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("mmio", MmioProgram, "one load or store at a host physical address (debugging)");
HETVP_REGISTER_PROGRAM("dma", DmaProgram, "one copy-engine copy, optionally between raw GPU addresses (debugging)");
HETVP_REGISTER_PROGRAM("offload", OffloadProgram,
                       "one microcontroller-offloaded copy, optionally between raw GPU addresses (debugging)");

}  // namespace hetvp::sw
