// The I/O index of a Falcon context controller's register access, carried to the context-switch
// unit when the controller forwards one of the unit's registers (models/mcu/falcon/ctxctl.cpp).
// nouveau's firmware reaches the per-strand registers STRAND_SAVE_SWBASE / STRAND_LOAD_SWBASE /
// STRAND_WORDS (0x908 / 0x90c / 0x910) of strand i at I/O index i (com.fuc strand_ctx_init:
// iowr I[$r8 + 0x000], $r8 = 0x908's I/O address + 4 * i); hetvp's RV32 firmware selects the strand
// with STRAND_SELECT and accesses them without an index (no extension on its payloads).
#pragma once

#include <tlm>

namespace hetvp::gpu {

struct IoIndex : tlm::tlm_extension<IoIndex> {
  unsigned index = 0;
  tlm::tlm_extension_base* clone() const override { return new IoIndex(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const IoIndex&>(e); }
};

}  // namespace hetvp::gpu
