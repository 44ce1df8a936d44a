// `rtl_crc32`: the host program of the example RTL block rtl.crc32 (rtl/examples/crc32,
// docs/rtl_blocks.md). It fills a pinned buffer with seeded random bytes, then runs one job per
// length (the lengths below, the last one `size`): programs SRC, LENGTH, DST, writes CTRL.GO,
// waits for the block's interrupt (or polls STATUS), reads STATUS and RESULT and the result the
// block wrote to memory, acknowledges, and checks both against a software CRC-32. A last job
// with a misaligned source must end in STATUS.ERROR without touching memory.
#include <cinttypes>
#include <vector>

#include "firmware/include/hetvp/crc32.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"

namespace hetvp::rtl {
uint32_t crc32_update(uint32_t crc, const uint8_t* p, size_t n);  // rtl/examples/crc32/crc32_ref.cpp
}

namespace hetvp::sw {

namespace {

HETVP_ENUM(CrcWait, irq, poll);

struct RtlCrc32Args : ParamSet {
  Int<uint64_t> base{this, "base", 0x40100000, "host physical address of the block's registers (its `regs` window)",
                     Min{0}};
  Int<unsigned> vector{this, "vector", 40, "interrupt vector the block raises (its irq_vector)", Range{0, 1023}};
  Size size{this, "size", "64 KiB", "length of the last (largest) job", Range{8, 64 << 20}};
  Enum<CrcWait> wait{this, "wait", CrcWait::irq, "wait for the interrupt, or poll STATUS every 1 us"};
  Time timeout{this, "timeout", "100 ms", "give up waiting for a job after this long"};
  Int<int64_t> reads{this, "reads", 0, "benchmark: register reads (ID) before the jobs (bridge cost per transaction)",
                     Min{0}};
  Time idle{this, "idle", "0 s", "benchmark: the CPU sleeps this long at the end, the block idle"};
};

class RtlCrc32Program : public ProgramWithArgs<RtlCrc32Args> {
 public:
  int run(HostApi& api, const RtlCrc32Args& a) override {
    const uint64_t base = a.base;
    const unsigned vec = a.vector;
    const uint64_t size = a.size;
    const bool poll = a.wait == CrcWait::poll;
    const sc_core::sc_time timeout = a.timeout;
    const uint32_t id = api.mmio_read32(base + CRC_ID);
    if (id != CRC_ID_VALUE) {
      api.log(format("rtl_crc32: no crc32 block at 0x%" PRIx64 " (ID 0x%08x)", base, id));
      return 1;
    }
    for (int64_t i = 0; i < a.reads; ++i) api.mmio_read32(base + CRC_ID);
    const uint64_t buf = api.alloc_pinned(size + 8, 4096), out = api.alloc_pinned(64, 64);
    std::vector<uint8_t>& data = data_;  // a member: a run the block stops never unwinds this thread
    data.resize(size);
    for (auto& b : data) b = uint8_t(api.rng()());
    api.write(buf, data.data(), data.size());
    int failures = 0;
    const uint64_t lengths[] = {0, 1, 7, 100, 4093, size};
    for (uint64_t n : lengths) {
      if (n > size) continue;
      uint32_t st = job(api, base, buf, n, out + 4, vec, poll, timeout);
      const uint32_t result = api.mmio_read32(base + CRC_RESULT);
      uint32_t in_mem = 0;
      api.read(out + 4, &in_mem, 4);
      api.mmio_write32(base + CRC_CTRL, CRC_CTRL_ACK);
      const uint32_t expect = rtl::crc32_update(0xFFFFFFFFu, data.data(), n) ^ 0xFFFFFFFFu;
      const bool ok = st == CRC_STATUS_DONE && result == expect && in_mem == expect;
      failures += !ok;
      api.log(format("rtl_crc32: %" PRIu64 " bytes: status 0x%x, RESULT 0x%08x, memory 0x%08x, expected 0x%08x%s", n,
                     st, result, in_mem, expect, ok ? "" : "  MISMATCH"));
      api.stat(format("crc_%" PRIu64, n), result);
    }
    // A misaligned source: DONE|ERROR, no memory traffic.
    const uint32_t st = job(api, base, buf + 1, 16, out + 4, vec, poll, timeout);
    api.mmio_write32(base + CRC_CTRL, CRC_CTRL_ACK);
    const bool ok = st == (CRC_STATUS_DONE | CRC_STATUS_ERROR);
    failures += !ok;
    api.log(format("rtl_crc32: misaligned source: status 0x%x%s", st, ok ? " (error, as expected)" : "  MISMATCH"));
    if (api.mmio_read32(base + CRC_STATUS) != 0) {
      api.log("rtl_crc32: STATUS not clear after the acknowledge");
      ++failures;
    }
    if (a.idle() > sc_core::SC_ZERO_TIME) api.sleep(a.idle);
    return failures ? 1 : 0;
  }

 private:
  static uint32_t job(HostApi& api, uint64_t base, uint64_t src, uint64_t n, uint64_t dst, unsigned vec, bool poll,
                      const sc_core::sc_time& timeout) {
    api.mmio_write32(base + CRC_SRC_LO, uint32_t(src));
    api.mmio_write32(base + CRC_SRC_HI, uint32_t(src >> 32));
    api.mmio_write32(base + CRC_LENGTH, uint32_t(n));
    api.mmio_write32(base + CRC_DST_LO, uint32_t(dst));
    api.mmio_write32(base + CRC_DST_HI, uint32_t(dst >> 32));
    api.mmio_write32(base + CRC_CTRL, CRC_CTRL_GO);
    bool done;
    if (poll)
      done = api.poll32(base + CRC_STATUS, CRC_STATUS_DONE, CRC_STATUS_DONE, sc_core::sc_time(1, sc_core::SC_US),
                        timeout, Access::Uncached);
    else
      done = api.wait_interrupt(vec, timeout);
    if (!done) throw std::runtime_error(format("rtl_crc32: no completion of a %" PRIu64 "-byte job", n));
    return api.mmio_read32(base + CRC_STATUS);
  }

  std::vector<uint8_t> data_;
};

}  // namespace

HETVP_REGISTER_PROGRAM("rtl_crc32", RtlCrc32Program, "drives the example RTL block rtl.crc32 (docs/rtl_blocks.md)");

}  // namespace hetvp::sw
