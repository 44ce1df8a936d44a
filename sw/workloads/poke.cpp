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

class MmioProgram : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->integer("address", std::nullopt, "host physical address").required().min(0);
    s->choice("op", {"read", "write"}, std::string("read"), "load or store");
    s->integer("value", 0, "value to store").min(0);
    s->choice("width", {"1", "2", "4", "8"}, std::string("4"), "access size in bytes");
    s->boolean("uncached", true, "uncached (MMIO) access");
    s->boolean("enumerate", false, "enumerate PCIe first (so BARs are assigned)");
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    if (a.boolean("enumerate")) GpuDriver(api).enumerate();
    const uint64_t addr = a.u64("address");
    const unsigned width = static_cast<unsigned>(std::stoul(a.string("width")));
    const Access acc = a.boolean("uncached") ? Access::Uncached : Access::Cached;
    uint64_t v = a.u64("value");
    char line[128];
    if (a.string("op") == "read") {
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

class DmaProgram : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->size("size", std::string("4 KiB"), "bytes to copy (0 shows the engine's refusal)");
    s->integer("src", -1, "raw source GPU virtual address (-1: the mapped host buffer)");
    s->integer("dst", -1, "raw destination GPU virtual address (-1: the VRAM buffer)");
    s->integer("engine", 0, "copy engine").range(0, 7);
    s->group("driver", DriverOptions::schema(), "driver options");
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    GpuDriver drv(api, DriverOptions::from(a.group("driver")));
    drv.open(0);
    const uint64_t size = a.size("size");
    const uint64_t buf = std::max<uint64_t>(size, 4096);
    GpuBuffer host = drv.map_host(api.alloc_pinned(buf, 4096), buf);
    GpuBuffer dev = drv.alloc_vram(buf);
    GpuBuffer src = host, dst = dev;
    if (a.integer("src") >= 0) src.va = a.u64("src");
    if (a.integer("dst") >= 0) dst.va = a.u64("dst");
    // Zero length goes to the hardware unchecked, to show what the engine says.
    const uint32_t base = drv.block_base(PTOP_COPY_BASE, "copy engines") + a.u32("engine") * GPU_COPY_STRIDE;
    if (size == 0) {
      drv.reg_write(base + COPY_LENGTH, 0);
      drv.reg_write(base + COPY_LAUNCH, COPY_LAUNCH_GO);
      api.sleep(sc_core::sc_time(10, sc_core::SC_US));
      uint32_t st = drv.reg_read(base + COPY_STATUS);
      std::string line = format("dma: zero-length copy: status 0x%x (error code %u)", st, COPY_STATUS_CODE(st));
      api.log(line);
      return (st & COPY_STATUS_ERROR) ? 1 : 0;
    }
    drv.wait_dma(drv.start_dma(a.u32("engine"), src, dst, size));
    std::string line = format("dma: %" PRIu64 " bytes 0x%" PRIx64 " -> 0x%" PRIx64 " done at %.3f us", size, src.va,
                              dst.va, api.now().to_seconds() * 1e6);
    api.log(line);
    return 0;
  }
};

// `offload`: one offloaded copy by a chosen microcontroller, host buffer -> VRAM buffer (or the
// other way), optionally between raw GPU addresses, to see what a bad request does.
class OffloadProgram : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->string("mcu", std::string("hub"), "hub, gpc0 .. gpcN, or gpc4 (four GPCs, a quarter each)");
    s->size("size", std::string("4 KiB"), "bytes to copy");
    s->choice("direction", {"htod", "dtoh"}, std::string("htod"), "host->device or device->host");
    s->integer("src", -1, "raw source GPU virtual address (-1: the buffer)");
    s->integer("dst", -1, "raw destination GPU virtual address (-1: the buffer)");
    s->size("map", std::string("0"), "bytes of the buffers mapped (0: size; less leaves the rest unmapped)");
    s->group("driver", DriverOptions::schema(), "driver options");
    s->group("mcu_boot", McuBootOptions::schema(), "firmware images");
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    const DriverOptions dopt = DriverOptions::from(a.group("driver"));
    GpuDriver drv(api, dopt);
    drv.open(0);
    boot_microcontrollers(api, drv, McuBootOptions::from(a.group("mcu_boot")));
    McuDriver mcu(api, drv);
    OffloadCopier copier(api, drv, mcu, dopt);
    const uint64_t size = a.size("size");
    const uint64_t mapped = a.size("map") ? a.size("map") : std::max<uint64_t>(size, 1);
    GpuBuffer host = drv.map_host(api.alloc_pinned(mapped, 4096), mapped);
    GpuBuffer dev = drv.alloc_vram(mapped);
    uint64_t src = a.string("direction") == "htod" ? host.va : dev.va;
    uint64_t dst = a.string("direction") == "htod" ? dev.va : host.va;
    if (a.integer("src") >= 0) src = a.u64("src");
    if (a.integer("dst") >= 0) dst = a.u64("dst");
    std::vector<McuId> who;
    if (a.string("mcu") == "gpc4") {
      if (drv.num_gpcs() < 4)
        throw HostError("offload: gpc4 needs four GPC microcontrollers; the GPU has " + std::to_string(drv.num_gpcs()));
      for (unsigned i = 0; i < 4; ++i) who.push_back(McuId::gpc_n(i));
    } else {
      who.push_back(McuId::parse(a.string("mcu"), drv.num_gpcs()));
    }
    const sc_core::sc_time t0 = api.now();
    copier.copy(who, src, dst, size);
    std::string line = format("offload: %s copied %" PRIu64 " bytes 0x%" PRIx64 " -> 0x%" PRIx64 " in %.3f us",
                              a.string("mcu").c_str(), size, src, dst, (api.now() - t0).to_seconds() * 1e6);
    api.log(line);
    return 0;
  }
};

HETVP_REGISTER_PROGRAM("mmio", MmioProgram, "one load or store at a host physical address (debugging)");
HETVP_REGISTER_PROGRAM("dma", DmaProgram, "one copy-engine copy, optionally between raw GPU addresses (debugging)");
HETVP_REGISTER_PROGRAM("offload", OffloadProgram,
                       "one microcontroller-offloaded copy, optionally between raw GPU addresses (debugging)");

}  // namespace hetvp::sw
