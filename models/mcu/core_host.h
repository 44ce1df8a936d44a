// hetvp — the SystemC host of one microcontroller core: ONE burst loop for every CoreIf core.
//
// A microcontroller model (RV32: models/mcu/uc/microcontroller.h; Falcon context controller:
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
//   * trace spans (run, sleep), RunState progress, GDB attach, the common stats counters.
// The model declares which stats it reports (in its own order) from the counters kept here.
#pragma once

#include <memory>

#include <systemc>

#include "models/mcu/core_if.h"
#include "models/mcu/gdb_stub.h"
#include "platform/peripheral.h"
#include "platform/run_ahead.h"
#include "platform/run_context.h"

namespace hetvp::mcu {

// The host's run state. The values are MCU_STATE_* (firmware/include/hetvp/mcu_regs.h), which the
// RV32 model reports in UC_CTRL as they are.
enum class RunMode : unsigned { idle = 0, running = 1, sleeping = 2, halted = 3, trapped = 4, stopped = 5 };

class CoreHost : public Peripheral, public BusIf, public RunMember {
 public:
  ~CoreHost() override;

  CoreIf& core() { return *core_; }
  const CoreIf& core() const { return *core_; }
  RunMode mode() const { return mode_; }
  double clock_hz() const { return clock_hz_; }

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

 protected:
  template <size_t N>
  CoreHost(sc_core::sc_module_name name, const RegSpec (&table)[N], std::unique_ptr<CoreIf> core, double clock_hz)
      : Peripheral(name, table), core_(std::move(core)), clock_hz_(clock_hz) {
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
  bool in_run() const { return in_run_; }
  // From a bus callback inside a burst: the burst ends no later than `at` (absolute), as if `at` had
  // been the burst's horizon (next_own_event) from its start. Outside a burst: nothing to do.
  void end_burst_by(const sc_core::sc_time& at);
  // From a bus callback inside a burst: SystemC time catches up with the core's local time (the core
  // waits in place, its burst goes on afterwards), so what the callback does next happens at its own
  // time, seen by everything else as it would be from a process of its own.
  void sync_to_local_time();
  // No other process has anything to do before `ahead` from now (nor at the current time): a wait of
  // `ahead` would be seen by nobody — what happens at the core's local time may happen now with
  // `ahead` as the access's delay instead (the test of platform/run_ahead.h).
  static bool unobserved_for(const sc_core::sc_time& ahead) { return hetvp::unobserved_for(ahead); }

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
  // Common counters (the model declares the stats it reports from them).
  uint64_t instructions_ = 0, cycles_ = 0, bursts_ = 0, wakeups_ = 0;
  sc_core::sc_time run_time_, sleep_time_;
  sc_core::sc_time sleep_since_;  // when the current sleep began (mode sleeping)

 private:
  void thread();
  void burst(bool& wake_pending);
  bool run_on(RunResult::Reason reason, const sc_core::sc_time& end, uint64_t& budget);
  void sleep(bool& wake_pending);

  sc_core::sc_event ctrl_ev_, wake_ev_;
  bool in_run_ = false, yielded_ = false;
  uint64_t run_start_cycles_ = 0;
  std::unique_ptr<GdbStub> gdb_;
};

}  // namespace hetvp::mcu
