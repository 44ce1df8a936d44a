// The GPU's PCIe endpoint and host interface.
//
// Downstream (from the link, target `pcie`): configuration requests are served by the Type 0
// configuration space (vendor 0x10de, the chip's device ID, BAR0 = registers, BAR1 = VRAM aperture,
// MSI capability); memory requests are decoded against the BARs the driver programmed: BAR0
// goes to the register router (`bar0`), BAR1 to VRAM at the same offset (costing
// `bar1_read_latency` per read: the GPU's path from its host interface to the frame buffer);
// `bar1` is bound to VRAM itself, an access past VRAM's size is refused here with a warning.
// Upstream (target `dma`, from the MMU and any GPU-internal bus master): requests are split
// into TLPs no larger than max_payload (writes) and max_read_request (reads) and sent out
// through `upstream`; refused while bus mastering is disabled. The two limits are the link's
// parameters (pcie_link max_payload/max_read_request), asked for through `upstream` at end of
// elaboration (pcie::LinkQuery), max_payload capped at kMaxPayloadSupported.
// Interrupts: GPU-internal sources raise bits of PMC_INTR through `intr` (the PMC, pmc.h); an
// enabled bit sends one MSI. The PMC and PTOP register blocks (pmc.h) are this module's children.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/pcie/config_space.h"
#include "platform/access_info.h"
#include "platform/direct_target_socket.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/stats.h"
#include "platform/param_set.h"
#include "models/gpu/pmc.h"

namespace hetvp::gpu {

// The PCIe endpoint's parameters (gpu.pcie).
struct HostInterfaceConfig : ParamSet {
  Size bar0_size{this, "bar0_size", "16 MiB", "size of BAR0 (registers)"};
  Size bar1_size{this, "bar1_size", "256 MiB", "size of BAR1 (VRAM aperture)"};
  Time bar0_latency{this, "bar0_latency", "100 ns", "time from the endpoint to a register block and back"};
  Time bar1_read_latency{this, "bar1_read_latency", "1.2 us",
                         "time a BAR1 read spends inside the GPU (host interface -> frame buffer -> completion)"};
  Time bar1_write_latency{this, "bar1_write_latency", "20 ns", "time a BAR1 write spends inside the GPU"};
  // The TLP size limits are the link's (pcie_link), learnt in end_of_elaboration().
  Moved max_payload{this, "max_payload",
                    "it is the PCIe link's parameter (e.g. pcie0.max_payload), which both ends use"};
  Moved max_read_request{this, "max_read_request",
                         "it is the PCIe link's parameter (e.g. pcie0.max_read_request), which both ends use"};
};

class HostInterface : public sc_core::sc_module {
  void b_pcie(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by `pcie`)
  void b_dma(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);   // (named by `dma`)

 public:
  DirectTargetSocket<HostInterface, &HostInterface::b_pcie> pcie{"pcie", this};
  DirectInitiator<tlm_utils::simple_initiator_socket<HostInterface>> upstream{"upstream"};
  DirectTargetSocket<HostInterface, &HostInterface::b_dma, 0> dma{"dma", this};  // any number of bus masters
  DirectInitiator<tlm_utils::simple_initiator_socket<HostInterface>> bar0{"bar0"};
  DirectInitiator<tlm_utils::simple_initiator_socket<HostInterface>> bar1{"bar1"};
  IrqExport intr{"intr"};
 private:
  Pmc pmc_;
  Ptop ptop_;

 public:
  decltype(pmc_.regs)& pmc = pmc_.regs;     // BAR0 0x000000
  decltype(ptop_.regs)& ptop = ptop_.regs;  // BAR0 0x022400

  // pci_device: the PCI device ID its configuration space reports (the chip's, gpu_chips.h).
  HostInterface(sc_core::sc_module_name name, const HostInterfaceConfig& c, unsigned num_gpcs, uint64_t vram_size,
                uint16_t pci_device);
  // Sets a PTOP register (pmc.h name without the prefix) that depends on the GPU's composition
  // (where a block sits, how many copy engines there are); the GPU's blocks call it while built.
  void set_topology(const std::string& reg, uint32_t value) { ptop_.set_topology(reg, value); }
  void set_boot0(uint32_t value) { pmc_.set_boot0(value); }  // PMC_BOOT_0 (gpu0.chip)
  uint64_t bar0_size() const { return bar0_size_; }

  // Statistics, declared once in the constructor (platform/stats.h); the GPU nests this group.
  StatGroup& stats() { return stats_; }
  void dump_stats(JsonWriter& w) const { stats_.dump(w); }

 private:
  void declare_stats();
  unsigned dbg_pcie(tlm::tlm_generic_payload& gp);
  unsigned dbg_dma(tlm::tlm_generic_payload& gp);
  void send_msi(const sc_core::sc_time& delay);

  pcie::Type0ConfigSpace cfg_;
  sc_core::sc_time bar0_latency_, bar1_read_latency_, bar1_write_latency_;
  uint64_t bar0_size_;
  uint64_t vram_size_;  // BAR1 offsets at or past it reach no VRAM (an aperture larger than VRAM)
  static constexpr unsigned kMaxPayloadSupported = 512;  // Device Capabilities (GF100)
  void end_of_elaboration() override;
  unsigned max_payload_ = 128, max_read_request_ = 512;  // PCIe reset values until the link answers
  tlm::tlm_generic_payload msi_gp_;
  AccessInfo* msi_info_ = new AccessInfo;  // owned by the payload it is attached to
  uint32_t msi_data_buf_ = 0;
  uint64_t cfg_accesses_ = 0, bar0_accesses_ = 0, bar1_accesses_ = 0, dma_requests_ = 0, dma_tlps_ = 0, msis_ = 0,
           refused_ = 0;
  StatGroup stats_;  // last: keeps the hot members' layout as it was
};

}  // namespace hetvp::gpu
