// hetvp — the SystemC host of a microcontroller core (core_host.h): the one burst loop.
#include "models/mcu/core_host.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_map.h"
#include "models/gpu/gr/io_index.h"
#include "models/mcu/gdb_stub.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/run_state.h"
#include "platform/sim_time.h"
#include "platform/trace.h"

namespace hetvp::mcu {

namespace {
// The context-switch unit's registers, from its own tables (gr_ctxsw.h): the HUB's unit answers
// both, a GPC's the first (a GPC's unit refuses a HUB register, as it did before).
const RegSpec kCtxswRegs[] = {HETVP_REG_TABLE(HETVP_GR_CTXSW_REGS) HETVP_REG_TABLE(HETVP_GR_HUB_REGS)};

struct CtxswWords {
  std::vector<bool> word = std::vector<bool>(MCU_REG_SIZE / 4);  // by offset / 4
  uint32_t lo = MCU_REG_SIZE, hi = 0;                            // [lo, hi): the span of them
  CtxswWords() {
    for (const RegSpec& r : kCtxswRegs)
      for (uint32_t i = 0; i < r.count; ++i) {
        word.at(r.offset / 4 + i) = true;
        lo = std::min(lo, r.offset + 4 * i);
        hi = std::max(hi, r.offset + 4 * i + 4);
      }
  }
};
const CtxswWords& ctxsw_words() {
  static const CtxswWords w;
  return w;
}
}  // namespace

CoreHost::~CoreHost() = default;

void CoreHost::init_ctxsw() {
  irq_impl_.host = this;
  irq_in.bind(irq_impl_);
  fwd_info_ = new AccessInfo;
  fwd_info_->initiator = name();
  fwd_info_->side = Side::Gpu;
  fwd_info_->uncached = true;
  fwd_info_->may_wait = false;  // served inside the core's burst or a host access
  fwd_gp_.set_extension(fwd_info_);
  const CtxswWords& w = ctxsw_words();
  on_port("ctxsw", w.lo, w.hi - w.lo, &CoreHost::ctxsw_port_entry);
  on_port("debug", DBG_PORT_BASE, DBG_PORT_END - DBG_PORT_BASE, &CoreHost::debug_port_entry);
}

void CoreHost::attach_ctxsw(TargetSocketBase& regs, TargetSocketBase& mem) {
  ctxsw.bind(regs);
  if (xfers_through_ctxsw_) ctxsw_mem.bind(mem);
  has_ctxsw_ = true;
}

bool CoreHost::forwarded(uint64_t off) const {
  if (!has_ctxsw_ || off >= MCU_REG_SIZE || !ctxsw_words().word[off / 4]) return false;
  for (uint32_t o : own_)
    if (o == (off & ~uint64_t(3))) return false;
  return true;
}

bool CoreHost::ctxsw_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!forwarded(gp.get_address())) return false;
  forward_access(gp, delay);
  return true;
}

bool CoreHost::forward_word(tlm::tlm_command cmd, uint32_t off, uint32_t& v, int index, sc_core::sc_time& d) {
  gpu::IoIndex ix;
  ix.index = index < 0 ? 0u : unsigned(index);
  if (index >= 0) fwd_gp_.set_extension(&ix);
  set_access(fwd_gp_, cmd, off, &v, 4);
  ctxsw->b_transport(fwd_gp_, d);
  if (index >= 0) fwd_gp_.clear_extension(&ix);
  return fwd_gp_.is_response_ok();
}

void CoreHost::start_core(uint32_t entry, const sc_core::sc_time& at) {
  core_->reset(entry);
  on_start();
  started_ = true;
  ++starts_;
  start_run(at);
}

void CoreHost::spawn_host_thread() {
  SC_HAS_PROCESS(CoreHost);
  SC_THREAD(thread);
}

void CoreHost::attach_gdb(std::unique_ptr<GdbStub> gdb_server) {
  if (core_->gdb_layout() == GdbLayout::none)
    throw std::invalid_argument(std::string(name()) + ": the " + core_->isa() +
                                " core has no GDB register layout (the GDB stub serves RV32 cores)");
  gdb_ = std::move(gdb_server);
}

bool CoreHost::debug_read(uint32_t, uint8_t*, uint32_t) { return false; }
bool CoreHost::debug_write(uint32_t, const uint8_t*, uint32_t) { return false; }

sc_core::sc_time CoreHost::core_offset() const {
  if (!in_run_) return sc_core::SC_ZERO_TIME;
  return seg_base_ + cycles_to_time(core_->cycles() - run_start_cycles_) + stall_ - synced_;
}

void CoreHost::end_burst_by(const sc_core::sc_time& at) {
  if (!in_run_) return;
  const sc_core::sc_time start = burst_start_ + seg_base_;  // the current run's start
  const uint64_t cycles = at > start ? static_cast<uint64_t>(std::ceil((at - start).to_seconds() * clock_hz_)) : 0;
  core_->stop_at(run_start_cycles_ + std::max<uint64_t>(cycles, 1));
}

void CoreHost::sync_to_local_time() {
  if (!in_run_) return;
  const sc_core::sc_time ahead = core_offset();
  if (ahead == sc_core::SC_ZERO_TIME) return;
  waiting_in_place_ = true;  // a host write to UC_CTRL meanwhile is not the core's own (in_run())
  sc_core::wait(ahead);
  waiting_in_place_ = false;
  synced_ += ahead;
  quiet_known_ = false;  // other processes ran
}

// --- run control --------------------------------------------------------------------------------

void CoreHost::start_run(const sc_core::sc_time& at) {
  mode_ = RunMode::running;
  ctrl_ev_.notify(at);
}

void CoreHost::reset_run(const sc_core::sc_time& at) {
  mode_ = RunMode::idle;
  ctrl_ev_.notify(at);
}

void CoreHost::stop_run(const sc_core::sc_time& at) {
  if (mode_ != RunMode::running && mode_ != RunMode::sleeping) return;
  mode_ = RunMode::stopped;
  ctrl_ev_.notify(at);
}

void CoreHost::step_once() {
  if (mode_ != RunMode::stopped) return;
  const RunResult r = core_->step();
  instructions_ += r.instructions;
  cycles_ += r.cycles;
  if (r.reason == RunResult::Reason::trapped_fatal) {
    mode_ = RunMode::trapped;
    on_fatal();
  }
  if (watch_stop_) {  // the stepped instruction hit the watch: the core stays stopped, and says why
    watch_stop_ = false;
    cause_ = DbgCause::watch;
  }
}

void CoreHost::resume_run(const sc_core::sc_time& at) {
  if (mode_ != RunMode::stopped) return;
  mode_ = RunMode::running;
  ctrl_ev_.notify(at);
}

// --- the burst loop -----------------------------------------------------------------------------

void CoreHost::thread() {
  bool wake_pending = false;
  for (;;) {
    if (mode_ == RunMode::running) {
      burst(wake_pending);
      continue;
    }
    if (mode_ == RunMode::sleeping) {
      sleep(wake_pending);
      continue;
    }
    if ((mode_ == RunMode::stopped || mode_ == RunMode::trapped) && gdb_ && gdb_->connected()) {
      gdb_->serve(*this);  // blocks the simulation while the debugger holds the core
      continue;
    }
    sc_core::wait(ctrl_ev_);
    if (mode_ == RunMode::running && gdb_ && gdb_->want_attach_on_start()) {
      if (gdb_->attach(*this)) mode_ = RunMode::stopped;
    }
  }
}

inline uint64_t CoreHost::budget_from(const sc_core::sc_time& start, const sc_core::sc_time& horizon) const {
  const double q = tlm::tlm_global_quantum::instance().get().to_seconds();
  uint64_t budget = static_cast<uint64_t>(q * clock_hz_);
  if (horizon > start && horizon != sc_core::sc_max_time())
    budget = std::min<uint64_t>(budget, static_cast<uint64_t>(std::ceil((horizon - start).to_seconds() * clock_hz_)));
  return budget == 0 ? 1 : budget;
}

void CoreHost::burst(bool& wake_pending) {
  if (gdb_ && gdb_->poll_break()) {
    mode_ = RunMode::stopped;
    gdb_->report_stop(*this, 2);
    return;
  }
  // A burst runs at most a quantum, and never past the next event this model itself has scheduled
  // (an xfer's end, a timer, a host write's arrival): an interrupt is taken when it is raised.
  const sc_core::sc_time now = hetvp::sim_now();
  const sc_core::sc_time horizon = this->horizon();
  if (horizon <= now && !yielded_) {  // due now: let it happen first (one delta)
    yielded_ = true;
    sc_core::wait(sc_core::SC_ZERO_TIME);
    return;
  }
  yielded_ = false;
  uint64_t budget = budget_from(now, horizon);
  synced_ = seg_base_ = sc_core::SC_ZERO_TIME;
  burst_start_ = now;
  Tracer& tr = tracer();
  // One run of the core, or several when nobody can observe the round trip between them (run_on): each run is
  // counted and traced as the burst it would have been after a SystemC round trip.
  RunResult r;
  sc_core::sc_time end;  // the burst's end, relative to burst_start_
  for (;;) {
    stall_ = sc_core::SC_ZERO_TIME;
    quiet_known_ = false;
    in_run_ = true;
    run_start_cycles_ = core_->cycles();
    r = run_core(budget);
    in_run_ = false;
    instructions_ += r.instructions;
    cycles_ += r.cycles;
    ++bursts_;
    const sc_core::sc_time took = cycles_to_time(r.cycles) + stall_;  // this run
    run_time_ += took;
    if (track_.on(tr) && took > sc_core::SC_ZERO_TIME) tr.span(track_.name(), "run", burst_start_ + seg_base_, took);
    end = seg_base_ + took;
    if (run_on(r.reason, end, budget)) {
      run_state().progress();
      if (budget > 0) continue;
      end = seg_base_;  // awake at the event's time; the next burst lets the due event happen first
      r.reason = RunResult::Reason::budget;
    }
    break;
  }
  const sc_core::sc_time t = end - synced_;  // what is left to wait
  switch (r.reason) {
    case RunResult::Reason::budget:
      break;
    case RunResult::Reason::wfi:
      if (mode_ == RunMode::running) mode_ = RunMode::sleeping;
      break;
    case RunResult::Reason::halted:
      if (mode_ == RunMode::running) mode_ = RunMode::halted;
      break;
    case RunResult::Reason::trapped_fatal:
      mode_ = RunMode::trapped;
      on_fatal();
      break;
    case RunResult::Reason::breakpoint:
      mode_ = RunMode::stopped;
      cause_ = DbgCause::breakpoint;
      break;
  }
  if (watch_stop_) {  // the debug port's watch ended the run after the access
    watch_stop_ = false;
    if (mode_ == RunMode::running || mode_ == RunMode::sleeping) mode_ = RunMode::stopped;
    cause_ = DbgCause::watch;
  }
  wake_pending = false;
  if (t > sc_core::SC_ZERO_TIME) sc_core::wait(t);  // the burst's time at the core's clock
  run_state().progress();
  // An interrupt raised while the burst's time passed must not be missed by the sleep.
  if (mode_ == RunMode::sleeping && wake_line() && core_->state() != CoreState::sleeping) mode_ = RunMode::running;
  if (mode_ == RunMode::sleeping && wake_line()) wake_pending = true;
  if (gdb_ && mode_ != RunMode::running && mode_ != RunMode::sleeping)
    gdb_->report_stop(*this, mode_ == RunMode::stopped ? 5 : (mode_ == RunMode::trapped ? 4 : 0));
}

// A run of the core ended at local time `end` (relative to burst_start_): used up its budget (a
// quantum, or up to the model's next own event), or stopped in its sleep instruction with its wake
// line low. Ending the burst means a SystemC round trip: wait the burst's time, let the model's own
// event (an xfer's end) happen in its process, and for a sleep wait on the wake event — two to six
// coroutine switches. When no other process has anything to do before the point where the core
// would resume, nobody can observe that round trip: the model's own event is served from here
// (inline_event), and the core's next run starts where the next burst would have, with the budget
// that burst would get (0: something else of the model's own is due then and the burst must end
// there). Returns false, with nothing changed, when the shortcut does not apply.
bool CoreHost::run_on(RunResult::Reason reason, const sc_core::sc_time& end, uint64_t& budget) {
  static const sc_core::sc_time max_lag(100, sc_core::SC_US);  // as RunAheadKeeper's bound
  if (gdb_ || watch_stop_ || mode_ != RunMode::running || !runs_on_in_local_time()) return false;
  const bool sleeping = reason == RunResult::Reason::wfi;
  if (sleeping ? (core_->state() != CoreState::sleeping || wake_line())
               : (reason != RunResult::Reason::budget || core_->state() != CoreState::running))
    return false;
  const sc_core::sc_time now = hetvp::sim_now();
  const sc_core::sc_time local = burst_start_ + end;  // the core's local time
  sc_core::sc_time at;
  bool wakes = false;
  sc_core::sc_event* ev = inline_event(at, wakes);
  sc_core::sc_time resume = local;  // where the next run starts
  if (sleeping) {
    if (!ev || !wakes) return false;  // only the model's own event can wake the core in local time
    if (at > local) resume = at;
  } else if (next_own_event() <= local) {
    if (!ev) return false;  // due during the run, and not servable from here
  } else {
    ev = nullptr;  // nothing of the model's own is due before the core resumes
  }
  if (resume - now > max_lag) return false;
  if (ev) ev->cancel();  // its own notification must not count as someone else's activity
  if (!unobserved_for(resume - now)) {
    if (ev) ev->notify(at - now);
    return false;
  }
  if (ev) {
    serve_inline_event();
    wake_ev_.cancel();  // the core is not waiting on it: the wake-up's delta notification is moot
  }
  if (sleeping) {
    if (!wake_line())  // inline_event broke its promise: a model error
      SC_REPORT_FATAL("hetvp/mcu", (std::string(name()) + ": an inline wake-up did not raise the wake line").c_str());
    // The sleep, as sleep() would have counted and traced it.
    sleep_time_ += resume - local;
    ++wakeups_;
    Tracer& tr = tracer();
    if (track_.on(tr) && resume > local) tr.span(track_.name(), "sleep", local, resume - local);
  }
  // The next run: the budget burst() computes for a burst starting at `resume`.
  seg_base_ = resume - burst_start_;
  const sc_core::sc_time horizon = this->horizon();
  if (horizon <= resume) {
    budget = 0;
    return true;
  }
  budget = budget_from(resume, horizon);
  return true;
}

sc_core::sc_time CoreHost::horizon_while_ctxsw_works() {
  const sc_core::sc_time own = next_own_event();
  if (!ctxsw_unit_busy()) {
    ctxsw_working_ = false;
    return own;
  }
  const sc_core::sc_time next = hetvp::sim_now() + sc_core::sc_time_to_pending_activity();
  return next < own ? next : own;
}

bool CoreHost::ctxsw_unit_busy() {
  if (!has_ctxsw_) return false;
  signal_ = 0;
  set_access(signal_gp_, tlm::TLM_READ_COMMAND, GRC_SIGNAL, &signal_, 4);
  return ctxsw->transport_dbg(signal_gp_) == 4 && (signal_ & (GRC_SIGNAL_MMCTX | GRC_SIGNAL_STRAND)) != 0;
}

void CoreHost::sleep(bool& wake_pending) {
  if (wake_pending) {  // the line rose during the last burst's time: try again
    wake_pending = false;
    mode_ = RunMode::running;
    ++wakeups_;
    return;
  }
  sleep_since_ = hetvp::sim_now();
  sc_core::wait(wake_ev_ | ctrl_ev_);
  sleep_time_ += hetvp::sim_now() - sleep_since_;
  Tracer& tr = tracer();
  if (track_.on(tr)) tr.span(track_.name(), "sleep", sleep_since_, hetvp::sim_now() - sleep_since_);
  if (mode_ == RunMode::sleeping) {
    mode_ = RunMode::running;
    ++wakeups_;
  }
}

}  // namespace hetvp::mcu
