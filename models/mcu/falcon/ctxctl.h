// hetvp — a GF100 graphics context controller (HUB "FECS" or GPC "GPCCS"): a Falcon v3 core, its code
// and data segments, and the I/O space nouveau's firmware uses during boot
// (firmware/include/hetvp/falcon_ctxctl_regs.h; docs/falcon.md lists every register and its source).
// The host reaches the registers through its 0x1000 BAR0 window; the core through iord/iowr at
// (offset & 0xffc) << 6 | index << 2, and the rest of the GPU through the MMIO bridge (MMIO_CTRL).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/mcu/falcon/core.h"
#include "platform/stats.h"

namespace hetvp::mcu::falcon {

struct CtxctlConfig {
  bool hub = false;
  unsigned index = 0;  // GPC index
  std::string path;    // e.g. "gpu0.hub" (messages)
  double clock_hz = 700e6;
  uint32_t code_size = 0x4000, data_size = 0x1000;
  unsigned gpcs = 4, rops = 8, tpcs = 4;  // HUB 0x604 / GPC UNITS
  unsigned strands = 1;
  uint32_t strand_words = 0x40;
  uint64_t poll_watchdog = 100000;  // identical polled reads without progress before the run stops
  uint32_t bar0_base = 0;           // the window's BAR0 address (messages)
  bool trace = false;               // --trace: disassemble every instruction on stderr
};

class Ctxctl : public sc_core::sc_module, public BusIf, public XferIf {
 public:
  tlm_utils::simple_target_socket<Ctxctl> regs{"regs"};     // host side (BAR0 window)
  tlm_utils::simple_initiator_socket<Ctxctl> bar0{"bar0"};  // the MMIO bridge's master port

  Ctxctl(sc_core::sc_module_name name, const CtxctlConfig& cfg);
  ~Ctxctl() override;

  // A host access of the window (also used by the broadcast window). Returns false: unmodelled.
  bool host_read(uint32_t off, uint32_t& v);
  bool host_write(uint32_t off, uint32_t v, const sc_core::sc_time& delay);

  // BusIf: the core's I/O space
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra_cycles) override;
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra_cycles) override;
  // XferIf: no external memory is wired to the context controller's xfer ports (context switching
  // is not modelled): a request stops the run, named.
  bool xfer(const XferRequest& r, std::string& error) override;

  FalconCore& core() { return core_; }
  StatGroup& stats() { return stats_; }
  bool failed() const { return failed_; }
  const std::string& failure() const { return failure_; }

 private:
  void thread();
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool io_read(uint32_t off, unsigned idx, uint32_t& v);
  bool io_write(uint32_t off, unsigned idx, uint32_t v);
  void update_lines();
  bool bridge(uint32_t ctrl);
  void stop_core(const std::string& why);
  bool watch_poll(uint32_t key, uint32_t value);

  CtxctlConfig cfg_;
  FalconCore core_;
  std::vector<uint8_t> code_, data_;
  // I/O state
  uint32_t intr_ = 0, intr_en_ = 0, intr_mode_ = 0xfc04, intr_route_ = 0, scratch_[2] = {}, access_ = 0;
  uint32_t entry_ = 0, block_on_fifo_ = 0, code_index_ = 0, data_index_ = 0;
  uint32_t iroute_[64] = {}, bar_mask_[2] = {}, mmctx_[3] = {}, mmio_base_ = 0, mmio_ctrl_ = 0, rdval_ = 0, wrval_ = 0;
  uint32_t cc_scratch_[8] = {}, unk86c_ = 0, strand_save_[64] = {}, strand_load_[64] = {}, strand_data_ = 0,
           strand_select_ = 0, strand_cmd_ = 0, strand_filter_ = 0, intr_up_en_ = 0;
  bool started_ = false, failed_ = false;
  std::string failure_;
  sc_core::sc_event start_ev_, wake_ev_;
  sc_core::sc_time bridge_delay_;  // MMIO bridge time spent inside the current burst
  // poll watchdog
  uint32_t poll_key_ = ~0u, poll_value_ = 0;
  uint64_t poll_count_ = 0;
  tlm::tlm_generic_payload gp_;
  // stats
  uint64_t instructions_ = 0, cycles_ = 0, bursts_ = 0, io_reads_ = 0, io_writes_ = 0, bridge_reads_ = 0,
           bridge_writes_ = 0, starts_ = 0;
  StatGroup stats_;
};

}  // namespace hetvp::mcu::falcon
