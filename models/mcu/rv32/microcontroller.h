// hetvp — one GPU microcontroller (HUB or GPC): a CoreIf core (RV32IMC by default) on the core host
// (models/mcu/core_host.h: burst loop, sleep on wfi, GDB), with its code and data memories, the
// host-visible register block (firmware/include/hetvp/mcu_regs.h), an interrupt controller, the xfer
// DMA engine, a timer and a master port onto the GPU's BAR0. docs/mcu.md describes it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/mcu/core_host.h"
#include "models/mcu/mcu_config.h"
#include "platform/access_info.h"
#include "platform/arrival_queue.h"
#include "platform/direct_target_socket.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/stats.h"
#include "platform/peripheral.h"

namespace hetvp::mcu {

// The register block is a Peripheral: `regs` (host side, BAR0 window) and the core's own
// accesses (io_access) are served by the same table and ports.
class Microcontroller : public CoreHost {
 public:
  DirectInitiator<tlm_utils::simple_initiator_socket<Microcontroller>> xfer{"xfer"};  // GPU virtual addresses (MMU)
  DirectInitiator<tlm_utils::simple_initiator_socket<Microcontroller>> bar0{"bar0"};  // the core's BAR0 window
  IrqPort intr{"intr"};                                                               // PMC_INTR
  // The graphics engine's context-switch unit (models/gpu/gr, gr_ctxsw.h) shares this window: the
  // host forwards its offsets (host or core access) to it, unchanged (CoreHost::ctxsw); its
  // interrupts set IRQSTAT bits (MCU_IRQ_CHSW_BIT, MCU_IRQ_CTXSW_BIT) when they arrive.

  // The HUB's or a GPC's microcontroller (`slot`) with `cfg`'s group for it (cfg.hub / cfg.gpc) and,
  // for a GPC, the windows it may reach.
  Microcontroller(sc_core::sc_module_name name, const McuBlockConfig& cfg, const CoreSlot& slot);
  ~Microcontroller() override;

  // A register access from outside the core (host through BAR0, the broadcast window).
  // `delay`: as in b_transport (a read may wait until its arrival and zero it).
  void host_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  void host_access(tlm::tlm_generic_payload& gp) {  // untimed (tests, the GDB stub)
    sc_core::sc_time none = sc_core::SC_ZERO_TIME;
    host_access(gp, none);
  }
  void dump_stats(JsonWriter& w) const { stats_.dump(w); }

  // BusIf (the core's accesses outside its direct memories).
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra_cycles) override;
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra_cycles) override;
  int io_access(tlm::tlm_command cmd, uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra_cycles);

  // For the GDB stub (runs in the host's thread while the core is stopped).
  bool debug_read(uint32_t addr, uint8_t* dst, uint32_t len) override;
  bool debug_write(uint32_t addr, const uint8_t* src, uint32_t len) override;
  unsigned state() const { return static_cast<unsigned>(mode_); }  // MCU_STATE_*

 private:
  // CoreHost
  sc_core::sc_time next_own_event() const override;  // absolute; sc_max_time() when nothing is scheduled
  bool wake_line() const override { return irq_line_; }
  void on_fatal() override;
  // io_access times every access at core_offset(): bursts may go on in local time (unless configured off).
  bool runs_on_in_local_time() const override { return local_time_bursts_; }
  // The xfer's end (status, IRQ XFER to the core only) may be served in the core's local time.
  sc_core::sc_event* inline_event(sc_core::sc_time& at, bool& wakes) override;
  void serve_inline_event() override { xfer_done(); }

  void declare_stats();
  enum class From { Host, Core };
  void start_xfer(const sc_core::sc_time& offset = sc_core::SC_ZERO_TIME);
  void xfer_done();
  void timer_method();
  // The access being served comes from this core (directly, or through its own BAR0 window).
  bool from_core() const { return this_access().initiator == core_info_->initiator; }
  // Ports beside the table: the CODE/DATA upload ports (auto-incrementing index) and the rules
  // on who may write UC_EXIT, UC_CTRL and DBG_DATA.
  bool upload_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool write_rules(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool refuse(tlm::tlm_generic_payload& gp, const std::string& why);
  bool upload_allowed() const;
  void on_start() override;
  void set_irq_bits(uint32_t bits);
  void update_irq_line();
  void record_trap(uint32_t pc, uint32_t cause, uint32_t val, const std::string& why);
  void control(uint32_t v, From from);
  void init_payloads();   // the xfer, BAR0-window and own-register payloads with their AccessInfo
  void bind_registers();  // the register table and the behaviour bound to its names
  // register behaviour, bound to register names by bind_registers()
  void irqsset(uint32_t v);
  void irqsclr(uint32_t v);
  void irqmset(uint32_t v);
  void irqmclr(uint32_t v);
  void host_intr(uint32_t v);
  uint32_t uc_ctrl() const;
  void uc_ctrl_written(uint32_t v);
  void uc_exit(uint32_t v);
  uint32_t trap_pc() const { return trap_pc_; }
  uint32_t uc_id() const;
  uint32_t trap_cause() const { return trap_cause_; }
  uint32_t trap_val() const { return trap_val_; }
  void fw_trap(uint32_t v);
  uint32_t instret_lo() const { return uint32_t(core_->instret()); }
  uint32_t instret_hi() const { return uint32_t(core_->instret() >> 32); }
  uint32_t cycles_lo() const { return uint32_t(core_->cycles()); }
  uint32_t cycles_hi() const { return uint32_t(core_->cycles() >> 32); }
  uint32_t dbg_data() const;
  void dbg_data_written(uint32_t v);
  void xfer_ctrl(uint32_t v);
  void xfer_fault(uint32_t ctrl, uint32_t code);
  void timer_ctrl(uint32_t v);
  void method_cmd(uint32_t v);
  void status1(uint32_t v);

  void irq_raised(unsigned bit, const sc_core::sc_time& delay) override;

  // From the configuration (the slot's group and the windows)
  const bool hub_;
  const unsigned index_;                                   // GPC index (0 for the HUB)
  const unsigned host_intr_bit_;                           // PMC_INTR bit raised by HOST_INTR
  const unsigned reg_cycles_;                              // core access to its own register block
  const bool local_time_bursts_;                           // CoreHost::run_on and the xfer at the core's offset (#31)
  std::vector<std::pair<uint32_t, uint32_t>> bar0_allow_;  // GPC: BAR0 ranges it may reach (empty = all)
  Register *irqstat_ = nullptr, *irqmask_ = nullptr, *xfer_status_ = nullptr;  // set once the table is added
  sc_core::sc_event xfer_done_ev_, timer_ev_;
  bool irq_line_ = false;
  uint32_t exit_code_ = 0;
  uint32_t trap_pc_ = 0, trap_cause_ = 0, trap_val_ = 0;
  std::string halt_why_;
  // xfer
  bool xfer_busy_ = false, xfer_started_ = false;
  sc_core::sc_time xfer_start_at_, xfer_done_at_;  // when the current xfer starts / ends (absolute)
  TraceTrack xfer_track_{std::string(name()) + ".xfer"}, cmd_track_{std::string(name()) + ".cmd"};
  sc_core::sc_time timer_due_ = sc_core::sc_max_time();
  uint64_t xfer_ext_ = 0;
  uint32_t xfer_dmem_ = 0, xfer_len_ = 0;
  bool xfer_store_ = false;
  tlm::tlm_generic_payload xfer_gp_, bar0_gp_, core_gp_;
  AccessInfo* xfer_info_ = new AccessInfo;  // each owned by the payload it is attached to
  AccessInfo* bar0_info_ = new AccessInfo;
  AccessInfo* core_info_ = new AccessInfo;
  ArrivalQueue arrivals_{"arrivals"};  // host writes that start work, run at their arrival
  // stats (the core's counters are the host's)
  uint64_t xfers_ = 0, xfer_bytes_ = 0, xfer_faults_ = 0, commands_ = 0, host_intrs_ = 0;
  uint64_t refused_ = 0, bar0_accesses_ = 0, traps_ = 0;
  sc_core::sc_time xfer_time_;
  // --trace: command spans (METHOD_CMD write -> STATUS1 write by the firmware)
  bool cmd_open_ = false;
  uint32_t cmd_word_ = 0;
  sc_core::sc_time cmd_start_;
};

}  // namespace hetvp::mcu
