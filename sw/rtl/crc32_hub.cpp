// `mcu_rtl_crc32`: the example RTL block rtl.crc32 (rtl/examples/crc32) placed in the GPU's BAR0
// (gpu.bar0_ports, configs/rtl_block_gpu.yaml) and driven by the HUB firmware (FW_CMD_RTL_CRC32,
// firmware/lib/rtl_crc32.c, in the HUB image hub_rtl.elf). The host boots the microcontrollers,
// fills a VRAM buffer with seeded random bytes through a copy engine, and for each length asks the
// HUB for the buffer's CRC-32; the HUB finds the block in PTOP, programs it through BAR0, polls it
// and returns the CRC, which the block also wrote to VRAM. Both are checked against a software
// CRC-32. Then the host drives the same block itself through PCIe BAR0 (the same window, `host:
// true`), for comparison. A misaligned source must end in FW_ERR_DEVICE. CSV: driver, bytes,
// time_ns, crc, ok.
#include <cinttypes>
#include <vector>

#include "firmware/include/hetvp/crc32.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::rtl {
uint32_t crc32_update(uint32_t crc, const uint8_t* p, size_t n);  // rtl/examples/crc32/crc32_ref.cpp
}

namespace hetvp::sw {

namespace {
double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }

struct McuRtlCrc32Args : McuBootOptions {
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Size size{this, "size", "64 KiB", "length of the last (largest) job", Range{8, 64 << 20}};
  Bool host{this, "host", true,
            "also drive the block from the host through PCIe BAR0 (polling STATUS), for comparison"};
  Time timeout{this, "timeout", "100 ms", "give up on one command after this long"};
};

class McuRtlCrc32Program : public ProgramWithArgs<McuRtlCrc32Args> {
 public:
  int run(HostApi& api, const McuRtlCrc32Args& a) override {
    const uint64_t size = a.size;
    const sc_core::sc_time timeout = a.timeout;
    GpuDriver gpu(api, a.driver);
    gpu.open(0);
    McuDriver mcu(api, gpu);
    // The HUB image with FW_CMD_RTL_CRC32 (firmware/hub/CMakeLists.txt), unless one is given.
    api.log(mcu.boot(a, "hub_rtl.elf").summary());

    // The data: seeded random bytes, host -> VRAM by a copy engine (size + 8: room for the
    // misaligned job); the result word in another VRAM page.
    const GpuBuffer vbuf = gpu.alloc_vram(size + 8), vres = gpu.alloc_vram(4096);
    const uint64_t pinned = api.alloc_pinned(size + 8, 4096);
    const GpuBuffer hbuf = gpu.map_host(pinned, size + 8);
    std::vector<uint8_t>& data = data_;  // a member: a failed run never unwinds this thread
    data.resize(size + 8);
    for (auto& b : data) b = uint8_t(api.rng()());
    api.write(pinned, data.data(), data.size());
    gpu.copy(CopyMethod::Dma, Direction::HostToDevice, hbuf, vbuf, size + 8);

    api.results().set_columns({"driver", "bytes", "time_ns", "crc", "ok"});
    int failures = 0;
    const uint64_t lengths[] = {0, 1, 7, 100, 4093, size};
    for (uint64_t n : lengths) {
      if (n > size) continue;
      const uint32_t expect = rtl::crc32_update(0xFFFFFFFFu, data.data(), n) ^ 0xFFFFFFFFu;
      const uint32_t poison = ~expect;  // the block must overwrite it
      gpu.vram_poke(vres.phys, &poison, 4);
      const McuResult r = mcu.command(McuId::hub(), FW_CMD_RTL_CRC32, uint32_t(n),
                                      {uint32_t(vbuf.va), uint32_t(vres.va), FW_COPY_ARG2(vbuf.va, vres.va)}, timeout);
      if (r.error == FW_ERR_NO_DEVICE) {  // PTOP lists no window holding a crc32 block
        api.log("mcu_rtl_crc32: the HUB found no crc32 block in the GPU's BAR0 (FW_ERR_NO_DEVICE; place one with "
                "gpu.bar0_ports, configs/rtl_block_gpu.yaml)");
        return 1;
      }
      if (r.error == FW_ERR_UNKNOWN_CMD) {
        api.log("mcu_rtl_crc32: the HUB image does not know FW_CMD_RTL_CRC32 (FW_ERR_UNKNOWN_CMD; it is in hub_rtl.elf)");
        return 1;
      }
      uint32_t in_vram = 0;
      gpu.vram_peek(vres.phys, &in_vram, 4);
      const bool ok = r.error == FW_ERR_OK && r.result == expect && in_vram == expect;
      failures += !ok;
      api.log(format("mcu_rtl_crc32: HUB, %" PRIu64 " bytes: error %u, CRC 0x%08x, VRAM 0x%08x, expected 0x%08x, "
                     "%.3f us%s",
                     n, r.error, r.result, in_vram, expect, us(r.latency), ok ? "" : "  MISMATCH"));
      record(api, "hub", n, r.latency, r.result, ok);
    }
    // A misaligned source: the block answers DONE|ERROR, the firmware FW_ERR_DEVICE with that status.
    const uint64_t odd = vbuf.va + 1;
    const McuResult bad = mcu.command(McuId::hub(), FW_CMD_RTL_CRC32, 16,
                                      {uint32_t(odd), uint32_t(vres.va), FW_COPY_ARG2(odd, vres.va)}, timeout);
    const bool bad_ok = bad.error == FW_ERR_DEVICE && bad.result == (CRC_STATUS_DONE | CRC_STATUS_ERROR);
    failures += !bad_ok;
    api.log(format("mcu_rtl_crc32: HUB, misaligned source: error %u, status 0x%x%s", bad.error, bad.result,
                   bad_ok ? " (FW_ERR_DEVICE, as expected)" : "  MISMATCH"));

    if (a.host) failures += host_job(api, gpu, vbuf.va, size, vres, timeout);
    api.stat("failures", failures);
    return failures ? 1 : 0;
  }

 private:
  void record(HostApi& api, const char* who, uint64_t n, const sc_core::sc_time& t, uint32_t crc, bool ok) {
    api.results().add_row({who, std::to_string(n), format("%.1f", t.to_seconds() * 1e9), hex(crc, 8), ok ? "1" : "0"});
    api.stat(format("%s_crc_%" PRIu64, who, n), crc);
    api.stat(format("%s_us_%" PRIu64, who, n), us(t));
  }

  // The same block from the host, through the GPU's PCIe BAR0: the window PTOP reports.
  int host_job(HostApi& api, GpuDriver& gpu, uint64_t src, uint64_t n, const GpuBuffer& vres,
               const sc_core::sc_time& timeout) {
    uint32_t blk = 0;
    const uint32_t count = gpu.reg_read(GPU_PTOP_BASE + PTOP_EXT_COUNT);
    for (uint32_t i = 0; i < count && i < PTOP_EXT_MAX && !blk; ++i) {
      const uint32_t base = gpu.reg_read(GPU_PTOP_BASE + PTOP_EXT_BASE_N(i));
      if (gpu.reg_read(base + CRC_ID) == CRC_ID_VALUE) blk = base;
    }
    if (!blk) {
      api.log("mcu_rtl_crc32: the host finds no crc32 block in PTOP's external windows");
      return 1;
    }
    const uint32_t expect = rtl::crc32_update(0xFFFFFFFFu, data_.data(), n) ^ 0xFFFFFFFFu;
    const sc_core::sc_time t0 = api.now();
    gpu.reg_write(blk + CRC_SRC_LO, uint32_t(src));
    gpu.reg_write(blk + CRC_SRC_HI, uint32_t(src >> 32));
    gpu.reg_write(blk + CRC_LENGTH, uint32_t(n));
    gpu.reg_write(blk + CRC_DST_LO, uint32_t(vres.va));
    gpu.reg_write(blk + CRC_DST_HI, uint32_t(vres.va >> 32));
    gpu.reg_write(blk + CRC_CTRL, CRC_CTRL_GO);
    const uint64_t status = gpu.function().bar[0] + blk + CRC_STATUS;
    if (!api.poll32(status, CRC_STATUS_DONE, CRC_STATUS_DONE, sc_core::sc_time(1, sc_core::SC_US), timeout,
                    Access::Uncached))
      throw std::runtime_error(format("mcu_rtl_crc32: no completion of the host's %" PRIu64 "-byte job", n));
    const uint32_t crc = gpu.reg_read(blk + CRC_RESULT);
    const sc_core::sc_time t = api.now() - t0;
    gpu.reg_write(blk + CRC_CTRL, CRC_CTRL_ACK);
    const bool ok = crc == expect;
    api.log(format("mcu_rtl_crc32: host through PCIe BAR0 0x%x, %" PRIu64 " bytes: CRC 0x%08x, expected 0x%08x, %.3f us%s",
                   blk, n, crc, expect, us(t), ok ? "" : "  MISMATCH"));
    record(api, "host", n, t, crc, ok);
    return ok ? 0 : 1;
  }

  std::vector<uint8_t> data_;
};

}  // namespace

HETVP_REGISTER_PROGRAM("mcu_rtl_crc32", McuRtlCrc32Program,
                       "the HUB firmware drives the example RTL block rtl.crc32 in the GPU's BAR0 (docs/rtl_blocks.md)");

}  // namespace hetvp::sw
