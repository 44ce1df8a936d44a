// hetvp — one context-switch unit of the graphics engine, shaped like GF100's FECS (the HUB's)
// and GPCCS (each GPC's): the MMCTX engine (an MMIO list the firmware queues; the unit copies
// those BAR0 registers to or from a context buffer in VRAM), the strand engine (per-GPC state
// chains, saved and loaded on a command) and, in the HUB's unit, the channel-switch interface the
// FIFO drives (ChswIf: CHAN_NEXT, the CHSW interrupt, CHSW ACK) and the instance-block fetch
// (MEM_CMD LOAD_CHAN). Registers: firmware/include/hetvp/gr_ctxsw.h; behaviour:
// docs/contexts.md.
//
// The registers sit in the microcontroller's window (the microcontroller forwards the offsets it
// does not have), so the firmware reaches them as its own registers. The engines run in their
// own thread: a command is taken when its write arrives, every register and VRAM access is a
// timed b_transport, and the unit raises MCU_IRQ_CTXSW to its microcontroller when they go idle.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/gpu/gr/chsw_if.h"
#include "platform/access_info.h"
#include "platform/irq.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"
#include "platform/trace_track.h"
#include "platform/stats.h"

namespace hetvp::gpu {

struct CtxswConfig {
  bool hub = false;
  unsigned index = 0;  // GPC index (0 for the HUB)
  uint64_t vram_size = 0;
  uint64_t bar0_size = 16 << 20;
  sc_core::sc_time word_cost{2, sc_core::SC_NS};      // engine time per word moved (assumption)
  sc_core::sc_time command_cost{20, sc_core::SC_NS};  // engine time per queued entry / strand command (assumption)
  // Strand n = the BAR0 addresses of its words, in chain order (GPC units; the HUB has none).
  std::vector<std::vector<uint32_t>> strands;
  // The context-switch controller's core type: with Falcon controllers (nouveau's firmware) the HUB
  // unit has one empty strand (com.fuc strand_ctx_init loops STRANDS_CNT times, at least once), and
  // a GPC unit's MEM_TARGET 0 means "the HUB's address space and channel" (gpc.fuc ctx_xfer sets
  // only MEM_BASE; assumption: GPCCS transfers where FECS selected).
  bool falcon = false;
  uint32_t hub_regs = 0x409000;  // BAR0 of the HUB unit's registers (a GPC unit reads MEM_TARGET/MEM_CHAN there)
  // Test-only fault: this GPC's strand engine never finishes (SIGNAL bit 2 stays set).
  bool stuck = false;
  // Test-only fault: the load path skips restoring this BAR0 register (has_skip).
  bool has_skip = false;
  uint32_t skip_restore = 0;
};

class CtxswUnit : public Peripheral, public RunMember, public ChswIf {
 public:
  tlm_utils::simple_initiator_socket<CtxswUnit> bar0{"bar0"};                     // the registers it saves / restores
  tlm_utils::simple_initiator_socket<CtxswUnit> vram{"vram"};                     // context buffers, instance blocks
  tlm_utils::simple_initiator_socket<CtxswUnit> va{"va"};                         // MEM_TARGET VM: GPU virtual addresses
  // The controller's xfer port: address = byte offset from MEM_BASE << 8, in MEM_TARGET's space.
  tlm_utils::simple_target_socket_optional<CtxswUnit> xfer{"xfer"};
  sc_core::sc_port<IrqIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> mcu_irq{"mcu_irq"};  // its microcontroller
  ChswExport chsw{"chsw"};                                                        // the HUB's unit: bound by the FIFO

  CtxswUnit(sc_core::sc_module_name name, const CtxswConfig& cfg);
  StatGroup& stats() { return stats_; }

  // ChswIf
  void request_switch(uint32_t chid, uint64_t inst, const sc_core::sc_time& delay) override;
  bool switch_pending() const override { return pending_; }
  const sc_core::sc_event& switch_acked() const override { return acked_; }
  bool current_channel(uint64_t& inst) const override;

  // Totals the block's statistics add up.
  uint64_t save_bytes() const { return 4 * (mmctx_saved_ + strand_saved_); }
  uint64_t load_bytes() const { return 4 * (mmctx_loaded_ + strand_loaded_); }
  uint64_t switches() const { return switches_; }

 private:
  struct Job {
    bool strand = false, load = false;
    uint32_t entry = 0, base = 0, stride = 0, mask = 0;  // MMCTX
    uint64_t buf = 0;                                    // MMCTX: byte address of this entry's words
    bool vm = false;                                     // buf (and the strands') is a virtual address ...
    uint64_t inst = 0;                                   // ... in the space of the channel at this instance block
    std::vector<std::pair<unsigned, uint64_t>> strands;  // strand engine: (strand, VRAM address)
    sc_core::sc_time at;                                 // absolute arrival
  };
  void run();
  void do_mmctx(const Job& j, sc_core::sc_time& d);
  void do_strands(const Job& j, sc_core::sc_time& d);
  // Moves `regs` to (save) or from (load) VRAM `buf`; false after an error (set_error done).
  bool move(const std::vector<uint32_t>& regs, uint64_t buf, bool load, bool strand, uint32_t entry,
            sc_core::sc_time& d, uint64_t& moved, bool vm = false, uint64_t inst = 0);
  bool bus(tlm::tlm_generic_payload& gp, tlm_utils::simple_initiator_socket<CtxswUnit>& s, tlm::tlm_command cmd,
           uint64_t addr, void* data, unsigned len, sc_core::sc_time& d);
  void set_error(uint32_t code, uint32_t addr, bool strand, const std::string& what);
  bool buffer_base(uint32_t swbase, uint64_t& addr, bool strand);  // MEM_BASE + swbase; false: refused
  // MEM_TARGET's address space now: VRAM, or VM with the channel's instance block; false: refused.
  bool target_space(bool& vm, uint64_t& inst, bool strand);
  bool mem(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, bool vm, uint64_t inst,
           sc_core::sc_time& d);
  void xfer_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d);
  bool falcon_index_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& d);
  void raise(unsigned bit, const sc_core::sc_time& delay);
  void declare_stats();
  // register behaviour
  uint32_t signal() const;
  uint32_t mmctx_ctrl() const;
  void mmctx_ctrl_written(uint32_t v);
  void mmctx_queue(uint32_t v);
  uint32_t strand_save_swbase() const;
  uint32_t strand_load_swbase() const;
  void strand_save_swbase_written(uint32_t v);
  void strand_load_swbase_written(uint32_t v);
  void strand_cmd(uint32_t v);
  void mem_cmd(uint32_t v);
  void chsw_written(uint32_t v);
  void fw_cycles_written(uint32_t v);

  CtxswConfig cfg_;
  std::deque<Job> jobs_;
  sc_core::sc_event work_;
  unsigned mmctx_pending_ = 0, strand_pending_ = 0;
  uint32_t mmctx_dir_ = 0;                           // MMCTX_CTRL DIR latched at START
  uint64_t mmctx_offset_ = 0;                        // bytes queued since START (the next entry's offset in the area)
  std::vector<uint32_t> strand_save_, strand_load_;  // per-strand SWBASE
  tlm::tlm_generic_payload bar0_gp_, vram_gp_, mem_gp_, hubreg_gp_;
  AccessInfo* hubreg_info_ = new AccessInfo;
  AccessInfo* bar0_info_ = new AccessInfo;  // each owned by its payload
  AccessInfo* vram_info_ = new AccessInfo;
  AccessInfo* mem_info_ = new AccessInfo;
  std::string last_error_;
  // channel switch (HUB)
  bool pending_ = false;
  uint32_t pending_chid_ = 0;
  uint64_t pending_inst_ = 0;
  sc_core::sc_time pulse_at_;
  sc_core::sc_event acked_;
  // statistics
  uint64_t mmctx_saved_ = 0, mmctx_loaded_ = 0, strand_saved_ = 0, strand_loaded_ = 0;  // words
  uint64_t entries_ = 0, strand_cmds_ = 0, errors_ = 0, skipped_ = 0, chan_loads_ = 0;
  uint64_t switches_ = 0, switch_errors_ = 0, stray_acks_ = 0, host_unloads_ = 0;
  uint64_t xfers_ = 0, xfer_bytes_ = 0;
  double p2a_min_ = 0, p2a_max_ = 0, p2a_sum_ = 0;  // CHSW pulse to ACK, ns
  struct SwitchRecord {
    uint32_t chid;
    uint64_t inst;
    double pulse_ns, pulse_to_ack_ns;
    uint32_t fw_cycles, bytes;
  };
  std::vector<SwitchRecord> switch_log_;
  uint64_t switch_bytes_ = 0;
  uint64_t fw_cycles_sum_ = 0, fw_cycles_max_ = 0, fw_cycles_min_ = 0, fw_cycle_reports_ = 0;
  sc_core::sc_time busy_time_;
  StatGroup stats_;
  // Its tracks on the timeline: a span per MMCTX/strand command; a span per channel switch.
  TraceTrack track_{name()}, chsw_track_{std::string(name()) + ".chsw"};
};

}  // namespace hetvp::gpu
