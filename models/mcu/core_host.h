// hetvp — the SystemC host of one microcontroller core: ONE host for every CoreIf core.
//
// A microcontroller model (RV32: models/mcu/rv32/microcontroller.h; Falcon context controller:
// models/mcu/falcon/ctxctl.h) derives from CoreHost and keeps only what differs between them: its
// register table, its xfer/DMA engines, its I/O address rules. The host owns the core and does what
// every core needs, one way:
//   * the burst loop: core.run(budget) with budget = min(global quantum, time to the model's next
//     own scheduled event) in core cycles (at least 1), then wait() the burst's time — or, for a model
//     that opts in, run on in local time when no other process could observe that wait (run_on);
//   * sleep/wake: a core that stops in its sleep instruction (wfi, Falcon sleep) waits for wake()
//     or a control event; an interrupt raised while a burst's time passed is not lost (wake_line());
//   * run state (RunMode): a fatal trap -> trapped, halt -> halted, breakpoint -> stopped, and the
//     control operations (start, stop, step, resume) the model's control register and GDB share;
//   * the code and data memories and their upload through an auto-incrementing index register;
//   * the interrupt input (irq_in) and the context-switch unit behind the window: the offsets of
//     gr_ctxsw.h's tables are forwarded to it (generated from those tables), host and core accesses
//     alike;
//   * trace spans (run, sleep), RunState progress, GDB attach, the common stats counters.
// The model declares which stats it reports (in its own order) from the counters kept here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/mcu/core_if.h"
#include "models/mcu/debug_port.h"
#include "models/mcu/gdb_stub.h"
#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/irq.h"
#include "platform/peripheral.h"
#include "platform/run_ahead.h"
#include "platform/run_context.h"
#include "platform/stats.h"
#include "platform/trace_track.h"

namespace hetvp::mcu {

// The host's run state. The values are MCU_STATE_* (firmware/include/hetvp/mcu_regs.h), which the
// RV32 model reports in UC_CTRL as they are.
enum class RunMode : unsigned { idle = 0, running = 1, sleeping = 2, halted = 3, trapped = 4, stopped = 5 };

// Where a core sits in its cluster (models/mcu/cluster.cpp): what a model reports and names from
// its place.
struct CoreSlot {
  bool hub = false;
  unsigned index = 0;             // GPC index (0 for the HUB)
  std::string path;               // e.g. "gpu0.hub" (messages)
  uint32_t bar0 = 0;              // the window's BAR0 offset (messages)
  unsigned gpcs = 1;              // GPCs of the cluster (the HUB reports them)
  const GpuChip* chip = nullptr;  // gpu0.chip: what differs between chips; nullptr: none
};

class CoreHost : public Peripheral, public BusIf, public RunMember {
 public:
  // The graphics engine's context-switch unit behind this window (models/gpu/gr/ctxsw_unit.h): its
  // registers (gr_ctxsw.h) and its memory port (a Falcon's xfers reach memory through it).
  tlm_utils::simple_initiator_socket_optional<CoreHost> ctxsw{"ctxsw"};
  tlm_utils::simple_initiator_socket_optional<CoreHost> ctxsw_mem{"ctxsw_mem"};
  // Interrupts from that unit: raise(bit, delay) (MCU_IRQ_CHSW_BIT, MCU_IRQ_CTXSW_BIT); what a bit
  // does is the model's (irq_raised()).
  IrqExport irq_in{"irq_in"};
  // Binds the unit's registers, and its memory port when the model transfers through it.
  void attach_ctxsw(TargetSocketBase& regs, TargetSocketBase& mem);
  bool has_ctxsw() const { return has_ctxsw_; }

  ~CoreHost() override;

  CoreIf& core() { return *core_; }
  const CoreIf& core() const { return *core_; }
  RunMode mode() const { return mode_; }
  double clock_hz() const { return clock_hz_; }
  // A register access from outside the core (host through BAR0, the broadcast window).
  // `delay`: as in b_transport.
  virtual void host_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) = 0;
  // Statistics, declared by the model in its constructor (platform/stats.h); the GPU nests them.
  StatGroup& stats() { return stats_; }

  // GDB remote stub (models/mcu/gdb_stub.h); the core must have a GDB layout (CoreIf::gdb_layout()).
  // Throws std::invalid_argument naming the core otherwise.
  void attach_gdb(std::unique_ptr<GdbStub> stub);
  // The debugger's view of memory (byte-wise, no side effects); false: not mapped. Default: none.
  virtual bool debug_read(uint32_t addr, uint8_t* dst, uint32_t len);
  virtual bool debug_write(uint32_t addr, const uint8_t* src, uint32_t len);

  // Run control shared by the model's control register and the debugger. `at`: the request's
  // arrival, relative to SystemC time.
  void start_run(const sc_core::sc_time& at);   // -> running (the owner reset the core first)
  void stop_run(const sc_core::sc_time& at);    // running/sleeping -> stopped
  void step_once();                             // stopped: exactly one instruction, now
  void resume_run(const sc_core::sc_time& at);  // stopped -> running
  void reset_run(const sc_core::sc_time& at);   // -> idle

  // The debug port of the window (models/mcu/debug_port.h, debug_port.cpp): run control, breakpoints, a
  // watch, registers and memories for `hetvp debug`. True when `off` is one of its registers (served
  // here; `delay`: the access's arrival), false for every other offset. Bound as a port of the window's
  // register table (Peripheral::on_port), so host accesses and the broadcast window reach it.
  bool debug_port(tlm::tlm_command cmd, uint32_t off, uint32_t& v, const sc_core::sc_time& delay);
  bool debug_port(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay);

 protected:
  // `code_size` / `data_size`: the core's memories (the model adds them as regions where its ISA
  // has them). `own`: offsets of gr_ctxsw.h the model's table serves itself (it forwards to the unit
  // from there), e.g. a SIGNAL register that combines the unit's bits with its own.
  template <size_t N>
  CoreHost(sc_core::sc_module_name name, const RegSpec (&table)[N], std::unique_ptr<CoreIf> core, double clock_hz,
           uint32_t code_size, uint32_t data_size, std::vector<uint32_t> own = {})
      : Peripheral(name, table),
        code_(code_size),
        data_(data_size),
        core_(std::move(core)),
        clock_hz_(clock_hz),
        stats_(basename()),
        own_(std::move(own)) {
    init_ctxsw();
    // Integer time per cycle when the clock is a whole number of Hz and SystemC counts picoseconds
    // (every shipped config): the same rounding as sc_time(c / clock, SC_SEC), without a
    // floating-point conversion per burst and per register access (#31).
    if (clock_hz > 0 && clock_hz < 1e15 && clock_hz == static_cast<double>(static_cast<uint64_t>(clock_hz)) &&
        sc_core::sc_time(1, sc_core::SC_PS).value() == 1)
      hz_int_ = static_cast<uint64_t>(clock_hz);
  }

  // The owner calls this where it creates its own processes: SystemC runs processes of one delta in
  // creation order, so the host's thread keeps the place the model's own thread had.
  void spawn_host_thread();

  // --- control and upload ---
  // UC_CTRL's start: the core from `entry`, running from `at` (relative to SystemC time).
  void start_core(uint32_t entry, const sc_core::sc_time& at);
  // The model's own state for a start (after the core's reset, before it runs).
  virtual void on_start() {}
  // The code (true) or data memory.
  std::vector<uint8_t>& memory(bool code) { return code ? code_ : data_; }
  // An upload index register (CODE_INDEX / DATA_INDEX): its byte address, and its value after an
  // access that advances it by 4 within `mask` when the index has `step` set.
  static uint32_t index_address(uint32_t index, uint32_t mask) { return index & mask & ~3u; }
  static uint32_t index_advanced(uint32_t index, uint32_t step, uint32_t mask) {
    if (!(index & step)) return index;
    return (index & ~mask) | ((index_address(index, mask) + 4) & mask);
  }

  // The model calls this for each access of its core to register `off` of its own window: a watch on
  // that register stops the core after the instruction (one flag tested when nothing is watched).
  void watched(uint32_t off, bool write, uint32_t value) {
    if (watch_on_ && off == watch_off_) watch_access(write, value);
  }

  // --- the context-switch unit ---
  // An interrupt from the unit arrived (`delay`: its arrival, relative to SystemC time).
  virtual void irq_raised(unsigned bit, const sc_core::sc_time& delay) = 0;
  // `off` is the unit's register (gr_ctxsw.h, not one the model serves itself) and a unit is attached.
  bool forwarded(uint64_t off) const;
  // The access as it is, to the unit (the payload's initiator and timing are the caller's).
  void forward_access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { ctxsw->b_transport(gp, delay); }
  // One word to the unit on the model's own payload; `index` >= 0: the core's I/O index (io_index.h).
  bool forward_word(tlm::tlm_command cmd, uint32_t off, uint32_t& v, int index, sc_core::sc_time& delay);
  // The model's rule for a forwarded access (port over gr_ctxsw.h's range): default, as it is.
  virtual bool ctxsw_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  // --- what the model supplies ---
  // The next event the model itself has scheduled (absolute; sc_max_time() when none): a burst never
  // runs past it, so an interrupt it raises is taken when it is raised, whatever the quantum.
  virtual sc_core::sc_time next_own_event() const { return sc_core::sc_max_time(); }
  // The model's wake condition is true (an interrupt that ends the core's sleep is raised).
  virtual bool wake_line() const = 0;
  // The core stopped on a fatal trap (mode_ is trapped): record and report it.
  virtual void on_fatal() = 0;
  // One burst of at most `budget` cycles (a model may step with a trace instead).
  virtual RunResult run_core(uint64_t budget) { return core_->run(budget); }
  // Bursts that go on in local time (#31, CoreHost::run_on), for a model whose every bus access is
  // timed at the core's local time (core_offset()). Off by default: the Falcon context controller's
  // MMIO bridge times an access by the burst's stall alone, which a longer burst would move.
  virtual bool runs_on_in_local_time() const { return false; }
  // The model's next own event (the
  // earliest of next_own_event()), when its process only changes this model's state and can be run
  // from the core's thread instead: return the event (`at`: its time, absolute; the host cancels
  // its notification, and renews it for `at` when the shortcut cannot be taken), else nullptr.
  // `wakes`: serving it raises the wake line (the host only serves it for a sleeping core then).
  virtual sc_core::sc_event* inline_event(sc_core::sc_time& at, bool& wakes) {
    (void)at;
    (void)wakes;
    return nullptr;
  }
  // Serve that event now, from the core's thread, as its process would have at `at`.
  virtual void serve_inline_event() {}

  // The interrupt line rose: a sleeping core wakes (at the end of the current delta).
  void wake() { wake_ev_.notify(sc_core::SC_ZERO_TIME); }
  sc_core::sc_time cycles_to_time(uint64_t c) const {
    if (hz_int_) {  // round(c * 1e12 / hz) in exact integer arithmetic
      // A burst's cycle counts fit 64 bits (c < 9.2e6 at 2e12 per cycle): the same quotient without
      // the 128-bit division's library call (#31: once per core register access).
      if (c < 9000000 && hz_int_ < (1ull << 40))
        return sc_core::sc_time::from_value((c * 2000000000000ull + hz_int_) / (2 * hz_int_));
      const unsigned __int128 num = static_cast<unsigned __int128>(c) * 2000000000000ull + hz_int_;
      return sc_core::sc_time::from_value(static_cast<uint64_t>(num / (2 * static_cast<unsigned __int128>(hz_int_))));
    }
    return sc_core::sc_time(double(c) / clock_hz_, sc_core::SC_SEC);
  }
  // The core's local time ahead of SystemC time (inside a burst; zero outside).
  sc_core::sc_time core_offset() const;
  // Inside a burst and executing: false while the core waits in place (sync_to_local_time), when
  // the accesses that arrive come from other processes, not from this core.
  bool in_run() const { return in_run_ && !waiting_in_place_; }
  // From a bus callback inside a burst: the burst ends no later than `at` (absolute), as if `at` had
  // been the burst's horizon (next_own_event) from its start. Outside a burst: nothing to do.
  void end_burst_by(const sc_core::sc_time& at);
  // From a bus callback inside a burst: SystemC time catches up with the core's local time (the core
  // waits in place, its burst goes on afterwards), so what the callback does next happens at its own
  // time, seen by everything else as it would be from a process of its own.
  void sync_to_local_time();
  // From a bus callback inside a burst, before a register access whose value or effect another
  // process may change (the core's own interrupt state, another core's register): SystemC time
  // catches up with the core's local time when some other process has activity pending before it
  // (it may be a core that ran behind this one and writes, or interrupts it, before that time);
  // else nothing can happen in between and the core goes on ahead. Without it a poll or an
  // interrupt acknowledge saw another core's writes as of how far the bursts ran (#43).
  void catch_up_if_observed() {
    if (!in_run_) return;
    const sc_core::sc_time ahead = core_offset();
    if (ahead == sc_core::SC_ZERO_TIME) return;
    const sc_core::sc_time now = hetvp::sim_now();
    if (!quiet_known_) {  // asked once until this burst makes activity of its own (made_activity)
      quiet_until_ = now + sc_core::sc_time_to_pending_activity();
      quiet_known_ = true;
    }
    if (now + ahead < quiet_until_) return;  // unobserved_for(ahead)
    sync_to_local_time();
  }
  // The core's access may have given another process something to do (a write, a read with side
  // effects): the next catch_up_if_observed asks SystemC again.
  void made_activity() { quiet_known_ = false; }
  // The core wrote a command to the context-switch unit (arriving `at`, absolute): the burst ends
  // there, and until the unit is idle again (its SIGNAL) bursts end at the simulation's next pending
  // activity, so the unit's "idle" interrupt is taken when it is raised, not at the end of a burst
  // that ran a quantum ahead. With run-ahead the HUB's MMCTX commands all queued before the unit
  // began the first, and one interrupt stood for many (its busy time moved by 9 % with the quantum,
  // #43). Only the RV32 model calls it (the Falcon context controller keeps its calibrated bursts).
  void ctxsw_commanded(const sc_core::sc_time& at) {
    ctxsw_working_ = true;
    end_burst_by(at);
  }
  // No other process has anything to do before `ahead` from now (nor at the current time): a wait of
  // `ahead` would be seen by nobody — what happens at the core's local time may happen now with
  // `ahead` as the access's delay instead (the test of platform/run_ahead.h).
  static bool unobserved_for(const sc_core::sc_time& ahead) { return hetvp::unobserved_for(ahead); }

  std::vector<uint8_t> code_, data_;  // the core's memories (declared before the core, which points into them)
  std::unique_ptr<CoreIf> core_;
  double clock_hz_;
  uint64_t hz_int_ = 0;  // clock_hz_ when it is a whole number (cycles_to_time), else 0
  RunMode mode_ = RunMode::idle;
  // Local time the core spent inside the current burst beyond its cycles (e.g. the Falcon's MMIO
  // bridge): zeroed at each burst's start, added to the burst's time.
  sc_core::sc_time stall_;
  sc_core::sc_time synced_;       // of the current burst's time, already waited by sync_to_local_time()
  sc_core::sc_time burst_start_;  // SystemC time when the current burst began
  // A burst may hold several runs of the core separated by sleeps served in local time
  // (inline_wake): the current run began seg_base_ after burst_start_ (zero for the first run).
  sc_core::sc_time seg_base_;
  bool started_ = false;  // UC_CTRL started the core at least once
  // Common counters (the model declares the stats it reports from them).
  uint64_t instructions_ = 0, cycles_ = 0, bursts_ = 0, wakeups_ = 0, starts_ = 0;
  sc_core::sc_time run_time_, sleep_time_;
  sc_core::sc_time sleep_since_;  // when the current sleep began (mode sleeping)
  TraceTrack track_{name()};      // the core's runs and sleeps on the timeline
  StatGroup stats_;
  // The model transfers through the unit's memory port (attach_ctxsw binds it).
  bool xfers_through_ctxsw_ = false;

 private:
  struct IrqIn : IrqIf {
    CoreHost* host = nullptr;
    void raise(unsigned bit, const sc_core::sc_time& delay) override { host->irq_raised(bit, delay); }
  };
  void init_ctxsw();
  bool ctxsw_port_entry(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { return ctxsw_port(gp, delay); }
  bool debug_port_entry(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { return debug_port(gp, delay); }
  void thread();
  void burst(bool& wake_pending);
  // Where a burst must end (absolute): the model's next own event, and while the context-switch
  // unit works on a command of the core (ctxsw_commanded) the simulation's next pending activity.
  sc_core::sc_time horizon() { return ctxsw_working_ ? horizon_while_ctxsw_works() : next_own_event(); }
  sc_core::sc_time horizon_while_ctxsw_works();
  // The budget of a run starting at `start` (absolute): a quantum, not past `horizon`; at least 1.
  uint64_t budget_from(const sc_core::sc_time& start, const sc_core::sc_time& horizon) const;
  bool ctxsw_unit_busy();  // the unit's SIGNAL (debug read, no side effects)
  bool run_on(RunResult::Reason reason, const sc_core::sc_time& end, uint64_t& budget);
  void sleep(bool& wake_pending);

  sc_core::sc_event ctrl_ev_, wake_ev_;
  bool in_run_ = false, yielded_ = false, waiting_in_place_ = false;
  uint64_t run_start_cycles_ = 0;
  std::unique_ptr<GdbStub> gdb_;
  // the debug port (debug_port.cpp)
  void watch_access(bool write, uint32_t value);
  void debug_command(uint32_t cmd, const sc_core::sc_time& delay);
  uint32_t debug_status() const;
  uint32_t debug_register(uint32_t index) const;
  bool watch_on_ = false, watch_stop_ = false;
  uint32_t watch_off_ = 0, watch_kinds_ = 0;
  uint32_t dbg_addr_ = 0, dbg_arg_ = 0, dbg_reg_index_ = 0, dbg_mem_addr_ = 0;
  uint32_t hit_ = 0, hit_value_ = 0, hit_pc_ = 0;
  DbgCause cause_ = DbgCause::none;  // why the core last stopped
  unsigned breakpoints_ = 0;  // set through the port
  IrqIn irq_impl_;
  bool has_ctxsw_ = false;
  std::vector<uint32_t> own_;
  AccessInfo* fwd_info_;             // owned by fwd_gp_
  bool ctxsw_working_ = false;       // ctxsw_commanded, until the unit's SIGNAL reads idle
  tlm::tlm_generic_payload signal_gp_;  // ctxsw_unit_busy's debug read
  uint32_t signal_ = 0;
  bool quiet_known_ = false;         // catch_up_if_observed: quiet_until_ is current
  sc_core::sc_time quiet_until_;     // no other process has activity before it (absolute)
  tlm::tlm_generic_payload fwd_gp_;  // forward_word's
};

}  // namespace hetvp::mcu
