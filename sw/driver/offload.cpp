#include "sw/driver/offload.h"

#include <cinttypes>

#include "models/gpu/gpu_regs.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {
constexpr uint64_t kBlock = 256;  // the largest xfer: the firmware's block (copy.c)
}  // namespace

OffloadCopier::OffloadCopier(HostApi& api, GpuDriver& gpu, McuDriver& mcu, const DriverOptions& opt,
                             const OffloadOptions& oopt)
    : api_(api), gpu_(gpu), mcu_(mcu), opt_(opt), oopt_(oopt) {}

unsigned OffloadCopier::intr_bit(const McuId& m) const {
  return m.kind == McuId::Hub ? GPU_INTR_HUB : GPU_INTR_GPC(m.gpc);
}

OffloadTicket OffloadCopier::start(const McuId& m, uint64_t src, uint64_t dst, uint32_t size) {
  if (m.kind == McuId::AllGpcs) throw HostError("offloaded copy: name one microcontroller, not the broadcast window");
  if (size == 0) throw HostError("offloaded copy of zero bytes");
  if (src < dst + size && dst < src + size)
    throw HostError("offloaded copy: source [" + hex(src) + ", +" + std::to_string(size) + ") and destination [" +
                    hex(dst) + ", ...) overlap");
  if ((src | dst) >> MMU_VA_BITS) throw HostError("offloaded copy: address beyond the 40-bit GPU virtual space");
  OffloadTicket t{m, mcu_.read(m, MCU_STATUS1) + 1, src, dst, size};
  mcu_.write(m, FW_ARG0, static_cast<uint32_t>(src));
  mcu_.write(m, FW_ARG1, static_cast<uint32_t>(dst));
  mcu_.write(m, FW_ARG2, FW_COPY_ARG2(src, dst));
  mcu_.write(m, MCU_METHOD_DATA, size);
  mcu_.write(m, MCU_METHOD_CMD, FW_CMD_COPY | FW_CMD_NOTIFY);
  return t;
}

void OffloadCopier::wait(const std::vector<OffloadTicket>& tickets) {
  std::vector<bool> done(tickets.size(), false);
  size_t left = tickets.size();
  const sc_core::sc_time deadline = api_.now() + opt_.copy_timeout;
  while (left > 0) {
    sc_core::sc_time remaining = deadline > api_.now() ? deadline - api_.now() : sc_core::SC_ZERO_TIME;
    bool irq = api_.wait_interrupt(kGpuMsiVector, remaining);
    const uint32_t pending = gpu_.reg_read(GPU_PMC_BASE + PMC_INTR);
    uint32_t ack = 0;
    for (size_t i = 0; i < tickets.size(); ++i) {
      if (done[i]) continue;
      const uint32_t bit = 1u << intr_bit(tickets[i].mcu);
      // Without an interrupt (timeout) look at every ticket once more before giving up.
      if (irq && !(pending & bit)) continue;
      const OffloadTicket& t = tickets[i];
      if (static_cast<int32_t>(mcu_.read(t.mcu, MCU_STATUS1) - t.seq) < 0) {
        // Its interrupt without its completion: the microcontroller stopped (trap, halt).
        const uint32_t st = mcu_.read(t.mcu, MCU_UC_CTRL) & MCU_STATE_MASK;
        if (irq && (st == MCU_STATE_TRAPPED || st == MCU_STATE_HALTED || st == MCU_STATE_IDLE))
          throw HostError(t.mcu.name() + ": offloaded copy of " + std::to_string(t.size) + " bytes " + hex(t.src) +
                          " -> " + hex(t.dst) + " failed: the microcontroller stopped: " + mcu_.state(t.mcu));
        continue;
      }
      ack |= bit;
      done[i] = true;
      --left;
      const uint32_t err = mcu_.read(t.mcu, FW_ERROR);
      if (err != FW_ERR_OK)
        throw HostError(t.mcu.name() + ": offloaded copy of " + std::to_string(t.size) + " bytes " + hex(t.src) +
                        " -> " + hex(t.dst) + " failed: firmware error " + std::to_string(err) + " after " +
                        std::to_string(mcu_.read(t.mcu, FW_ARG2)) + " bytes (xfer status " +
                        hex(mcu_.read(t.mcu, FW_RESULT)) + ", last xfer at GPU VA " +
                        hex(mcu_.read(t.mcu, MCU_XFER_EXT_LO) | uint64_t(mcu_.read(t.mcu, MCU_XFER_EXT_HI)) << 32) +
                        ")");
    }
    if (ack) gpu_.reg_write(GPU_PMC_BASE + PMC_INTR, ack);
    if (!irq && left > 0) {
      for (size_t i = 0; i < tickets.size(); ++i)
        if (!done[i])
          throw HostError(tickets[i].mcu.name() + ": offloaded copy of " + std::to_string(tickets[i].size) +
                          " bytes did not complete within copy_timeout; microcontroller " + mcu_.state(tickets[i].mcu));
    }
  }
}

std::vector<OffloadCopier::Part> OffloadCopier::split(const std::vector<McuId>& mcus, uint64_t src, uint64_t dst,
                                                      uint64_t size) const {
  if (mcus.empty()) throw HostError("offloaded copy with no microcontroller");
  if (size == 0) throw HostError("offloaded copy of zero bytes");
  if (size > 0xffffffffull) throw HostError("offloaded copy larger than 4 GiB");
  std::vector<Part> parts;
  // Contiguous parts, one per microcontroller. Parts meet at 8-byte-aligned destination
  // addresses: the xfer DMA moves at least 8 bytes, so two microcontrollers writing parts of one
  // 8-byte word would overwrite each other's bytes (a tiny copy therefore uses fewer of them).
  // Parts of 256 bytes or more are 256-byte multiples (the firmware's fast path).
  uint64_t part = (size + mcus.size() - 1) / mcus.size();
  part = part >= 256 ? (part + 255) & ~255ull : (part + 7) & ~7ull;
  uint64_t off = 0;
  for (size_t i = 0; i < mcus.size() && off < size; ++i) {
    uint64_t end = i + 1 == mcus.size() ? size : std::min<uint64_t>(size, (((dst + (i + 1) * part) + 7) & ~7ull) - dst);
    if (end <= off) continue;
    parts.push_back({mcus[i], src + off, dst + off, end - off});
    off = end;
  }
  return parts;
}

// command_per_block: round after round, every part's next block (ending at the destination's
// next 256-byte boundary, where the firmware's own loop would end it) is one command; the host
// waits for a round before sending the next. The last round is returned unwaited.
std::vector<OffloadTicket> OffloadCopier::start_blocks(std::vector<Part> parts) {
  for (;;) {
    std::vector<OffloadTicket> round;
    bool more = false;
    for (Part& p : parts) {
      if (p.size == 0) continue;
      const uint64_t n = std::min<uint64_t>(p.size, kBlock - (p.dst & (kBlock - 1)));
      round.push_back(start(p.mcu, p.src, p.dst, static_cast<uint32_t>(n)));
      p.src += n;
      p.dst += n;
      p.size -= n;
      more |= p.size != 0;
    }
    if (!more) return round;
    wait(round);
  }
}

std::vector<OffloadTicket> OffloadCopier::start_split(const std::vector<McuId>& mcus, uint64_t src, uint64_t dst,
                                                      uint64_t size) {
  std::vector<Part> parts = split(mcus, src, dst, size);
  if (oopt_.command_per_block) return start_blocks(std::move(parts));
  std::vector<OffloadTicket> t;
  for (const Part& p : parts) t.push_back(start(p.mcu, p.src, p.dst, static_cast<uint32_t>(p.size)));
  return t;
}

void OffloadCopier::copy(const std::vector<McuId>& mcus, uint64_t src, uint64_t dst, uint64_t size) {
  api_.spend(opt_.api_call);
  wait(start_split(mcus, src, dst, size));
}

}  // namespace hetvp::sw
