// The GPU MMU: one virtual address space ("UVA") for every GPU bus master.
//
// Page tables live in VRAM and are written by the driver (format in gpu_regs.h: two levels,
// 4 KiB pages, 40-bit virtual addresses). A PTE maps a page to VRAM or to host memory across
// PCIe. Translations are cached in a TLB (`tlb_entries`, fully associative, LRU); a miss walks
// the tables with timed VRAM reads (one 64-byte line of PTEs per walk, all 8 entries cached). An access that spans
// pages is split. A missing or read-only mapping is a fault: TLM_ADDRESS_ERROR_RESPONSE to the initiator, the fault
// registers latch the address and reason, and PMC_INTR bit 1 is raised.
//
// Registers (firmware/include/hetvp/gpu_mmu.h, BAR0 GPU_MMU_BASE): PD_BASE_LO/HI, TLB_FLUSH, FAULT_STATUS,
// FAULT_ADDR_LO/HI, FAULT_COUNT, FAULT_CHAN.
//
// Channels (channel_tag.h): an access tagged with a channel walks the page directory named in the
// channel's instance block (+0x200, read once and cached until a TLB flush); TLB entries are keyed
// by (page directory, page), so channels never see each other's translations. A fault on a tagged
// access names the channel ("channel N (instance 0x...)") and latches it in FAULT_CHAN.
#pragma once

#include <list>
#include <unordered_map>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/access_info.h"
#include "platform/direct_target_socket.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/stats.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"

namespace hetvp::gpu {

// An initiator that needs to know where its access went attaches this to its payload: the MMU
// sets `sysmem` when any part of the access was translated to host memory (across PCIe), and
// clears it otherwise. The copy engine's direction-dependent completion term uses it. An answer
// carried on the payload, as the MMU's response is, not a look into the MMU's object.
struct MmuTargetInfo : tlm::tlm_extension<MmuTargetInfo> {
  bool sysmem = false;
  tlm::tlm_extension_base* clone() const override { return new MmuTargetInfo(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { sysmem = static_cast<const MmuTargetInfo&>(e).sysmem; }
};

// The MMU's parameters (gpu.mmu).
struct GpuMmuConfig : ParamSet {
  Int<unsigned> tlb_entries{this, "tlb_entries", 64, "translations the TLB holds (fully associative, LRU)",
                            Range{1, 65536}};
  Time tlb_hit{this, "tlb_hit", "1 ns", "time of a translation that hits the TLB"};
};

class GpuMmu : public Peripheral, public RunMember {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by `in`)

 public:
  // GPU virtual addresses, from every bus master the GPU's blocks have (none when it has no blocks);
  // a direct call per access (#31), the MMU does not ask which master called.
  DirectTargetSocket<GpuMmu, &GpuMmu::b_transport, 0, sc_core::SC_ZERO_OR_MORE_BOUND> in{"in", this};
  DirectInitiator<tlm_utils::simple_initiator_socket<GpuMmu>> vram{"vram"};      // VRAM physical
  DirectInitiator<tlm_utils::simple_initiator_socket<GpuMmu>> sysmem{"sysmem"};  // host physical, via PCIe
  IrqPort intr{"intr"};

  GpuMmu(sc_core::sc_module_name name, const GpuMmuConfig& c, uint64_t vram_size);
  // Statistics, declared once in the constructor (platform/stats.h); the GPU nests this group.
  StatGroup& stats() { return stats_; }
  void dump_stats(JsonWriter& w) const { stats_.dump(w); }

 private:
  void declare_stats();
  struct Translation {
    uint64_t page;  // physical page address
    bool sysmem, read_only;
  };
  // Returns false on a fault (reason set). Adds walk time to `delay`.
  // `pd`: the page directory to walk (PD_BASE, or the tagged channel's).
  bool translate(uint64_t pd, uint64_t va, bool write, Translation& t, unsigned& reason, sc_core::sc_time& delay,
                 bool debug);
  // The page directory of the access: its channel's (instance block +0x200) or PD_BASE. False: the
  // instance block cannot be read (reason set).
  bool page_directory(const tlm::tlm_generic_payload& gp, uint64_t& pd, sc_core::sc_time& delay, bool debug);
  bool read_vram(uint64_t addr, void* dst, unsigned len, sc_core::sc_time& delay, bool debug);
  void fault(uint64_t va, unsigned reason, const tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  void flush_tlb();
  void pd_base_written(uint32_t) { flush_tlb(); }
  void tlb_flush_written(uint32_t v) {
    if (v & 1) flush_tlb();
  }

  Register &pd_base_lo_, &pd_base_hi_, &fault_status_, &fault_addr_lo_, &fault_addr_hi_, &fault_count_;
  uint64_t vram_size_;
  unsigned tlb_entries_;
  sc_core::sc_time tlb_hit_;
  // TLB key: the virtual page number, with the page directory's 4 KiB frame number above bit 28
  // (VAs have 40 bits: vpn < 2^28). PD_BASE's own frame keeps single-space keys as they were.
  static uint64_t tlb_key(uint64_t pd, uint64_t vpn) { return vpn | ((pd >> 12) << 28); }
  std::list<std::pair<uint64_t, Translation>> lru_;  // front = most recent
  std::unordered_map<uint64_t, std::list<std::pair<uint64_t, Translation>>::iterator> tlb_;
  std::unordered_map<uint64_t, uint64_t> inst_pd_;  // instance block -> page directory (cached)
  Register* fault_chan_ = nullptr;
  tlm::tlm_generic_payload walk_gp_;
  AccessInfo* walk_info_ = new AccessInfo;  // owned by the payload it is attached to
  uint64_t accesses_ = 0, tlb_hits_ = 0, tlb_misses_ = 0, faults_ = 0, split_ = 0, sysmem_accesses_ = 0;
  StatGroup stats_;  // last: keeps the hot members' layout as it was
};

}  // namespace hetvp::gpu
