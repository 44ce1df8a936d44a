// hetvp — GF100 context controller with a Falcon v3 core (docs/falcon.md).
#include "models/mcu/falcon/ctxctl.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "models/mcu/falcon/disasm.h"
#include "platform/format.h"
#include "platform/run_state.h"

namespace hetvp::mcu::falcon {

Ctxctl::Ctxctl(sc_core::sc_module_name n, const CtxctlConfig& cfg)
    : sc_core::sc_module(n), cfg_(cfg), code_(cfg.code_size), data_(cfg.data_size), stats_(basename()) {
  core_.add_region(MemRegion{0, cfg_.code_size, code_.data(), false, true});
  core_.add_region(MemRegion{0, cfg_.data_size, data_.data(), true, false});
  core_.set_bus(this);
  core_.set_xfer(this);
  core_.set_sync_io(true);  // every I/O access at its own time: results do not depend on the quantum
  // Code pages hold no translation until the host uploads them with a tag (CODE_VIRT_ADDR).
  for (uint32_t pg = 0; pg < cfg_.code_size / 0x100; ++pg) core_.set_tlb(pg, 0, 0);
  regs.register_b_transport(this, &Ctxctl::b_transport);
  SC_HAS_PROCESS(Ctxctl);
  SC_THREAD(thread);
  stats_.counter("instructions", "count", "Falcon instructions retired", instructions_)
      .counter("cycles", "cycles", "core cycles", cycles_)
      .counter("bursts", "count", "run bursts", bursts_)
      .counter("starts", "count", "UC_CTRL starts", starts_)
      .counter("io_reads", "count", "iord of the I/O space", io_reads_)
      .counter("io_writes", "count", "iowr/iowrs of the I/O space", io_writes_)
      .counter("bridge_reads", "count", "MMIO bridge reads of BAR0", bridge_reads_)
      .counter("bridge_writes", "count", "MMIO bridge writes of BAR0", bridge_writes_);
}

Ctxctl::~Ctxctl() = default;

void Ctxctl::stop_core(const std::string& why) {
  if (!failed_) {
    failed_ = true;
    failure_ = why;
    SC_REPORT_WARNING("hetvp/falcon", why.c_str());
  }
  core_.halt(why);
}

// --- interrupts (docs/hw/falcon/intr.rst) ----------------------------------------------------------

void Ctxctl::update_lines() {
  const uint32_t active = intr_ & intr_en_ & 0xffff;
  bool v0 = false, v1 = false;
  for (unsigned i = 0; i < 16; ++i) {
    if (!(active >> i & 1)) continue;
    const unsigned route = (intr_route_ >> i & 1) | (intr_route_ >> (16 + i) & 1) << 1;
    if (route == 0) v0 = true;
    if (route == 2) v1 = true;
  }
  core_.set_vector(0, v0);
  core_.set_vector(1, v1);
  if (v0 || v1) wake_ev_.notify(sc_core::SC_ZERO_TIME);
}

// --- the I/O space -----------------------------------------------------------------------------------

bool Ctxctl::io_read(uint32_t off, unsigned idx, uint32_t& v) {
  if (off >= FCTX_CC_SCRATCH && off < FCTX_CC_SCRATCH + 32) {
    v = cc_scratch_[(off - FCTX_CC_SCRATCH) / 4];
    return true;
  }
  switch (off) {
    case FCTX_INTR:
      v = intr_;
      return true;
    case FCTX_INTR_MODE:
      v = intr_mode_;
      return true;
    case FCTX_INTR_EN:
      v = intr_en_;
      return true;
    case FCTX_INTR_ROUTE:
      v = intr_route_;
      return true;
    case FCTX_SCRATCH:
      v = scratch_[0];
      return true;
    case FCTX_SCRATCH + 4:
      v = scratch_[1];
      return true;
    case FCTX_ACCESS:
      v = access_;
      return true;
    case FCTX_UC_CTRL: {
      const CoreState s = core_.state();
      v = (!started_ || s == CoreState::halted || s == CoreState::fatal) ? FCTX_UC_CTRL_STOPPED : 0;
      if (started_ && s == CoreState::sleeping) v |= FCTX_UC_CTRL_SLEEPING;
      return true;
    }
    case FCTX_UC_ENTRY:
      v = entry_;
      return true;
    case FCTX_UC_CAPS:
      v = (cfg_.code_size >> 8) | (cfg_.data_size >> 8) << 9;
      return true;
    case FCTX_UC_BLOCK_ON_FIFO:
      v = block_on_fifo_;
      return true;
    case FCTX_UC_CAPS2:
      v = 3;
      return true;
    case FCTX_CODE_INDEX:
      v = code_index_;
      return true;
    case FCTX_DATA_INDEX:
      v = data_index_;
      return true;
    case FCTX_CODE: {
      const uint32_t a = code_index_ & 0xfffc;
      v = 0;
      if (a + 4 <= code_.size()) std::memcpy(&v, &code_[a], 4);
      if (code_index_ & (1u << 25)) code_index_ = (code_index_ & ~0xfffcu) | ((a + 4) & 0xfffc);
      return true;
    }
    case FCTX_DATA: {
      const uint32_t a = data_index_ & 0xfffc;
      v = 0;
      if (a + 4 <= data_.size()) std::memcpy(&v, &data_[a], 4);
      if (data_index_ & (1u << 25)) data_index_ = (data_index_ & ~0xfffcu) | ((a + 4) & 0xfffc);
      return true;
    }
    case FCTX_SIGNAL:
      v = 0x40;
      return true;  // bridge done; strand (bit 2) and mmctx (bit 5) never busy
    case FCTX_IROUTE:
      v = iroute_[idx];
      return true;
    case FCTX_BAR_MASK0:
      v = bar_mask_[0];
      return true;
    case FCTX_BAR_MASK1:
      v = bar_mask_[1];
      return true;
    case FCTX_GPC_ROP_COUNT:
      if (!cfg_.hub) return false;
      v = (cfg_.gpcs & 0x1f) | (cfg_.rops & 0x1f) << 16;
      return true;
    case FCTX_UNITS:
      if (cfg_.hub) return false;
      v = cfg_.tpcs & 0x1f;
      return true;
    case FCTX_MYINDEX:
      if (cfg_.hub) return false;
      v = cfg_.index;
      return true;
    case FCTX_MMCTX_SAVE_SWBASE:
      v = mmctx_[0];
      return true;
    case FCTX_MMCTX_LOAD_SWBASE:
      v = mmctx_[1];
      return true;
    case FCTX_MMCTX_LOAD_COUNT:
      v = mmctx_[2];
      return true;
    case FCTX_MMIO_BASE:
      v = mmio_base_;
      return true;
    case FCTX_MMIO_CTRL:
      v = mmio_ctrl_;
      return true;
    case FCTX_MMIO_RDVAL:
      v = rdval_;
      return true;
    case FCTX_MMIO_WRVAL:
      v = wrval_;
      return true;
    case FCTX_UNK86C:
      v = unk86c_;
      return true;
    case FCTX_STRANDS_CNT:
      v = cfg_.strands;
      return true;
    case FCTX_STRAND_SAVE_SWBASE:
      v = strand_save_[idx];
      return true;
    case FCTX_STRAND_LOAD_SWBASE:
      v = strand_load_[idx];
      return true;
    case FCTX_STRAND_SIZE:
      if (idx >= cfg_.strands) return false;
      v = cfg_.strand_words;
      return true;
    case FCTX_STRAND_DATA:
      v = strand_data_;
      return true;
    case FCTX_STRAND_SELECT:
      v = strand_select_;
      return true;
    case FCTX_STRAND_CMD:
      v = strand_cmd_;
      return true;
    case FCTX_STRAND_FILTER:
      v = strand_filter_;
      return true;
    case FCTX_INTR_UP_EN:
      v = intr_up_en_;
      return true;
    default:
      return false;
  }
}

bool Ctxctl::io_write(uint32_t off, unsigned idx, uint32_t v) {
  if (off >= FCTX_CC_SCRATCH && off < FCTX_CC_SCRATCH + 32) {
    cc_scratch_[(off - FCTX_CC_SCRATCH) / 4] = v;
    return true;
  }
  if (off >= FCTX_CC_SCRATCH_SET && off < FCTX_CC_SCRATCH_SET + 32) {
    cc_scratch_[(off - FCTX_CC_SCRATCH_SET) / 4] |= v;
    return true;
  }
  if (off >= FCTX_CC_SCRATCH_CLR && off < FCTX_CC_SCRATCH_CLR + 32) {
    cc_scratch_[(off - FCTX_CC_SCRATCH_CLR) / 4] &= ~v;
    return true;
  }
  switch (off) {
    case FCTX_INTR_SET:
      intr_ |= v & 0xffff;
      update_lines();
      return true;
    case FCTX_INTR_CLEAR:
      intr_ &= ~v;
      update_lines();
      return true;
    case FCTX_INTR_MODE:
      intr_mode_ = v;
      return true;
    case FCTX_INTR_EN_SET:
      intr_en_ |= v & 0xffff;
      update_lines();
      return true;
    case FCTX_INTR_EN_CLR:
      intr_en_ &= ~v;
      update_lines();
      return true;
    case FCTX_INTR_ROUTE:
      intr_route_ = v;
      update_lines();
      return true;
    case FCTX_SCRATCH:
      scratch_[0] = v;
      return true;
    case FCTX_SCRATCH + 4:
      scratch_[1] = v;
      return true;
    case FCTX_ACCESS:
      access_ = v;
      return true;
    case FCTX_UC_ENTRY:
      entry_ = v;
      return true;
    case FCTX_UC_BLOCK_ON_FIFO:
      block_on_fifo_ = v;
      return true;
    case FCTX_CODE_INDEX:
      code_index_ = v;
      return true;
    case FCTX_DATA_INDEX:
      data_index_ = v;
      return true;
    case FCTX_CODE_VIRT_ADDR:
      core_.set_tlb((code_index_ & 0xffff) >> 8, v, 1);
      return true;
    case FCTX_CODE: {
      const uint32_t a = code_index_ & 0xfffc;
      if (a + 4 <= code_.size()) std::memcpy(&code_[a], &v, 4);
      core_.invalidate_code(a, 4);
      if (code_index_ & (1u << 24)) code_index_ = (code_index_ & ~0xfffcu) | ((a + 4) & 0xfffc);
      return true;
    }
    case FCTX_DATA: {
      const uint32_t a = data_index_ & 0xfffc;
      if (a + 4 <= data_.size()) std::memcpy(&data_[a], &v, 4);
      if (data_index_ & (1u << 24)) data_index_ = (data_index_ & ~0xfffcu) | ((a + 4) & 0xfffc);
      return true;
    }
    case FCTX_IROUTE:
      iroute_[idx] = v;
      return true;
    case FCTX_BAR_MASK0:
      bar_mask_[0] = v;
      return true;
    case FCTX_BAR_MASK1:
      bar_mask_[1] = v;
      return true;
    case FCTX_MMCTX_SAVE_SWBASE:
      mmctx_[0] = v;
      return true;
    case FCTX_MMCTX_LOAD_SWBASE:
      mmctx_[1] = v;
      return true;
    case FCTX_MMCTX_LOAD_COUNT:
      mmctx_[2] = v;
      return true;
    case FCTX_MMIO_BASE:
      mmio_base_ = v;
      return true;
    case FCTX_MMIO_CTRL:
      return bridge(v);
    case FCTX_MMIO_WRVAL:
      wrval_ = v;
      return true;
    case FCTX_UNK86C:
      unk86c_ = v;
      return true;
    case FCTX_STRAND_SAVE_SWBASE:
      strand_save_[idx] = v;
      return true;
    case FCTX_STRAND_LOAD_SWBASE:
      strand_load_[idx] = v;
      return true;
    case FCTX_STRAND_DATA:
      strand_data_ = v;
      return true;
    case FCTX_STRAND_SELECT:
      strand_select_ = v;
      return true;
    case FCTX_STRAND_CMD:
      strand_cmd_ = v;
      return true;  // completes at once
    case FCTX_STRAND_FILTER:
      strand_filter_ = v;
      return true;
    case FCTX_INTR_UP_EN:
      intr_up_en_ = v;
      return true;
    default:
      return false;
  }
}

// MMIO bridge: MMIO_CTRL bit 31 starts an access of BAR0 address bits 2-25 (+ MMIO_BASE with bit 0),
// bit 30 = write. The access completes inside the iowr; bit 31 reads back clear.
bool Ctxctl::bridge(uint32_t ctrl) {
  mmio_ctrl_ = ctrl & ~FCTX_MMIO_CTRL_PENDING;
  if (!(ctrl & FCTX_MMIO_CTRL_PENDING)) return true;
  uint32_t addr = ctrl & 0x03fffffc;
  if (ctrl & FCTX_MMIO_CTRL_BASE_ENABLE) addr += mmio_base_;
  const bool wr = ctrl & FCTX_MMIO_CTRL_WRITE;
  uint32_t v = wr ? wrval_ : 0;
  gp_.set_command(wr ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp_.set_address(addr);
  gp_.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp_.set_data_length(4);
  gp_.set_streaming_width(4);
  gp_.set_byte_enable_ptr(nullptr);
  gp_.set_dmi_allowed(false);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = bridge_delay_;
  bar0->b_transport(gp_, d);
  bridge_delay_ = d;
  if (!gp_.is_response_ok()) {
    stop_core(format("unmodelled register 0x%06x %s by %s at pc 0x%04x (through the MMIO bridge)", addr,
                     wr ? "written" : "read", cfg_.path.c_str(), core_.read_pc()));
    return true;  // stopped with the message above
  }
  if (wr) {
    ++bridge_writes_;
    poll_key_ = ~0u;  // a write is progress
  } else {
    ++bridge_reads_;
    rdval_ = v;
    if (!watch_poll(0x80000000u | addr, v)) return true;
  }
  return true;
}

bool Ctxctl::watch_poll(uint32_t key, uint32_t value) {
  if (cfg_.poll_watchdog == 0) return true;
  if (key == poll_key_ && value == poll_value_) {
    if (++poll_count_ >= cfg_.poll_watchdog) {
      stop_core(
          format("%s at pc 0x%04x polled %s 0x%06x %llu times without progress (value 0x%08x): stopped by the "
                 "poll watchdog (gpu0.microcontrollers.poll_watchdog)",
                 cfg_.path.c_str(), core_.read_pc(), (key & 0x80000000u) ? "register" : "I/O register",
                 (key & 0x80000000u) ? (key & 0x7fffffffu) : key, (unsigned long long)poll_count_, value));
      return false;
    }
    return true;
  }
  poll_key_ = key;
  poll_value_ = value;
  poll_count_ = 1;
  return true;
}

bool Ctxctl::read(uint32_t addr, uint32_t, uint32_t& v, uint64_t& extra) {
  ++io_reads_;
  extra = 0;
  const uint32_t off = (addr >> 6) & 0xffc;
  const unsigned idx = (addr >> 2) & 0x3f;
  if (addr >= 0x40000 || !io_read(off, idx, v)) {
    stop_core(format("unmodelled register 0x%06x (I/O 0x%05x) read by %s at pc 0x%04x", cfg_.bar0_base + off, addr,
                     cfg_.path.c_str(), core_.read_pc()));
    return true;
  }
  // The bridge's control and the busy/done signals are part of every bridge access, not a poll.
  if (off != FCTX_MMIO_CTRL && off != FCTX_MMIO_RDVAL && off != FCTX_SIGNAL) watch_poll(addr, v);
  return true;
}

bool Ctxctl::write(uint32_t addr, uint32_t, uint32_t v, uint64_t& extra) {
  ++io_writes_;
  extra = 0;
  const uint32_t off = (addr >> 6) & 0xffc;
  const unsigned idx = (addr >> 2) & 0x3f;
  // Progress for the poll watchdog: a write that changes a register (rewriting the same value, as
  // the bridge's control words and the firmware's trace words do in every poll iteration, is none).
  uint32_t old = 0;
  const bool readable = addr < 0x40000 && io_read(off, idx, old);
  if (off != FCTX_MMIO_CTRL && off != FCTX_MMIO_WRVAL && (!readable || old != v)) poll_key_ = ~0u;
  if (addr >= 0x40000 || !io_write(off, idx, v))
    stop_core(format("unmodelled register 0x%06x (I/O 0x%05x) written by %s at pc 0x%04x", cfg_.bar0_base + off, addr,
                     cfg_.path.c_str(), core_.read_pc()));
  return true;
}

bool Ctxctl::xfer(const XferRequest& r, std::string& error) {
  error = format(
      "xfer (port %u, base 0x%x, offset 0x%x, %u bytes) not modelled on the context controller "
      "(context switching is out of scope, docs/falcon.md)",
      r.port, r.ext_base, r.ext_offset, r.bytes);
  return false;
}

// --- host side -------------------------------------------------------------------------------------

bool Ctxctl::host_read(uint32_t off, uint32_t& v) { return off < 0xf00 && io_read(off & 0xffc, 0, v); }

bool Ctxctl::host_write(uint32_t off, uint32_t v, const sc_core::sc_time& delay) {
  if (off == FCTX_UC_CTRL) {
    if (v & FCTX_UC_CTRL_START) {
      core_.reset(entry_);
      core_.write_sr(SR_SP, 0);
      started_ = true;
      failed_ = false;
      failure_.clear();
      poll_key_ = ~0u;
      ++starts_;
      start_ev_.notify(delay);
    }
    return true;
  }
  return off < 0xf00 && io_write(off & 0xffc, 0, v);
}

void Ctxctl::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address()) & 0xfff;
  if (gp.get_data_length() != 4 || (off & 3)) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t v = 0;
  bool ok;
  if (gp.is_read()) {
    ok = host_read(off, v);
    if (ok) std::memcpy(gp.get_data_ptr(), &v, 4);
  } else {
    std::memcpy(&v, gp.get_data_ptr(), 4);
    ok = host_write(off, v, delay);
  }
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// --- execution -------------------------------------------------------------------------------------

void Ctxctl::thread() {
  for (;;) {
    if (!started_ || core_.state() == CoreState::halted || core_.state() == CoreState::fatal) {
      sc_core::wait(start_ev_);
      continue;
    }
    const double q = tlm::tlm_global_quantum::instance().get().to_seconds();
    uint64_t budget = static_cast<uint64_t>(q * cfg_.clock_hz);
    if (budget == 0) budget = 1000;
    bridge_delay_ = sc_core::SC_ZERO_TIME;
    RunResult r;
    if (cfg_.trace) {
      r.reason = RunResult::Reason::budget;
      for (uint64_t k = 0; k < budget; ++k) {
        uint8_t b[4];
        core_.fetch_bytes(core_.read_pc(), b);
        unsigned len = 0;
        std::fprintf(stderr, "%s %04x: %s\n", cfg_.path.c_str(), core_.read_pc(),
                     disassemble(b, core_.read_pc(), len).c_str());
        const RunResult s = core_.step();
        r.cycles += s.cycles;
        r.instructions += s.instructions;
        r.reason = s.reason;
        if (s.reason != RunResult::Reason::budget) break;
      }
    } else {
      r = core_.run(budget);
    }
    instructions_ += r.instructions;
    cycles_ += r.cycles;
    ++bursts_;
    if (r.reason == RunResult::Reason::trapped_fatal && !failed_) {
      failed_ = true;
      failure_ = cfg_.path + ": " + core_.halt_reason();
      SC_REPORT_WARNING("hetvp/falcon", failure_.c_str());
    }
    const sc_core::sc_time t = sc_core::sc_time(double(r.cycles) / cfg_.clock_hz, sc_core::SC_SEC) + bridge_delay_;
    if (t > sc_core::SC_ZERO_TIME) sc_core::wait(t);
    RunState::get().progress();
    if (core_.state() == CoreState::sleeping) sc_core::wait(wake_ev_ | start_ev_);
  }
}

}  // namespace hetvp::mcu::falcon
