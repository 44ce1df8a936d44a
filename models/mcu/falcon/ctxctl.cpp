// hetvp — GF100 context controller with a Falcon v3 core (docs/falcon.md).
#include "models/mcu/falcon/ctxctl.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "models/mcu/debug_port.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/payload.h"
#include "platform/register_table.h"

namespace hetvp::mcu::falcon {

namespace {
const RegSpec kFctxRegs[] = {HETVP_REG_TABLE(HETVP_FCTX_REGS)};

// CODE / DATA: the word at an upload index (0 outside the segment), and the index after an access
// (advanced by 4 within the address bits when `aincr` is set in it).
uint32_t word_at(const std::vector<uint8_t>& mem, uint32_t index) {
  const uint32_t a = index & FCTX_INDEX_ADDR_MASK;
  uint32_t v = 0;
  if (a + 4 <= mem.size()) std::memcpy(&v, &mem[a], 4);
  return v;
}
uint32_t advanced(uint32_t index, uint32_t aincr) {
  if (!(index & aincr)) return index;
  return (index & ~FCTX_INDEX_ADDR_MASK) | (((index & FCTX_INDEX_ADDR_MASK) + 4) & FCTX_INDEX_ADDR_MASK);
}
}  // namespace

CtxctlSetup Ctxctl::resolve(const McuBlockConfig& cfg, const CoreSlot& slot) {
  const McuSideConfig& side = cfg.side(slot.hub);
  const GpuChip* chip = slot.chip;
  CtxctlSetup c;
  c.slot = slot;
  c.clock_hz = side.clock;
  c.code_size = static_cast<uint32_t>(side.code_size);
  c.data_size = static_cast<uint32_t>(side.data_size);
  c.fuc = 3;
  c.cc_scratch_set = 0x820;
  c.unk86c = 0x86c;
  // A chip's segment sizes (UC_CAPS), its ROP partitions and TPCs, unless the YAML gives them.
  if (chip) {
    if (!side.code_size.given()) c.code_size = slot.hub ? chip->hub_code : chip->gpc_code;
    if (!side.data_size.given()) c.data_size = slot.hub ? chip->hub_data : chip->gpc_data;
    c.fuc = chip->fuc;
    c.cc_scratch_set = chip->cc_scratch_set;
    c.unk86c = chip->unk86c;
  }
  if (c.data_size & (c.data_size - 1))
    throw ConfigError(side.data_size.where() + ": the Falcon core needs a power-of-two data_size");
  c.rops = chip && !cfg.rops.given() ? chip->parts : cfg.rops;
  c.tpcs = cfg.tpcs_per_gpc(chip);
  if (chip && c.tpcs > chip->tpcs)
    throw ConfigError(cfg.tpcs.where() + ": " + std::to_string(c.tpcs) + " TPCs per GPC, but " + chip->name + " has " +
                      std::to_string(chip->tpcs));
  c.strands = cfg.strands;
  c.strand_words = cfg.strand_words;
  c.poll_watchdog = cfg.poll_watchdog;
  c.trace = cfg.trace;
  return c;
}

Ctxctl::Ctxctl(sc_core::sc_module_name n, const McuBlockConfig& cfg, const CoreSlot& slot)
    : Ctxctl(n, resolve(cfg, slot)) {}

namespace {
// Every I/O access at its own time: results do not depend on the quantum.
CoreOptions falcon_options() {
  CoreOptions o;
  o.sync_io = true;
  return o;
}
CodePaging& paging_of(CoreIf& core) {
  CodePaging* p = core.code_paging();
  if (!p) throw std::logic_error(std::string("a context controller needs a core with code pages; ") + core.isa());
  return *p;
}
}  // namespace

Ctxctl::Ctxctl(sc_core::sc_module_name n, const CtxctlSetup& cfg)
    // The chip's Falcon version (gpu_chips.h FUC): 3, or 5 from GK208 on. SIGNAL is the controller's
    // own register: it adds the unit's busy bits to its own (signal()).
    : CoreHost(n, kFctxRegs, make_core(cfg.fuc >= 5 ? "falcon5" : "falcon3", falcon_options()), cfg.clock_hz,
               cfg.code_size, cfg.data_size, {FCTX_SIGNAL}),
      cfg_(cfg),
      paging_(paging_of(*core_)) {
  xfers_through_ctxsw_ = true;  // FECS's port 0: the unit's memory port
  core_->add_region(MemRegion{0, cfg_.code_size, code_.data(), false, true});
  core_->add_region(MemRegion{0, cfg_.data_size, data_.data(), true, false});
  core_->set_bus(this);
  if (XferControl* x = core_->xfer_control()) x->set_xfer(this);
  // Code pages hold no translation until the host uploads them with a tag (CODE_VIRT_ADDR).
  for (uint32_t pg = 0; pg < cfg_.code_size / 0x100; ++pg) paging_.set_tlb(pg, 0, 0);
  core_info_->initiator = name();  // the core's own accesses (core_writes_uc_ctrl tells them by it)
  core_gp_.set_extension(core_info_);
  bind_registers();
  spawn_host_thread();
  stats_.counter("instructions", "count", "Falcon instructions retired", instructions_)
      .counter("cycles", "cycles", "core cycles", cycles_)
      .counter("bursts", "count", "run bursts", bursts_)
      .counter("starts", "count", "UC_CTRL starts", starts_)
      .counter("io_reads", "count", "iord of the I/O space", io_reads_)
      .counter("io_writes", "count", "iowr/iowrs of the I/O space", io_writes_)
      .counter("bridge_reads", "count", "MMIO bridge reads of BAR0", bridge_reads_)
      .counter("bridge_writes", "count", "MMIO bridge writes of BAR0", bridge_writes_)
      .counter("methods", "count", "methods queued in the FIFO (MTHD_PUSH: host commands, GPC_BCAST_WRCMD)", methods_)
      .counter("chsw_irqs", "count", "CHSW interrupts from the context-switch unit", chsw_irqs_)
      .counter("chsw_cycles", "cycles", "core cycles from each CHSW interrupt to the firmware's CHSW ACK", chsw_cycles_)
      .counter("xfers", "count", "xdld / xdst / xcld served", xfers_)
      .counter("xfer_bytes", "bytes", "bytes they moved", xfer_bytes_);
}

Ctxctl::~Ctxctl() = default;

// The table is falcon_ctxctl_regs.h's; registers not bound here only store what is written.
void Ctxctl::bind_registers() {
  read_timing(ReadTiming::AsIssued);  // the host's polls are served as issued (the timing calibrated)
  // Configuration-dependent read-only values, and the registers only one kind of controller has.
  bank_.set_reset("UC_CAPS", FCTX_UC_CAPS_VALUE(cfg_.code_size, cfg_.data_size));
  bank_.set_reset("STRANDS_CNT", cfg_.strands);
  // hetvp's own firmware learns its clock here (docs/firmware_falcon.md); its cycle counter is the
  // debug port's (FCTX_DBG_CYCLES_LO), which the core host serves to the core's I/O space too.
  bank_.set_reset("HETVP_CLOCK_KHZ", static_cast<uint32_t>(cfg_.clock_hz / 1000.0 + 0.5));
  bank_.set_reset("STRAND_SIZE", cfg_.strand_words);
  if (cfg_.slot.hub) {
    bank_.set_reset("GPC_ROP_COUNT", FCTX_GPC_ROP_COUNT_VALUE(cfg_.slot.gpcs, cfg_.rops));
    bank_.remove("UNITS");
    bank_.remove("MYINDEX");
  } else {
    bank_.set_reset("UNITS", cfg_.tpcs & FCTX_UNITS_TPC_MASK);
    bank_.set_reset("MYINDEX", cfg_.slot.index);
    bank_.remove("GPC_ROP_COUNT");
    // FECS-only: the idle handshake, 0xa24, the error report to the host (a GPC's firmware writes
    // the HUB's INTR_UP_SET through its bridge, gpc.fuc error).
    for (const char* r : {"IDLE_STATUS", "IDLE_CTRL", "MEM_UNK_A24", "INTR_UP_SET"}) bank_.remove(r);
  }
  // The core's I/O index selects one value of these (the host's accesses use index 0).
  per_index("IROUTE", iroute_);
  per_index("STRAND_SAVE_SWBASE", strand_save_);
  per_index("STRAND_LOAD_SWBASE", strand_load_);
  reg("STRAND_SIZE").indexed(cfg_.strands);  // one per strand, all strand_words
  using C = Ctxctl;
  set_clear("INTR_SET", intr_, true);
  set_clear("INTR_CLEAR", intr_, false);
  set_clear("INTR_EN_SET", intr_en_, true);
  set_clear("INTR_EN_CLR", intr_en_, false);
  on_write("INTR_ROUTE", &C::update_lines);
  on_read("UC_CTRL", &C::uc_ctrl);
  on_write("UC_CTRL", &C::uc_ctrl_written);
  on_port("UC_CTRL", FCTX_UC_CTRL, 4, &C::core_writes_uc_ctrl);
  on_read("CODE", &C::code_word);
  on_read("DATA", &C::data_word);
  on_write("CODE", &C::code_written);
  on_write("DATA", &C::data_written);
  on_port("CODE", FCTX_CODE, 4, &C::upload_read);
  on_port("DATA", FCTX_DATA, 4, &C::upload_read);
  on_write("CODE_VIRT_ADDR", &C::code_virt_addr);
  on_write("MMIO_CTRL", &C::bridge);
  // The method FIFO, the barrier, the error report (the gr block's unit behind the window is the
  // host's port, CoreHost::ctxsw_port).
  reg("SIGNAL").read([this](const Register&) { return signal(); });
  on_write("MTHD_PUSH", &C::push_method);
  on_write("FIFO_ACK", &C::pop_method);
  reg("FIFO_CMD").read([this](const Register&) { return fifo_.empty() ? 0u : fifo_.front().first; });
  reg("FIFO_DATA").read([this](const Register&) { return fifo_.empty() ? 0u : fifo_.front().second; });
  on_write("BAR_SET", &C::bar_set);
  if (cfg_.slot.hub) on_write("INTR_UP_SET", &C::intr_up);
  // The chip's Falcon version; CC_SCRATCH_SET and UNK86C at the chip's offsets (gpu_chips.h), the
  // other positions removed: the firmware of another chip stops at them, named.
  bank_.set_reset("UC_CAPS2", cfg_.fuc);
  const bool moved_set = cfg_.cc_scratch_set == FCTX_GK110_CC_SCRATCH_SET;
  const char* set_name = moved_set ? "GK110_CC_SCRATCH_SET" : "CC_SCRATCH_SET";
  for (unsigned i = 0; i < 8; ++i)
    bank_.remove((std::string(moved_set ? "CC_SCRATCH_SET" : "GK110_CC_SCRATCH_SET") + std::to_string(i)).c_str());
  bank_.remove(cfg_.unk86c == FCTX_GK110_UNK86C ? "UNK86C" : "GK110_UNK86C");
  // CC_SCRATCH_SET[n] / CC_SCRATCH_CLR[n] set / clear bits of CC_SCRATCH[n].
  for (unsigned i = 0; i < 8; ++i) {
    Register& word = reg(("CC_SCRATCH" + std::to_string(i)).c_str());
    reg((set_name + std::to_string(i)).c_str()).write([&word](Register&, uint32_t v) { word.value |= v; });
    reg(("CC_SCRATCH_CLR" + std::to_string(i)).c_str()).write([&word](Register&, uint32_t v) { word.value &= ~v; });
  }
}

void Ctxctl::per_index(const char* name, std::vector<uint32_t>& cells) {
  cells.assign(FCTX_IO_INDICES, 0);
  reg(name)
      .indexed(FCTX_IO_INDICES)
      .read([this, &cells](const Register&) { return cells[this_access().index]; })
      .write([this, &cells](Register&, uint32_t v) { cells[this_access().index] = v; });
}

void Ctxctl::stop_core(const std::string& why) {
  if (!failed_) {
    failed_ = true;
    failure_ = why;
    SC_REPORT_WARNING("hetvp/falcon", why.c_str());
    switch_abandoned();
  }
  core_->halt(why);
}

// The HUB's core stopped while a channel switch was in progress: the unit fails it at once (CHSW
// ERROR, GRC_ERR_HALTED), naming the channel, instead of the FIFO waiting out its chsw_timeout.
void Ctxctl::switch_abandoned() {
  if (!cfg_.slot.hub || !has_ctxsw() || !chsw_in_progress_) return;
  chsw_in_progress_ = false;
  uint32_t v = GRH_CHSW_ERROR | GRC_ERR_HALTED << GRH_CHSW_CODE_SHIFT;
  sc_core::sc_time d = stall_;
  forward_word(tlm::TLM_WRITE_COMMAND, GRH_CHSW, v, -1, d);
}

// --- interrupts (docs/hw/falcon/intr.rst) ----------------------------------------------------------

// INTR_SET / INTR_CLEAR, INTR_EN_SET / INTR_EN_CLR: write 1s to set (lines only) or clear bits of
// INTR or INTR_EN; the vectors follow.
void Ctxctl::set_clear(const char* name, Register& target, bool set) {
  reg(name).write([this, &target, set](Register&, uint32_t v) {
    target.value = set ? target.value | (v & FCTX_INTR_LINES) : target.value & ~v;
    if (&target == &intr_) fifo_level();  // the FIFO line is level-triggered (hub.fuc init: INTR_MODE)
    update_lines();
  });
}

void Ctxctl::update_lines(uint32_t) {
  const uint32_t active = intr_.value & intr_en_.value & FCTX_INTR_LINES;
  const uint32_t route = intr_route_.value;
  bool v0 = false, v1 = false;
  for (unsigned i = 0; i < 16; ++i) {
    if (!(active >> i & 1)) continue;
    const unsigned to = (route >> i & 1) | (route >> (16 + i) & 1) << 1;  // 0: vector 0, 1: host, 2: vector 1
    if (to == 0) v0 = true;
    if (to == 2) v1 = true;
  }
  core_->set_irq(IrqLine::external, v0);  // vector 0
  core_->set_irq(IrqLine::timer, v1);     // vector 1
  if (v0 || v1) wake();
}

// --- the context-switch unit, the method FIFO, the barrier ----------------------------------------

// The unit's CHSW interrupt sets line 8 at its arrival (FECS INTR_CHSW, macros.fuc:39); its "engines
// idle" (MCU_IRQ_CTXSW_BIT) is hetvp's RV32 firmware's and is not a Falcon line (nouveau polls SIGNAL).
void Ctxctl::irq_raised(unsigned bit, const sc_core::sc_time& delay) {
  if (bit != MCU_IRQ_CHSW_BIT) return;
  arrivals_.at(delay, [this] {
    ++chsw_irqs_;
    chsw_cycles_at_ = cycles_;
    chsw_in_progress_ = true;
    intr_.value |= FCTX_INTR_CHSW;
    update_lines();
  });
}

// An offset the unit answers goes to it, with the core's I/O index (io_index.h).
bool Ctxctl::ctxsw_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint32_t off = uint32_t(gp.get_address());
  if (!forwarded(off) || gp.get_data_length() != 4) return false;
  uint32_t v = 0;
  if (gp.is_write()) std::memcpy(&v, gp.get_data_ptr(), 4);
  // The core acknowledges a switch: the unit's per-switch statistic gets the HUB's cycles since the
  // CHSW interrupt, measured here (nouveau's firmware reports none; hetvp's writes CHSW_FW_CYCLES itself).
  // (Only for a CHSW the unit raised: the host's forced unload, ctxgf100.c:1549, is not a switch.)
  if (cur_index_ >= 0 && gp.is_write() && off == GRH_CHSW && (v & GRH_CHSW_ACK) && chsw_in_progress_) {
    uint32_t cycles = uint32_t(cycles_ - chsw_cycles_at_);
    chsw_cycles_ += cycles;
    chsw_in_progress_ = false;
    forward_word(tlm::TLM_WRITE_COMMAND, GRH_CHSW_FW_CYCLES, cycles, -1, delay);
  }
  const bool ok = forward_word(gp.get_command(), off, v, cur_index_, delay);
  if (ok && gp.is_read()) std::memcpy(gp.get_data_ptr(), &v, 4);
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return true;
}

// SIGNAL: the controller's done bits and, with a unit, its busy bits (strand 2, MMCTX 5).
uint32_t Ctxctl::signal() {
  uint32_t v = FCTX_SIGNAL_MMIO_DONE;
  if (bar_mask0_.value && (bar_.value & bar_mask0_.value) == bar_mask0_.value) v |= FCTX_SIGNAL_BAR_DONE;
  if (has_ctxsw()) {
    uint32_t u = 0;
    sc_core::sc_time d = this_access().delay;
    if (forward_word(tlm::TLM_READ_COMMAND, FCTX_SIGNAL, u, -1, d)) v |= u;
  }
  return v;
}

// MTHD_PUSH queues (command, MTHD_DATA); the FIFO line (2) is up while it holds one.
void Ctxctl::push_method(uint32_t cmd) {
  if (fifo_.size() >= FCTX_FIFO_DEPTH) {
    stop_core(format("%s: method FIFO overflow (%u entries) at command 0x%x data 0x%08x", cfg_.slot.path.c_str(),
                     FCTX_FIFO_DEPTH, cmd, reg("MTHD_DATA").value));
    return;
  }
  ++methods_;
  fifo_.emplace_back(cmd, reg("MTHD_DATA").value);
  fifo_level();
  update_lines();
}

void Ctxctl::pop_method(uint32_t) {
  if (!fifo_.empty()) fifo_.pop_front();
  fifo_level();
  update_lines();
}

void Ctxctl::fifo_level() {
  if (!fifo_.empty()) intr_.value |= FCTX_INTR_FIFO;
  else intr_.value &= ~FCTX_INTR_FIFO;
}

void Ctxctl::bar_set(uint32_t v) { bar_.value |= v; }

// The firmware's error report (hub.fuc / gpc.fuc `error`: CC_SCRATCH[5] = code, INTR_UP_SET = 1).
void Ctxctl::intr_up(uint32_t v) {
  const uint32_t code = reg("CC_SCRATCH5").value;
  stop_core(
      format("%s reported an error to the host at pc 0x%04x: INTR_UP_SET 0x%x, CC_SCRATCH[5] = 0x%08x "
             "(nouveau os.h code %u, command 0x%x)",
             cfg_.slot.path.c_str(), core_->read_pc(), v, code, code & 0xffff, code >> 16));
}

// --- control and upload ----------------------------------------------------------------------------

uint32_t Ctxctl::uc_ctrl() const {
  const CoreState s = core_->state();
  uint32_t v = (!started_ || s == CoreState::halted || s == CoreState::fatal) ? FCTX_UC_CTRL_STOPPED : 0;
  if (started_ && s == CoreState::sleeping) v |= FCTX_UC_CTRL_SLEEPING;
  return v;
}

// The host starts the core at UC_ENTRY; the core runs from the write's arrival.
void Ctxctl::uc_ctrl_written(uint32_t v) {
  if (v & FCTX_UC_CTRL_START) start_core(uc_entry_.value, this_access().delay);  // the reset zeroes $sp
}
void Ctxctl::on_start() {
  failed_ = false;
  failure_.clear();
  poll_key_ = ~0u;
}

// The core has no UC_CTRL in its I/O space: its write is refused (io_access stops it, named).
bool Ctxctl::core_writes_uc_ctrl(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  if (!gp.is_write() || initiator_of(gp) != core_info_->initiator) return false;
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return true;
}

uint32_t Ctxctl::code_word() const { return word_at(code_, code_index_.value); }
uint32_t Ctxctl::data_word() const { return word_at(data_, data_index_.value); }

void Ctxctl::code_written(uint32_t v) {
  const uint32_t a = code_index_.value & FCTX_INDEX_ADDR_MASK;
  if (a + 4 <= code_.size()) std::memcpy(&code_[a], &v, 4);
  core_->invalidate_code(a, 4);
  code_index_.value = advanced(code_index_.value, FCTX_INDEX_AINCW);
}

void Ctxctl::data_written(uint32_t v) {
  const uint32_t a = data_index_.value & FCTX_INDEX_ADDR_MASK;
  if (a + 4 <= data_.size()) std::memcpy(&data_[a], &v, 4);
  data_index_.value = advanced(data_index_.value, FCTX_INDEX_AINCW);
}

void Ctxctl::code_virt_addr(uint32_t v) { paging_.set_tlb((code_index_.value & FCTX_INDEX_ADDR_MASK) >> 8, v, 1); }

// A read of CODE / DATA advances the index (when it asks to): a side effect the table's reads
// (debug, peek) must not have, so the port serves it. Other accesses go to the table.
bool Ctxctl::upload_read(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  if (!gp.is_read() || gp.get_data_length() != 4 || gp.get_byte_enable_ptr()) return false;
  const bool code = gp.get_address() == FCTX_CODE;
  Register& index = code ? code_index_ : data_index_;
  const uint32_t v = word_at(code ? code_ : data_, index.value);
  std::memcpy(gp.get_data_ptr(), &v, 4);
  index.value = advanced(index.value, FCTX_INDEX_AINCR);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

// MMIO bridge: MMIO_CTRL bit 31 starts an access of BAR0 address bits 2-25 (+ MMIO_BASE with bit 0),
// bit 30 = write. The access completes inside the iowr; bit 31 reads back clear.
void Ctxctl::bridge(uint32_t ctrl) {
  mmio_ctrl_.value = ctrl & ~FCTX_MMIO_CTRL_PENDING;
  if (!(ctrl & FCTX_MMIO_CTRL_PENDING)) return;
  uint32_t addr = ctrl & FCTX_MMIO_CTRL_ADDR_MASK;
  if (ctrl & FCTX_MMIO_CTRL_BASE_ENABLE) addr += mmio_base_.value;
  const bool wr = ctrl & FCTX_MMIO_CTRL_WRITE;
  uint32_t v = wr ? mmio_wrval_.value : 0;
  set_access(gp_, wr ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, &v, 4);
  sc_core::sc_time d = stall_;  // the bridge's time inside this burst so far: the core waits for it
  bar0->b_transport(gp_, d);
  stall_ = d;
  if (!gp_.is_response_ok()) {
    stop_core(format("unmodelled register 0x%06x %s by %s at pc 0x%04x (through the MMIO bridge)", addr,
                     wr ? "written" : "read", cfg_.slot.path.c_str(), core_->read_pc()));
    return;
  }
  if (wr) {
    ++bridge_writes_;
    poll_key_ = ~0u;  // a write is progress
  } else {
    ++bridge_reads_;
    mmio_rdval_.value = v;
    watch_poll(0x80000000u | addr, v);
  }
}

bool Ctxctl::watch_poll(uint32_t key, uint32_t value) {
  if (cfg_.poll_watchdog == 0) return true;
  if (key == poll_key_ && value == poll_value_) {
    if (++poll_count_ >= cfg_.poll_watchdog) {
      stop_core(
          format("%s at pc 0x%04x polled %s 0x%06x %llu times without progress (value 0x%08x): stopped by the "
                 "poll watchdog (gpu0.microcontrollers.poll_watchdog)",
                 cfg_.slot.path.c_str(), core_->read_pc(), (key & 0x80000000u) ? "register" : "I/O register",
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

// --- the core's I/O space --------------------------------------------------------------------------

// One iord/iowr through the register table, with the address's index; false: refused or outside.
bool Ctxctl::io_access(tlm::tlm_command cmd, uint32_t addr, uint32_t& v) {
  if (addr >= FCTX_IO_SIZE) return false;
  set_access(core_gp_, cmd, FCTX_IO_OFFSET(addr), &v, 4);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  cur_index_ = int(FCTX_IO_INDEX(addr));
  serve(core_gp_, d, ReadTiming::AsIssued, FCTX_IO_INDEX(addr));
  cur_index_ = -1;
  if (d > stall_) stall_ = d;  // a forwarded access's time: the core waits for it
  return core_gp_.is_response_ok();
}

bool Ctxctl::read(uint32_t addr, uint32_t, uint32_t& v, uint64_t& extra) {
  ++io_reads_;
  extra = 0;
  const uint32_t off = FCTX_IO_OFFSET(addr);
  if (!io_access(tlm::TLM_READ_COMMAND, addr, v)) {
    stop_core(format("unmodelled register 0x%06x (I/O 0x%05x) read by %s at pc 0x%04x", cfg_.slot.bar0 + off, addr,
                     cfg_.slot.path.c_str(), core_->read_pc()));
    return true;
  }
  watched(off, false, v);
  // The bridge's control and the busy/done signals are part of every bridge access, not a poll;
  // SIGNAL read again and again with nothing between is a wait (com.fuc wait_donez/wait_doneo).
  if (off == FCTX_SIGNAL) {
    watch_signal(v);
    return true;
  }
  signal_polls_ = 0;
  if (off != FCTX_MMIO_CTRL && off != FCTX_MMIO_RDVAL) watch_poll(addr, v);
  return true;
}

bool Ctxctl::write(uint32_t addr, uint32_t, uint32_t v, uint64_t& extra) {
  ++io_writes_;
  extra = 0;
  signal_polls_ = 0;
  const uint32_t off = FCTX_IO_OFFSET(addr);
  // Progress for the poll watchdog: a write that changes a register (rewriting the same value, as
  // the bridge's control words and the firmware's trace words do in every poll iteration, is none).
  uint32_t old = 0;
  const bool readable = addr < FCTX_IO_SIZE && bank_.peek(off, old, FCTX_IO_INDEX(addr));
  if (off != FCTX_MMIO_CTRL && off != FCTX_MMIO_WRVAL && (!readable || old != v)) poll_key_ = ~0u;
  watched(off, true, v);
  if (!io_access(tlm::TLM_WRITE_COMMAND, addr, v))
    stop_core(format("unmodelled register 0x%06x (I/O 0x%05x) written by %s at pc 0x%04x", cfg_.slot.bar0 + off, addr,
                     cfg_.slot.path.c_str(), core_->read_pc()));
  return true;
}

// A wait on SIGNAL that never ends: the poll watchdog's count, naming what is awaited. DONE_BAR
// (bit 8) names the GPCs that have not reported (BAR_MASK0 bits missing from BAR).
bool Ctxctl::watch_signal(uint32_t value) {
  if (cfg_.poll_watchdog == 0) return true;
  if (signal_polls_ == 0 || value != signal_value_) {
    signal_polls_ = 1;
    signal_value_ = value;
    return true;
  }
  if (++signal_polls_ < cfg_.poll_watchdog) return true;
  std::string what = "SIGNAL";
  const uint32_t waiting = bar_mask0_.value & ~bar_.value;
  if (cfg_.slot.hub && waiting && !(value & FCTX_SIGNAL_BAR_DONE)) {
    what = "SIGNAL waiting for DONE_BAR: no done from GPC";
    for (unsigned g = 0; g < 32; ++g)
      if (waiting >> g & 1) what += format(" %u", g);
    what += format(" (BAR 0x%x, BAR_MASK0 0x%x)", bar_.value, bar_mask0_.value);
  } else if (value & 0x4u) {
    what = "SIGNAL waiting for the strand engine (bit 2 busy)";
  } else if (value & 0x20u) {
    what = "SIGNAL waiting for the MMCTX engine (bit 5 busy)";
  }
  stop_core(
      format("%s at pc 0x%04x polled %s %llu times without progress (value 0x%08x): stopped by the poll "
             "watchdog (gpu0.microcontrollers.poll_watchdog)",
             cfg_.slot.path.c_str(), core_->read_pc(), what.c_str(), (unsigned long long)signal_polls_, value));
  return false;
}

// FECS's port 0: the unit's memory port, address = (ext_base << 8) + offset from MEM_BASE.
bool Ctxctl::xfer(const XferRequest& r, std::string& error) {
  const bool code = r.mode == XferRequest::Mode::code_load;
  std::vector<uint8_t>& seg = code ? code_ : data_;
  const char* what = code ? "xcld" : r.mode == XferRequest::Mode::data_load ? "xdld" : "xdst";
  if (!has_ctxsw()) {
    error = format("%s (base 0x%x, offset 0x%x, %u bytes): no context-switch unit behind %s (add the gr block)", what,
                   r.ext_base, r.ext_offset, r.bytes, cfg_.slot.path.c_str());
    return false;
  }
  if (uint64_t(r.local) + r.bytes > seg.size()) {
    error = format("%s of %u bytes at %s address 0x%x: outside the segment (0x%zx bytes)", what, r.bytes,
                   code ? "code" : "data", r.local, seg.size());
    return false;
  }
  tlm::tlm_generic_payload gp;
  AccessInfo info;
  info.initiator = name();
  info.side = Side::Gpu;
  info.may_wait = false;
  gp.set_extension(&info);
  const uint64_t ext = (uint64_t(r.ext_base) << 8) + r.ext_offset;
  set_access(gp, r.mode == XferRequest::Mode::data_store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, ext,
             &seg[r.local], r.bytes);
  sc_core::sc_time d = stall_;
  ctxsw_mem->b_transport(gp, d);
  gp.clear_extension(&info);
  stall_ = d;
  if (!gp.is_response_ok()) {
    error = format("%s of %u bytes at offset 0x%" PRIx64 " from MEM_BASE failed: the context-switch unit refused it "
                   "(its warning names the address)",
                   what, r.bytes, ext);
    return false;
  }
  if (code) core_->invalidate_code(r.local, r.bytes);
  ++xfers_;
  xfer_bytes_ += r.bytes;
  poll_key_ = ~0u;  // a transfer is progress
  return true;
}

// --- host side -------------------------------------------------------------------------------------

bool Ctxctl::host_access(tlm::tlm_command cmd, uint32_t off, uint32_t& v, const sc_core::sc_time& delay) {
  tlm::tlm_generic_payload gp;
  set_access(gp, cmd, off, &v, 4);
  sc_core::sc_time d = delay;
  serve(gp, d, ReadTiming::AsIssued);
  return gp.is_response_ok();
}

bool Ctxctl::host_read(uint32_t off, uint32_t& v) {
  return host_access(tlm::TLM_READ_COMMAND, off, v, sc_core::SC_ZERO_TIME);
}

bool Ctxctl::host_write(uint32_t off, uint32_t v, const sc_core::sc_time& delay) {
  return host_access(tlm::TLM_WRITE_COMMAND, off, v, delay);
}

void Ctxctl::host_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
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

void Ctxctl::on_fatal() {
  if (failed_) return;
  failed_ = true;
  failure_ = cfg_.slot.path + ": " + core_->halt_reason();
  SC_REPORT_WARNING("hetvp/falcon", failure_.c_str());
  switch_abandoned();
}

RunResult Ctxctl::run_core(uint64_t budget) {
  const Disassembly* dis = cfg_.trace ? core_->disassembly() : nullptr;
  if (!dis) return core_->run(budget);
  RunResult r;
  r.reason = RunResult::Reason::budget;
  for (uint64_t k = 0; k < budget; ++k) {
    std::fprintf(stderr, "%s %04x: %s\n", cfg_.slot.path.c_str(), core_->read_pc(),
                 dis->disassemble_at(core_->read_pc()).c_str());
    const RunResult s = core_->step();
    r.cycles += s.cycles;
    r.instructions += s.instructions;
    r.reason = s.reason;
    if (s.reason != RunResult::Reason::budget) break;
  }
  return r;
}

}  // namespace hetvp::mcu::falcon
