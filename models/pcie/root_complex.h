// The PCIe root complex: the host's door to PCIe.
//
// - `ecam` (target, offsets): configuration requests. Bus 0 holds one root port per link
//   (device n = port n, a Type 1 bridge header the driver programs: bus numbers, memory
//   windows, command). Requests for a bus behind a port cross its link as Type 0 config TLPs.
// - `mmio` (target, absolute addresses): memory requests, forwarded to the port whose memory
//   or prefetchable window (as the driver programmed it) holds the address.
// - `up{n}` (target): requests from devices. Writes to the MSI address range become
//   interrupts on `irq` (vector = MSI data); everything else goes to `host` (initiator).
// - `down{n}` (initiator): to link n.
// Unclaimed configuration reads return all-ones (as hardware does); unclaimed memory requests
// get TLM_ADDRESS_ERROR_RESPONSE; DMA from a device whose port has bus mastering disabled is
// refused.
#pragma once

#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/direct_target_socket.h"
#include "platform/param_set.h"
#include "platform/trace_track.h"

namespace hetvp {

// The parameters of a root complex (YAML type `pcie_root_complex`).
struct RootComplexConfig : ParamSet {
  Int<unsigned> ports{this, "ports", 1, "number of root ports (one link each)", Range{1, 31}};
  Time latency{this, "latency", "50 ns", "time a request spends crossing the root complex"};
  Int<uint64_t> msi_base{this, "msi_base", 0xFEE00000, "start of the MSI address range (writes there are interrupts)",
                         Min{0}};
  Size msi_size{this, "msi_size", "1 MiB", "size of the MSI address range"};
};

class RootComplex : public Component {
  void b_mmio(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by `mmio`)

 public:
  tlm_utils::simple_target_socket<RootComplex> ecam{"ecam"};
  DirectTargetSocket<RootComplex, &RootComplex::b_mmio> mmio{"mmio", this};
  DirectInitiator<tlm_utils::simple_initiator_socket<RootComplex>> host{"host"};
  IrqPort irq{"irq"};

  using Config = RootComplexConfig;
  RootComplex(sc_core::sc_module_name name, const RootComplexConfig& c);

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  struct RootPort {
    std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<RootComplex>> down;
    FwCall down_call;  // down's b_transport (platform/direct_target_socket.h), resolved at the first access
    void send_down(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
      if (!down_call.resolved()) down_call.resolve(down->operator->());
      down_call(gp, delay);
    }
    std::unique_ptr<tlm_utils::simple_target_socket_tagged<RootComplex>> up;
    uint16_t command = 0;
    uint8_t primary = 0, secondary = 0, subordinate = 0;
    uint32_t mem_base_limit = 0, pref_base_limit = 0, pref_base_upper = 0, pref_limit_upper = 0;
    // Inline over the windows the last write left (every MMIO access asks, #31).
    bool claims_memory(uint64_t addr) const {
      return (addr >= mem_lo && addr <= mem_hi) || (addr >= pref_lo && addr <= pref_hi);
    }
    uint32_t read32(unsigned reg, unsigned index) const;
    void write32(unsigned reg, uint32_t value, uint32_t mask);

   private:
    // The memory and prefetchable windows decoded from the registers (lo > hi: closed, as is
    // every window while memory decoding is off), recomputed by write32.
    uint64_t mem_lo = 1, mem_hi = 0, pref_lo = 1, pref_hi = 0;
    void update_windows();
    void write_register(unsigned reg, uint32_t value, uint32_t mask);
  };

  void b_ecam(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void b_up(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dbg_mmio(tlm::tlm_generic_payload& gp);
  unsigned dbg_up(int port, tlm::tlm_generic_payload& gp);
  int port_for_bus(unsigned bus) const;
  int port_for_address(uint64_t addr) const;

  std::vector<RootPort> ports_;
  sc_core::sc_time latency_;
  uint64_t msi_base_, msi_size_;
  AccessInfo up_info_;
  uint64_t config_requests_ = 0, mmio_requests_ = 0, dma_requests_ = 0, msis_ = 0, unclaimed_ = 0;
  // Its tracks on the timeline: configuration requests, the CPU's MMIO, endpoints' DMA (and MSIs).
  TraceTrack config_track_{std::string(name()) + ".config"}, mmio_track_{std::string(name()) + ".mmio"},
      dma_track_{std::string(name()) + ".dma"};
};

}  // namespace hetvp
