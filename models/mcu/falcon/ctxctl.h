// hetvp — a GF100 graphics context controller (HUB "FECS" or GPC "GPCCS"): a Falcon v3 core, its code
// and data segments, and the I/O space nouveau's firmware uses during boot
// (firmware/include/hetvp/falcon_ctxctl_regs.h; docs/falcon.md lists every register and its source).
// The host reaches the registers through its 0x1000 BAR0 window; the core through iord/iowr at
// (offset & 0xffc) << 6 | index << 2 (FCTX_IO), and the rest of the GPU through the MMIO bridge
// (MMIO_CTRL). Both views are one RegisterBank; the core's index selects the value of an indexed
// register (IROUTE, STRAND_*) and is ignored by the others. The core runs on the core host
// (models/mcu/core_host.h: the burst loop, sleep/wake, run state), like the RV32 microcontroller.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/mcu/core_host.h"
#include "models/mcu/mcu_config.h"
#include "platform/access_info.h"
#include "platform/arrival_queue.h"
#include "platform/component.h"

namespace hetvp::mcu::falcon {

// One controller's values, resolved from the block's parameters (mcu_config.h) and its slot: the
// chip's sizes and version where the YAML gives none (Ctxctl::resolve).
struct CtxctlSetup {
  CoreSlot slot;
  double clock_hz;
  uint32_t code_size, data_size;
  unsigned rops, tpcs;  // HUB 0x604 / GPC UNITS
  unsigned strands;
  uint32_t strand_words;
  uint64_t poll_watchdog;  // identical polled reads without progress before the run stops
  bool trace;              // --trace: disassemble every instruction on stderr
  // What differs between chips (firmware/include/hetvp/gpu_chips.h): the Falcon version UC_CAPS2
  // reports, and where CC_SCRATCH_SET and UNK86C sit (they moved at GK110).
  unsigned fuc;
  uint32_t cc_scratch_set, unk86c;
};

class Ctxctl : public CoreHost, public XferIf {
 public:
  // regs (Peripheral): the host side, its BAR0 window
  tlm_utils::simple_initiator_socket<Ctxctl> bar0{"bar0"};  // the MMIO bridge's master port
  // The gr block's context-switch unit (models/gpu/gr/ctxsw_unit.h) behind this controller
  // (CoreHost::ctxsw): its registers (gr_ctxsw.h, host and core accesses alike) and its memory port
  // (xfers). Its MCU_IRQ_CHSW_BIT (8) sets INTR line 8, FECS's CHSW (macros.fuc:39).

  // The HUB's or a GPC's controller (`slot`), from the block's parameters.
  Ctxctl(sc_core::sc_module_name name, const McuBlockConfig& cfg, const CoreSlot& slot);
  ~Ctxctl() override;
  // The values a controller in `slot` runs with; a ConfigError names the key that does not fit.
  static CtxctlSetup resolve(const McuBlockConfig& cfg, const CoreSlot& slot);

  // A host access of the window (also used by the broadcast window). Returns false: refused.
  bool host_read(uint32_t off, uint32_t& v);
  bool host_write(uint32_t off, uint32_t v, const sc_core::sc_time& delay);
  // The same as a TLM access (the broadcast window, models/mcu/broadcast.h): 4-byte aligned words only
  // (else TLM_BURST_ERROR_RESPONSE), a refused one answers TLM_ADDRESS_ERROR_RESPONSE.
  void host_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;

  // BusIf: the core's I/O space
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra_cycles) override;
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra_cycles) override;
  // XferIf: xdld / xdst / xcld go to the context-switch unit's memory port (MEM_BASE, MEM_TARGET);
  // without a unit, or when it refuses, the request stops the run, named.
  bool xfer(const XferRequest& r, std::string& error) override;

  bool failed() const { return failed_; }
  const std::string& failure() const { return failure_; }

 private:
  // CoreHost
  bool wake_line() const override { return core_->wake_pending(); }
  void on_fatal() override;
  RunResult run_core(uint64_t budget) override;  // --trace: step and disassemble

  Ctxctl(sc_core::sc_module_name name, const CtxctlSetup& setup);
  void bind_registers();
  bool host_access(tlm::tlm_command cmd, uint32_t off, uint32_t& v, const sc_core::sc_time& delay);
  bool io_access(tlm::tlm_command cmd, uint32_t addr, uint32_t& v);
  void stop_core(const std::string& why);
  bool watch_poll(uint32_t key, uint32_t value);

  // register behaviour, bound by name in bind_registers()
  void set_clear(const char* name, Register& target, bool set);
  void update_lines(uint32_t = 0);
  uint32_t uc_ctrl() const;
  void uc_ctrl_written(uint32_t v);
  void on_start() override;
  bool core_writes_uc_ctrl(tlm::tlm_generic_payload& gp, sc_core::sc_time&);
  uint32_t code_word() const;
  uint32_t data_word() const;
  void code_written(uint32_t v);
  void data_written(uint32_t v);
  void code_virt_addr(uint32_t v);
  bool upload_read(tlm::tlm_generic_payload& gp, sc_core::sc_time&);
  void bridge(uint32_t ctrl);
  void per_index(const char* name, std::vector<uint32_t>& cells);
  // the context-switch unit and the method FIFO
  void irq_raised(unsigned bit, const sc_core::sc_time& delay) override;
  bool ctxsw_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  uint32_t signal();
  void push_method(uint32_t cmd);
  void pop_method(uint32_t);
  void fifo_level();
  void bar_set(uint32_t v);
  void intr_up(uint32_t v);
  bool watch_signal(uint32_t value);
  void switch_abandoned();

  const CtxctlSetup cfg_;
  CodePaging& paging_;  // the core's code TLB
  int cur_index_ = -1;  // the I/O index of the core's access being served (-1: a host access)
  std::deque<std::pair<uint32_t, uint32_t>> fifo_;  // method FIFO: (command, data)
  ArrivalQueue arrivals_{"arrivals"};
  bool chsw_in_progress_ = false;  // HUB: a CHSW interrupt arrived and the firmware has not acknowledged it
  uint64_t signal_polls_ = 0;
  uint32_t signal_value_ = 0;
  // registers the behaviour reads or sets (the rest only store what is written)
  Register &bar_ = reg("BAR"), &bar_mask0_ = reg("BAR_MASK0");
  Register &intr_ = reg("INTR"), &intr_en_ = reg("INTR_EN"), &intr_route_ = reg("INTR_ROUTE");
  Register &uc_entry_ = reg("UC_ENTRY"), &code_index_ = reg("CODE_INDEX"), &data_index_ = reg("DATA_INDEX");
  Register &mmio_base_ = reg("MMIO_BASE"), &mmio_ctrl_ = reg("MMIO_CTRL"), &mmio_rdval_ = reg("MMIO_RDVAL"),
           &mmio_wrval_ = reg("MMIO_WRVAL");
  // indexed registers: one value per I/O index
  std::vector<uint32_t> iroute_, strand_save_, strand_load_;
  AccessInfo* core_info_ = new AccessInfo;  // owned by core_gp_
  tlm::tlm_generic_payload core_gp_;        // the core's I/O accesses
  bool failed_ = false;
  std::string failure_;
  // poll watchdog
  uint32_t poll_key_ = ~0u, poll_value_ = 0;
  uint64_t poll_count_ = 0;
  tlm::tlm_generic_payload gp_;
  // stats
  uint64_t io_reads_ = 0, io_writes_ = 0, bridge_reads_ = 0, bridge_writes_ = 0;
  uint64_t methods_ = 0, chsw_irqs_ = 0, xfers_ = 0, xfer_bytes_ = 0, chsw_cycles_ = 0, chsw_cycles_at_ = 0;
};

}  // namespace hetvp::mcu::falcon
