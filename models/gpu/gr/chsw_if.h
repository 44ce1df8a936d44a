// The contract between the FIFO (the channel scheduler) and the graphics engine's context-switch
// unit, shaped like GF100's PFIFO → PGRAPH interface (nouveau gr/fuc/macros.fuc, hub.fuc):
//
//   FIFO: waits until GR is idle, then request_switch(next): the unit latches CHAN_NEXT
//         (FECS 0x409b04: bit 31 valid, bits 27:0 instance address >> 12) and raises the CHSW
//         interrupt (FECS INTR bit 8) to the HUB microcontroller.
//   HUB firmware: saves the channel in CHAN_ADDR (0x409b00) if valid, loads the one in
//         CHAN_NEXT, sets CHAN_ADDR = CHAN_NEXT and writes CHSW (0x409b0c) = ACK (bit 0).
//   Unit: on that ACK write, notifies switch_acked(); only then does the FIFO feed GR methods of
//         the new channel.
//
// The FIFO holds a ChswPort; the context-switch unit exports ChswIf. The GPU composite binds them
// (both are GPU blocks: see gpu_block.h). A GPU built without the FIFO leaves the export unbound.
#pragma once

#include <cstdint>

#include <systemc>

namespace hetvp::gpu {

// CHAN_ADDR / CHAN_NEXT value of the channel whose instance block is at VRAM byte address `inst`
// (4 KiB aligned): bit 31 valid, bits 27:0 = inst >> 12 (GF100's format, hub.fuc main loop).
constexpr uint32_t kChanValid = 0x80000000u;
inline uint32_t chan_word(uint64_t inst) { return kChanValid | uint32_t((inst >> 12) & 0x0fffffffu); }
inline uint64_t chan_inst(uint32_t word) { return uint64_t(word & 0x0fffffffu) << 12; }

class ChswIf : public virtual sc_core::sc_interface {
 public:
  // Ask for a switch to channel `chid` whose instance block is at VRAM `inst` (chid only names
  // it in messages and statistics). `delay`: the requester's local time offset. At most one
  // request is pending; a second before the ACK is a logic error of the requester.
  virtual void request_switch(uint32_t chid, uint64_t inst, const sc_core::sc_time& delay) = 0;
  virtual bool switch_pending() const = 0;
  // Notified when the firmware writes CHSW ACK for the pending request.
  virtual const sc_core::sc_event& switch_acked() const = 0;
  // CHAN_ADDR: the channel whose context GR holds now (false: none).
  virtual bool current_channel(uint64_t& inst) const = 0;
};

using ChswPort = sc_core::sc_port<ChswIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
using ChswExport = sc_core::sc_export<ChswIf>;

}  // namespace hetvp::gpu
