#include "models/gpu/pmc.h"

#include "models/gpu/gpu_regs.h"

namespace hetvp::gpu {

namespace {
const RegSpec kPmcRegs[] = {HETVP_REG_TABLE(HETVP_PMC_REGS)};
const RegSpec kPtopRegs[] = {HETVP_REG_TABLE(HETVP_PTOP_REGS)};
}  // namespace

Pmc::Pmc(sc_core::sc_module_name n, std::function<void(const sc_core::sc_time&)> send_msi)
    : Peripheral(n, kPmcRegs), intr_(reg("INTR")), intr_en_(reg("INTR_EN")), send_msi_(std::move(send_msi)) {
  bank_.set_arrival_queue(&arrivals_);
  on_write("INTR_EN", &Pmc::intr_en_written);
}

void Pmc::intr_en_written(uint32_t value) {
  if (intr_.value & value) send_msi_(this_access().delay);  // enabling a pending source interrupts at once
}

void Pmc::raise(unsigned bit, const sc_core::sc_time& delay) {
  // The bit becomes pending when the interrupt is raised, not when the raiser called (a core
  // inside its burst calls up to a quantum early).
  arrivals_.at(delay, [this, bit] {
    const uint32_t mask = 1u << bit;
    const bool was_pending = intr_.value & mask;
    intr_.value |= mask;
    if (!was_pending && (intr_en_.value & mask)) send_msi_(sc_core::SC_ZERO_TIME);
  });
}

Ptop::Ptop(sc_core::sc_module_name n, unsigned num_gpcs, uint64_t vram_size) : Peripheral(n, kPtopRegs) {
  read_timing(ReadTiming::AsIssued);  // constants: nothing to catch up with
  set_topology("NUM_GPCS", num_gpcs);
  set_topology("VRAM_MIB", static_cast<uint32_t>(vram_size >> 20));
  // NUM_COPY and the *_BASE registers: set by the blocks that exist; 0 otherwise.
}

}  // namespace hetvp::gpu
