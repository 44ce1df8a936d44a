#include "models/mcu/rv32/microcontroller.h"

#include <cinttypes>
#include <cmath>
#include <cstring>

#include "firmware/include/hetvp/mcu_map.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/gpu_regs.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/run_state.h"
#include "platform/trace.h"
#include "platform/format.h"
#include "platform/sim_time.h"

namespace hetvp::mcu {

namespace {
const RegSpec kMcuRegs[] = {HETVP_REG_TABLE(HETVP_MCU_REGS)};

CoreOptions core_options(const McuSideConfig& c) {
  CoreOptions o;
  o.strict_traps = c.strict_traps;  // RV32 options; another core has no such feature
  o.trap_watchdog = c.trap_watchdog;
  o.misaligned_emulate = c.misaligned == McuMisaligned::emulate;
  o.execution = c.execution == McuExecution::interpreted ? CoreOptions::Execution::interpreted
                : c.execution == McuExecution::threaded  ? CoreOptions::Execution::threaded
                                                         : CoreOptions::Execution::translated;
  return o;
}

// A GPC reaches the topology registers and every GPC block (its own and its peers'), not the
// host-facing units (PMC, MMU, copy engines) nor the HUB ...
std::vector<std::pair<uint32_t, uint32_t>> gpc_bar0_allow(const McuBlockConfig& c) {
  return {{GPU_PTOP_BASE, GPU_PTOP_BASE + GPU_WINDOW_PTOP},
          {c.gpc_bar0, c.gpc_window(16)},
          // ... except the HUB's IRQSSET: a GPC answering the HUB wakes it (FW_CMD_NOTIFY_HUB).
          {c.bar0 + MCU_IRQSSET, c.bar0 + MCU_IRQSSET + 4}};
}
}  // namespace

Microcontroller::Microcontroller(sc_core::sc_module_name n, const McuBlockConfig& cfg, const CoreSlot& slot)
    : CoreHost(n, kMcuRegs, make_core(cfg.side(slot.hub).core, core_options(cfg.side(slot.hub))),
               cfg.side(slot.hub).clock, uint32_t(cfg.side(slot.hub).code_size),
               uint32_t(cfg.side(slot.hub).data_size)),
      hub_(slot.hub),
      index_(slot.index),
      host_intr_bit_(slot.hub ? GPU_INTR_HUB : GPU_INTR_GPC(slot.index)),
      reg_cycles_(cfg.side(slot.hub).reg_cycles),
      local_time_bursts_(cfg.side(slot.hub).local_time_bursts) {
  const McuSideConfig& side = cfg.side(slot.hub);
  if (!hub_) bar0_allow_ = gpc_bar0_allow(cfg);
  const std::map<std::string, uint64_t> costs = side.cycle_cost_map();
  if (!costs.empty()) core_->set_cycle_costs(costs);
  core_->add_region({MCU_IMEM_BASE, uint32_t(code_.size()), code_.data(), false, true});
  core_->add_region({MCU_DMEM_BASE, uint32_t(data_.size()), data_.data(), true, false});
  core_->set_bus(this);
  if (DmiControl* d = core_->dmi_control())
    d->set_dmi(side.dmi);
  else if (!side.dmi)
    throw std::invalid_argument(std::string(name()) + ": dmi: false needs a core that can switch DMI off; " +
                                core_->isa() + " cannot");

  init_payloads();
  bind_registers();
  spawn_host_thread();  // the burst loop (core_host.h), created where this model's thread was
  SC_HAS_PROCESS(Microcontroller);
  SC_METHOD(xfer_done);
  sensitive << xfer_done_ev_;
  dont_initialize();
  SC_METHOD(timer_method);
  sensitive << timer_ev_;
  dont_initialize();
  declare_stats();
}

Microcontroller::~Microcontroller() = default;

void Microcontroller::init_payloads() {
  xfer_info_->initiator = name();
  xfer_info_->side = Side::Gpu;
  xfer_info_->may_wait = false;  // may be issued from inside the core's burst (at its own time, delay 0)
  xfer_gp_.set_extension(xfer_info_);
  bar0_info_->initiator = name();
  bar0_info_->uncached = true;
  bar0_info_->side = Side::Gpu;
  bar0_info_->may_wait = false;  // issued from inside the core's burst
  bar0_gp_.set_extension(bar0_info_);
  core_info_->initiator = name();  // the core's own accesses: from_core() tells them by this name
  core_info_->uncached = true;
  core_info_->side = Side::Gpu;
  core_gp_.set_extension(core_info_);
}

void Microcontroller::bind_registers() {
  // Declared in mcu_regs.h's table; behaviour bound by name (the handlers below). What the core
  // writes inside its burst (STATUS0, a mailbox) is seen by the host and the other cores only
  // when the core's local time reaches it.
  bank_.set_owner(core_info_->initiator);
  on_port("CODE", MCU_CODE, 4, &Microcontroller::upload_port);
  on_port("DATA", MCU_DATA, 4, &Microcontroller::upload_port);
  on_port("UC_EXIT", MCU_UC_EXIT, 4, &Microcontroller::write_rules);
  on_port("UC_CTRL", MCU_UC_CTRL, 4, &Microcontroller::write_rules);
  on_port("DBG_DATA", MCU_DBG_DATA, 4, &Microcontroller::write_rules);
  const uint32_t code_size = uint32_t(code_.size()), data_size = uint32_t(data_.size());
  bank_.set_reset("UC_CAPS", ((code_size >> 8) & 0x1ff) | (((data_size >> 8) & 0xff) << 9));
  bank_.set_reset("UC_ID", (index_ & MCU_UC_ID_INDEX_MASK) | (hub_ ? MCU_UC_ID_HUB : 0u));
  bank_.set_reset("UC_CLOCK_KHZ", uint32_t(clock_hz_ / 1000.0 + 0.5));
  irqstat_ = &bank_.named("IRQSTAT");
  irqmask_ = &bank_.named("IRQMASK");
  xfer_status_ = &bank_.named("XFER_STATUS");
  using M = Microcontroller;
  on_write("IRQSSET", &M::irqsset);
  on_write("IRQSCLR", &M::irqsclr);
  on_write("IRQMSET", &M::irqmset);
  on_write("IRQMCLR", &M::irqmclr);
  on_write("HOST_INTR", &M::host_intr);
  on_read("UC_CTRL", &M::uc_ctrl);
  on_write("UC_CTRL", &M::uc_ctrl_written);
  on_write("UC_EXIT", &M::uc_exit);
  on_read("UC_ID", &M::uc_id);
  on_read("UC_TRAP_PC", &M::trap_pc);
  on_read("UC_TRAP_CAUSE", &M::trap_cause);
  on_read("UC_TRAP_VAL", &M::trap_val);
  on_write("UC_FW_TRAP", &M::fw_trap);
  on_read("UC_INSTRET_LO", &M::instret_lo);
  on_read("UC_INSTRET_HI", &M::instret_hi);
  on_read("UC_CYCLES_LO", &M::cycles_lo);
  on_read("UC_CYCLES_HI", &M::cycles_hi);
  on_read("DBG_DATA", &M::dbg_data);
  on_write("DBG_DATA", &M::dbg_data_written);
  on_write("XFER_CTRL", &M::xfer_ctrl);
  on_write("TIMER_CTRL", &M::timer_ctrl);
  on_write("METHOD_CMD", &M::method_cmd);
  on_write("STATUS1", &M::status1);
}

// ---- register behaviour (bound by name in the constructor). Writes that start work act at the
// access's arrival time (this_access().delay): for the core that is its local time inside the
// current burst, for the host the link's arrival.
void Microcontroller::irqsset(uint32_t v) {
  if (from_core()) return set_irq_bits(v & MCU_IRQ_ALL);  // the core sees its own write at once
  arrivals_.at(this_access().delay, [this, v] { set_irq_bits(v & MCU_IRQ_ALL); });
}
void Microcontroller::irqsclr(uint32_t v) {
  irqstat_->value &= ~v;
  update_irq_line();
}
void Microcontroller::irqmset(uint32_t v) {
  irqmask_->value |= v & MCU_IRQ_ALL;
  update_irq_line();
}
void Microcontroller::irqmclr(uint32_t v) {
  irqmask_->value &= ~v;
  update_irq_line();
}
void Microcontroller::host_intr(uint32_t) {
  ++host_intrs_;
  bank_.at(MCU_HOST_INTR_COUNT).value++;
  intr->raise(host_intr_bit_, this_access().delay);
}
uint32_t Microcontroller::uc_ctrl() const {
  uint32_t v = state() | (started_ ? MCU_CTRL_STARTED : 0);
  if (mode_ == RunMode::trapped) v |= (trap_cause_ & 0xff) << MCU_CTRL_CAUSE_SHIFT;
  return v;
}
void Microcontroller::uc_ctrl_written(uint32_t v) { control(v, from_core() ? From::Core : From::Host); }
void Microcontroller::uc_exit(uint32_t v) {
  exit_code_ = v;
  mode_ = RunMode::halted;
  halt_why_ = "firmware exited with code " + std::to_string(v);
  core_->halt(halt_why_);
}
void Microcontroller::fw_trap(uint32_t) {
  const TrapInfo t = core_->last_trap();  // the trap the firmware's handler is in
  std::string buf = format("firmware reported trap: mcause 0x%x at pc 0x%08x (mtval 0x%08x)", t.cause, t.pc, t.value);
  record_trap(t.pc, t.cause, t.value, buf);
  core_->halt(buf);
}
uint32_t Microcontroller::dbg_data() const {
  const uint32_t i = bank_.at(MCU_DBG_INDEX).value;
  return i < 32 ? core_->read_gpr(i) : i == 32 ? core_->read_pc() : 0u;
}
void Microcontroller::dbg_data_written(uint32_t v) {
  const uint32_t i = bank_.at(MCU_DBG_INDEX).value;
  if (i < 32)
    core_->write_gpr(i, v);
  else if (i == 32)
    core_->write_pc(v);
}
void Microcontroller::xfer_fault(uint32_t ctrl, uint32_t code) {
  if (code != MCU_XFER_ERR_BUSY)
    xfer_status_->value = MCU_XFER_FAULT | (code << 8);
  else
    xfer_status_->value |= MCU_XFER_FAULT | (code << 8);
  ++xfer_faults_;
  bank_.at(MCU_XFER_FAULTS).value++;
  std::string buf = format("%s: xfer refused (code %u): ctrl 0x%x, ext 0x%" PRIx64 ", dmem 0x%x", name(), code, ctrl,
                           (uint64_t(bank_.at(MCU_XFER_EXT_HI).value) << 32) | bank_.at(MCU_XFER_EXT_LO).value,
                           bank_.at(MCU_XFER_DMEM).value);
  SC_REPORT_INFO("hetvp/mcu", buf.c_str());
  set_irq_bits(MCU_IRQ_XFER);  // the firmware waiting for "done" learns about the fault too
}
void Microcontroller::xfer_ctrl(uint32_t v) {
  if (xfer_busy_) return xfer_fault(v, MCU_XFER_ERR_BUSY);
  const unsigned n = v & 0xf;
  if (n < 2 || n > 8) return xfer_fault(v, MCU_XFER_ERR_SIZE);
  const uint32_t len = 1u << n;
  const uint32_t ext_hi = bank_.at(MCU_XFER_EXT_HI).value;
  if (ext_hi > 0xff) return xfer_fault(v, MCU_XFER_ERR_BUS);  // beyond the 40-bit GPU address space
  const uint64_t ext = (uint64_t(ext_hi) << 32) | bank_.at(MCU_XFER_EXT_LO).value;
  const uint32_t dm = bank_.at(MCU_XFER_DMEM).value;
  if ((ext & (len - 1)) || (dm & (len - 1))) return xfer_fault(v, MCU_XFER_ERR_ALIGN);
  if (dm >= data_.size() || data_.size() - dm < len) return xfer_fault(v, MCU_XFER_ERR_DMEM);
  xfer_busy_ = true;
  xfer_ext_ = ext;
  xfer_dmem_ = dm;
  xfer_len_ = len;
  xfer_store_ = (v & MCU_XFER_DIR_STORE) != 0;
  xfer_status_->value = MCU_XFER_BUSY;
  xfer_started_ = false;
  if (from_core() && in_run()) {
    // The core's own write, inside its burst: the core's thread serves the xfer itself (no second
    // process) at the core's local time, then runs on inside the burst (it usually reaches its wfi
    // before the xfer ends), but not past the xfer's end, when the interrupt is raised. When no
    // other process has anything to do before that local time, the xfer is issued now with the
    // core's offset as its delay (nobody can tell); else SystemC time catches up first, so an
    // overlapping transfer of another initiator is served in time order.
    const sc_core::sc_time ahead = core_offset();
    if (local_time_bursts_ && ahead > sc_core::SC_ZERO_TIME && unobserved_for(ahead)) {
      start_xfer(ahead);
    } else {
      sync_to_local_time();
      start_xfer();
    }
    end_burst_by(xfer_done_at_);
  } else {
    arrivals_.at(this_access().delay, [this] { start_xfer(); });  // a host write: at its arrival
  }
}

// One b_transport of the whole block on the GPU VA port, at SystemC's current time plus `offset`
// (the write's arrival). Its end is an event: xfer_done() then sets the status and raises IRQ XFER
// (or the core's thread serves it in local time: inline_wake).
void Microcontroller::start_xfer(const sc_core::sc_time& offset) {
  const sc_core::sc_time now = hetvp::sim_now() + offset;
  set_access(xfer_gp_, xfer_store_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, xfer_ext_, &data_[xfer_dmem_],
             xfer_len_);
  sc_core::sc_time d = offset;
  xfer.b_transport(xfer_gp_, d);
  d -= offset;
  xfer_start_at_ = now;
  xfer_done_at_ = now + d;
  xfer_started_ = true;
  xfer_done_ev_.notify(offset + d);
}

sc_core::sc_event* Microcontroller::inline_event(sc_core::sc_time& at, bool& wakes) {
  // Only the xfer's end (xfer_done: status registers and the core's own interrupt, nothing another
  // process sees before it next runs), and only when nothing else of this model's own (a host
  // write's arrival, the timer) is due first.
  if (!xfer_busy_ || !xfer_started_) return nullptr;
  if (arrivals_.next_due() <= xfer_done_at_ || timer_due_ <= xfer_done_at_) return nullptr;
  at = xfer_done_at_;
  wakes = (irqmask_->value & MCU_IRQ_XFER) != 0;  // IRQ XFER raises the core's line when unmasked
  return &xfer_done_ev_;
}
void Microcontroller::timer_ctrl(uint32_t v) {
  timer_ev_.cancel();
  timer_due_ = sc_core::sc_max_time();
  if (v & 1) {
    uint64_t c = bank_.at(MCU_TIMER_CYCLES).value;
    if (c == 0) c = 1;
    timer_ev_.notify(cycles_to_time(c) + this_access().delay);
    timer_due_ = this_access().arrival() + cycles_to_time(c);
    if (from_core()) core_->request_stop();  // the next burst must end when the timer fires
  }
  bank_.at(MCU_TIMER_CTRL).value = v & 3;
}
void Microcontroller::method_cmd(uint32_t v) {
  if (from_core()) return;
  ++commands_;
  cmd_open_ = true;
  cmd_word_ = v;
  cmd_start_ = this_access().arrival();
  HETVP_DEBUG(Mcu, "command 0x%08x arrives at %s", v, cmd_start_.to_string().c_str());
  arrivals_.at(this_access().delay, [this] { set_irq_bits(MCU_IRQ_METHOD); });
}
void Microcontroller::status1(uint32_t) {
  // The basic firmware acknowledges a command here: close its span on the timeline.
  if (!from_core() || !cmd_open_) return;
  cmd_open_ = false;
  Tracer& tr = tracer();
  if (cmd_track_.on(tr)) {
    const sc_core::sc_time end = this_access().arrival();
    tr.span(cmd_track_.name(), "cmd " + std::to_string(cmd_word_ & 0xff), cmd_start_,
            end > cmd_start_ ? end - cmd_start_ : sc_core::SC_ZERO_TIME);
  }
}

bool Microcontroller::upload_allowed() const {
  return mode_ == RunMode::idle || mode_ == RunMode::halted || mode_ == RunMode::trapped || mode_ == RunMode::stopped;
}

bool Microcontroller::refuse(tlm::tlm_generic_payload& gp, const std::string& why) {
  ++refused_;
  std::string buf = format(" (offset 0x%" PRIx64 ", by %s, core %s)", uint64_t(gp.get_address()), initiator_of(gp),
                           mcu_state_name(state()));
  SC_REPORT_WARNING("hetvp/mcu", (std::string(name()) + ": " + why + buf).c_str());
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  return false;
}

void Microcontroller::set_irq_bits(uint32_t bits) {
  irqstat_->value |= bits;
  update_irq_line();
}

void Microcontroller::update_irq_line() {
  const bool level = (irqstat_->value & irqmask_->value) != 0;
  if (level == irq_line_) return;
  irq_line_ = level;
  core_->set_irq(IrqLine::external, level);
  if (level) wake();
}

void Microcontroller::record_trap(uint32_t pc, uint32_t cause, uint32_t val, const std::string& why) {
  trap_pc_ = pc;
  trap_cause_ = cause;
  trap_val_ = val;
  halt_why_ = why;
  mode_ = RunMode::trapped;
  ++traps_;
  SC_REPORT_WARNING("hetvp/mcu", (std::string(name()) + ": core trapped and stopped: " + why).c_str());
  // Tell the host at once (its PMC_INTR bit), so a driver waiting on this microcontroller does
  // not sit out its timeout; UC_CTRL says why.
  ++host_intrs_;
  intr->raise(host_intr_bit_, core_offset());
}

// UC_CTRL's actions by name, for the Mcu debug messages: "start", "stop+step", "none".
static std::string control_names(uint32_t v) {
  static const std::pair<uint32_t, const char*> kActions[] = {
      {MCU_CTRL_RESET, "reset"}, {MCU_CTRL_START, "start"}, {MCU_CTRL_STOP, "stop"}, {MCU_CTRL_STEP, "step"},
      {MCU_CTRL_CONT, "cont"}};
  std::string s;
  for (const auto& [bit, name] : kActions)
    if (v & bit) s += (s.empty() ? "" : "+") + std::string(name);
  return s.empty() ? "none" : s;
}

void Microcontroller::control(uint32_t v, From from) {
  if (from == From::Core) return;  // the core cannot start/stop itself (documented)
  // The core starts, stops and resumes when the write arrives; its state changes now, which
  // only this module's thread (waiting on ctrl_ev_) acts on.
  const sc_core::sc_time at = this_access().delay;
  HETVP_DEBUG(Mcu, "control 0x%x (%s) from the host, in %s", v, control_names(v).c_str(), at.to_string().c_str());
  if (v & MCU_CTRL_RESET) reset_run(at);
  if (v & MCU_CTRL_START) start_core(bank_.at(MCU_UC_ENTRY).value, at);
  if (v & MCU_CTRL_STOP) stop_run(at);
  if (v & MCU_CTRL_STEP) step_once();
  if (v & MCU_CTRL_CONT) resume_run(at);
}

// UC_CTRL START: the interrupt line as it is, no trap recorded.
void Microcontroller::on_start() {
  core_->set_irq(IrqLine::external, irq_line_);
  halt_why_.clear();
  trap_pc_ = trap_cause_ = trap_val_ = 0;
}

// A fatal trap ended the core's run (in a burst or a step): UC_TRAP_* and the host interrupt.
void Microcontroller::on_fatal() {
  const TrapInfo t = core_->last_trap();
  record_trap(core_->read_pc(), t.cause, t.value, core_->halt_reason());
}

// CODE / DATA: the upload ports, through CODE_INDEX / DATA_INDEX (auto-increment on read or
// write as the index asks). Only while the core is stopped or in reset.
bool Microcontroller::upload_port(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address());
  if (gp.get_data_length() != 4 || (off & 3) || gp.get_byte_enable_ptr()) return false;  // the table refuses it
  const bool code = off == MCU_CODE;
  if (!upload_allowed())
    return !refuse(
        gp, std::string(code ? "CODE" : "DATA") + " upload port used while the core runs (stop or reset it first)");
  Register& idx = bank_.at(code ? MCU_CODE_INDEX : MCU_DATA_INDEX);
  const uint32_t a = index_address(idx.value, MCU_INDEX_ADDR_MASK);
  std::vector<uint8_t>& mem = memory(code);
  const uint32_t size = uint32_t(mem.size());
  if (a >= size)
    return !refuse(gp, format("%s index 0x%x is outside the %s memory (%u bytes)", code ? "CODE" : "DATA", a,
                              code ? "code" : "data", size));
  if (gp.is_read()) {
    std::memcpy(gp.get_data_ptr(), &mem[a], 4);
    idx.value = index_advanced(idx.value, MCU_INDEX_AINCR, MCU_INDEX_ADDR_MASK);
  } else {
    std::memcpy(&mem[a], gp.get_data_ptr(), 4);
    if (code) core_->invalidate_code(MCU_IMEM_BASE + a, 4);
    idx.value = index_advanced(idx.value, MCU_INDEX_AINCW, MCU_INDEX_ADDR_MASK);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

// Who may write what: true (refused) or false (the table serves the access).
bool Microcontroller::write_rules(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address());
  if (!gp.is_write() || gp.get_data_length() != 4 || gp.get_byte_enable_ptr()) return false;
  const bool core = std::strcmp(initiator_of(gp), core_info_->initiator) == 0;
  if (off == MCU_UC_EXIT && !core) return !refuse(gp, "UC_EXIT is written by the firmware only");
  // in_run_: the access comes from this very core, e.g. the HUB through its BAR0 window.
  if (off == MCU_UC_CTRL && (core || in_run())) return !refuse(gp, "the core cannot write its own UC_CTRL");
  if (off == MCU_DBG_DATA && !upload_allowed())
    return !refuse(gp, "DBG_DATA written while the core runs (stop it first)");
  return false;
}

void Microcontroller::host_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  serve(gp, delay, ReadTiming::CatchUp);  // a read may catch up to its arrival
}

uint32_t Microcontroller::uc_id() const { return bank_.at(MCU_UC_ID).value | (has_ctxsw() ? MCU_UC_ID_CTXSW : 0u); }

void Microcontroller::irq_raised(unsigned bit, const sc_core::sc_time& delay) {
  if (bit >= 32) return;
  const uint32_t mask = 1u << bit;
  if (delay == sc_core::SC_ZERO_TIME) return set_irq_bits(mask);
  arrivals_.at(delay, [this, mask] { set_irq_bits(mask); });
}

// The core's accesses outside its direct memories: its own register block and the BAR0 window.
// Returns 1 handled ok, 0 handled with an access fault, -1 not an I/O address.
int Microcontroller::io_access(tlm::tlm_command cmd, uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra) {
  if (addr >= MCU_REG_BASE && addr < MCU_REG_BASE + MCU_REG_SIZE) {
    if (size != 4) return 0;
    // The interrupt state other processes set (a GPC's answer, an engine's end): read and
    // acknowledged as of the core's own time (CoreHost::catch_up_if_observed).
    const uint32_t off = addr - MCU_REG_BASE;
    if (cmd == tlm::TLM_READ_COMMAND ? off == MCU_IRQSTAT : off == MCU_IRQSCLR) catch_up_if_observed();
    if (cmd == tlm::TLM_WRITE_COMMAND) watched(addr - MCU_REG_BASE, true, value);
    if (forwarded(addr - MCU_REG_BASE)) {  // the context-switch unit's register: through its socket, timed
      set_access(bar0_gp_, cmd, addr - MCU_REG_BASE, &value, 4);
      const sc_core::sc_time issued = core_offset();
      sc_core::sc_time d = issued;
      ctxsw->b_transport(bar0_gp_, d);
      const sc_core::sc_time took = d > issued ? d - issued : sc_core::SC_ZERO_TIME;
      extra = reg_cycles_ + uint64_t(std::ceil(took.to_seconds() * clock_hz_));
      if (cmd == tlm::TLM_READ_COMMAND) watched(addr - MCU_REG_BASE, false, value);
      made_activity();
      // A command to the unit: bursts step with it until it is idle (CoreHost::ctxsw_commanded).
      if (cmd == tlm::TLM_WRITE_COMMAND) ctxsw_commanded(hetvp::sim_now() + issued);
      return bar0_gp_.is_response_ok() ? 1 : 0;
    }
    set_access(core_gp_, cmd, addr - MCU_REG_BASE, &value, 4);
    sc_core::sc_time at = core_offset();
    serve(core_gp_, at, ReadTiming::AsIssued);  // the core never waits
    if (cmd == tlm::TLM_WRITE_COMMAND) made_activity();  // e.g. a host interrupt
    extra = reg_cycles_;
    if (cmd == tlm::TLM_READ_COMMAND) watched(addr - MCU_REG_BASE, false, value);
    return core_gp_.is_response_ok() ? 1 : 0;
  }
  if (addr >= MCU_BAR0_BASE && addr - MCU_BAR0_BASE < MCU_BAR0_SIZE) {
    const uint32_t off = addr - MCU_BAR0_BASE;
    bool ok = bar0_allow_.empty();
    for (auto& [lo, hi] : bar0_allow_) ok |= off >= lo && off < hi;
    if (!ok || size != 4) return 0;
    // A poll of another core's register (a GPC's STATUS1) sees what that core wrote before this
    // core's local time, even when it ran behind (CoreHost::catch_up_if_observed).
    if (cmd == tlm::TLM_READ_COMMAND) catch_up_if_observed();
    set_access(bar0_gp_, cmd, off, &value, 4);
    // Issued at the core's local time, so a register it writes acts when the write arrives.
    const sc_core::sc_time issued = core_offset();
    sc_core::sc_time d = issued;
    bar0.b_transport(bar0_gp_, d);
    made_activity();
    ++bar0_accesses_;
    const sc_core::sc_time took = d > issued ? d - issued : sc_core::SC_ZERO_TIME;
    extra = reg_cycles_ + uint64_t(std::ceil(took.to_seconds() * clock_hz_));
    return bar0_gp_.is_response_ok() ? 1 : 0;
  }
  return -1;
}

bool Microcontroller::read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra) {
  if (int io = io_access(tlm::TLM_READ_COMMAND, addr, size, value, extra); io >= 0) return io == 1;
  // DMI off: the direct memories are served here.
  if (uint64_t(uint32_t(addr - MCU_IMEM_BASE)) + size <= code_.size()) {  // unsigned wrap: below base = huge
    value = 0;
    std::memcpy(&value, &code_[addr - MCU_IMEM_BASE], size);
    return true;
  }
  if (addr >= MCU_DMEM_BASE && addr - MCU_DMEM_BASE + size <= data_.size()) {
    value = 0;
    std::memcpy(&value, &data_[addr - MCU_DMEM_BASE], size);
    return true;
  }
  return false;
}

bool Microcontroller::write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra) {
  if (int io = io_access(tlm::TLM_WRITE_COMMAND, addr, size, value, extra); io >= 0) return io == 1;
  if (addr >= MCU_DMEM_BASE && addr - MCU_DMEM_BASE + size <= data_.size()) {
    std::memcpy(&data_[addr - MCU_DMEM_BASE], &value, size);
    return true;
  }
  return false;
}

bool Microcontroller::debug_read(uint32_t addr, uint8_t* dst, uint32_t len) {
  for (uint32_t i = 0; i < len; ++i) {
    const uint32_t a = addr + i;
    if (uint32_t(a - MCU_IMEM_BASE) < code_.size())
      dst[i] = code_[a - MCU_IMEM_BASE];
    else if (a >= MCU_DMEM_BASE && a - MCU_DMEM_BASE < data_.size())
      dst[i] = data_[a - MCU_DMEM_BASE];
    else if (a >= MCU_REG_BASE && a < MCU_REG_BASE + MCU_REG_SIZE) {
      const uint32_t off = (a - MCU_REG_BASE) & ~3u;
      uint32_t v = 0;
      if (bank_.has(off)) {
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_READ_COMMAND);
        gp.set_address(off);
        gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        gp.set_data_length(4);
        bank_.debug(gp);
      }
      dst[i] = uint8_t(v >> (8 * (a & 3)));
    } else
      return false;
  }
  return true;
}

bool Microcontroller::debug_write(uint32_t addr, const uint8_t* src, uint32_t len) {
  for (uint32_t i = 0; i < len; ++i) {
    const uint32_t a = addr + i;
    if (uint32_t(a - MCU_IMEM_BASE) < code_.size())
      code_[a - MCU_IMEM_BASE] = src[i];
    else if (a >= MCU_DMEM_BASE && a - MCU_DMEM_BASE < data_.size())
      data_[a - MCU_DMEM_BASE] = src[i];
    else
      return false;
  }
  if (addr < code_.size()) core_->invalidate_code(addr & ~1u, len + 2);
  return true;
}

void Microcontroller::timer_method() {
  Register& ctrl = bank_.at(MCU_TIMER_CTRL);
  if (!(ctrl.value & 1)) return;
  set_irq_bits(MCU_IRQ_TIMER);
  if (ctrl.value & 2) {
    uint64_t c = bank_.at(MCU_TIMER_CYCLES).value;
    timer_ev_.notify(cycles_to_time(c ? c : 1));
    timer_due_ = hetvp::sim_now() + cycles_to_time(c ? c : 1);
  } else {
    ctrl.value &= ~1u;
    timer_due_ = sc_core::sc_max_time();
  }
}

void Microcontroller::xfer_done() {
  xfer_busy_ = false;
  if (xfer_gp_.is_response_ok()) {
    xfer_status_->value = 0;
    ++xfers_;
    xfer_bytes_ += xfer_len_;
    bank_.at(MCU_XFER_COUNT).value++;
    bank_.at(MCU_XFER_BYTES).value += xfer_len_;
  } else {
    xfer_status_->value = MCU_XFER_FAULT | (MCU_XFER_ERR_BUS << 8);
    ++xfer_faults_;
    bank_.at(MCU_XFER_FAULTS).value++;
    std::string buf =
        format("%s: xfer %s of %u B at GPU VA 0x%" PRIx64 " faulted (%s)", name(), xfer_store_ ? "store" : "load",
               xfer_len_, xfer_ext_, xfer_gp_.get_response_string().c_str());
    SC_REPORT_INFO("hetvp/mcu", buf.c_str());
  }
  xfer_time_ += xfer_done_at_ - xfer_start_at_;
  HETVP_DEBUG(Mcu, "xfer %s of %u B at GPU VA 0x%" PRIx64 " done at %s", xfer_store_ ? "store" : "load", xfer_len_,
              xfer_ext_, xfer_done_at_.to_string().c_str());
  if (xfer_track_.on(tracer()))
    tracer().span(xfer_track_.name(),
                  std::string(xfer_store_ ? "store " : "load ") + std::to_string(xfer_len_) + " B", xfer_start_at_,
                  xfer_done_at_ - xfer_start_at_);
  run_state().progress();
  set_irq_bits(MCU_IRQ_XFER);
}

sc_core::sc_time Microcontroller::next_own_event() const {
  sc_core::sc_time t = arrivals_.next_due();
  if (xfer_busy_ && xfer_started_) t = std::min(t, xfer_done_at_);  // not started: its arrival is queued
  return std::min(t, timer_due_);
}

void Microcontroller::declare_stats() {
  stats_.value("state", "", "core state at the end (MCU_STATE_* name)", [this] { return mcu_state_name(state()); })
      .value("clock_hz", "Hz", "core clock", [this] { return clock_hz_; })
      .counter("starts", "count", "times the core was started", starts_)
      .counter("instructions", "count", "instructions retired", instructions_)
      .counter("cycles", "cycles", "core cycles", cycles_)
      .counter("bursts", "count", "run bursts (the core runs in bursts between synchronisations)", bursts_)
      .time("run_ns", "time the core was running", run_time_)
      .value("sleep_ns", "ns", "time the core was sleeping (waiting for an event), the current sleep included",
             [this] {
               sc_core::sc_time slept = sleep_time_;
               if (mode_ == RunMode::sleeping && hetvp::sim_now() > sleep_since_)
                 slept += hetvp::sim_now() - sleep_since_;
               return slept.to_seconds() * 1e9;
             })
      .counter("wakeups", "count", "wake-ups from sleep", wakeups_)
      .counter("commands", "count", "host commands received", commands_)
      .counter("host_interrupts", "count", "interrupts raised to the host (HOST_INTR)", host_intrs_)
      .counter("xfers", "count", "xfer DMA transfers", xfers_)
      .counter("xfer_bytes", "bytes", "bytes moved by xfer DMA", xfer_bytes_)
      .counter("xfer_faults", "count", "xfer DMA transfers that faulted", xfer_faults_)
      .time("xfer_ns", "time xfer DMA was busy", xfer_time_)
      .counter("bar0_accesses", "count", "accesses by the core to the GPU's BAR0", bar0_accesses_)
      .counter("traps", "count", "traps taken by the core", traps_)
      .counter("refused_accesses", "count", "core accesses refused (outside its windows)", refused_)
      .value("register_errors", "count", "illegal register-block accesses", [this] { return bank_.errors(); })
      .value("exit_code", "", "exit code written to MCU_UC_EXIT (only when halted)",
             [this] { return uint64_t(exit_code_); })
      .when([this] { return mode_ == RunMode::halted; })
      .value("halt_reason", "", "why the core halted (only when it did, for a reason)", [this] { return halt_why_; })
      .when([this] { return !halt_why_.empty(); });
}

}  // namespace hetvp::mcu
