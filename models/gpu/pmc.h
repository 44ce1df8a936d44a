// PMC, the GPU's interrupt controller and identity block (BAR0 0x000000; registers in
// firmware/include/hetvp/pmc.h), and PTOP, the topology block the driver and the HUB firmware
// read (BAR0 0x022400). Both live inside the host interface, which owns the MSI they request.
//
// PMC: GPU-internal sources raise bits of INTR through the IrqIf (vector = bit; see gpu_map.h
// GPU_INTR_*). A bit becomes pending at the raise's arrival time; a source that becomes pending
// while enabled in INTR_EN, and an INTR_EN write that enables a pending source, ask for one
// MSI (`send_msi`). An acknowledge (W1C write of INTR) takes effect when it arrives: cleared
// early, it could miss, or swallow, an interrupt raised meanwhile.
#pragma once

#include <functional>
#include <string>

#include "platform/arrival_queue.h"
#include "platform/irq.h"
#include "platform/peripheral.h"

namespace hetvp::gpu {

class Pmc : public Peripheral, public IrqIf {
 public:
  // `send_msi(delay)`: the host interface's MSI, sent `delay` after the current time.
  Pmc(sc_core::sc_module_name name, std::function<void(const sc_core::sc_time&)> send_msi);
  void raise(unsigned bit, const sc_core::sc_time& delay) override;
  uint64_t errors() const { return bank().errors(); }
  // PMC_BOOT_0: the chip's id (gpu0.chip, firmware/include/hetvp/gpu_chips.h).
  void set_boot0(uint32_t v) { bank_.set_reset("BOOT_0", v); }

 private:
  void intr_en_written(uint32_t value);
  ArrivalQueue arrivals_{"arrivals"};  // raises and acknowledges act at their arrival
  Register &intr_, &intr_en_;
  std::function<void(const sc_core::sc_time&)> send_msi_;
};

class Ptop : public Peripheral {
 public:
  Ptop(sc_core::sc_module_name name, unsigned num_gpcs, uint64_t vram_size);
  // A register (pmc.h name without the prefix) that depends on the GPU's composition: where a
  // block sits, how many copy engines there are. The GPU's blocks set them while built.
  void set_topology(const std::string& reg, uint32_t value) { bank_.set_reset(reg, value); }
  uint64_t errors() const { return bank().errors(); }
};

}  // namespace hetvp::gpu
