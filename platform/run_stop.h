// hetvp — stopping a run from outside the simulation: SIGINT, SIGTERM or a wall-clock limit.
//
// A signal handler may do almost nothing, and the SystemC kernel is not thread-safe. So the
// signals are blocked while the simulation runs and a watcher thread waits for them (signalfd);
// it asks the kernel, through the one thread-safe entry SystemC has (async_request_update), to
// pause at the end of the current delta cycle. That is a safe point: every model is between two
// of its statements, so the run then ends as a time limit ends it — end_of_run, the trace closed,
// stats and CSV written, marked interrupted (docs/library.md, "Exit statuses"). A second signal
// while the outputs are written ends the process at once, as the default action would.
#pragma once

#include <atomic>
#include <csignal>
#include <thread>

#include <systemc>

namespace hetvp {

class RunStopper : public sc_core::sc_prim_channel {
 public:
  // wall_limit_s: stop after this much wall time (0: no limit). Blocks SIGINT and SIGTERM in the
  // calling thread until destroyed. Build it before sc_start (it is a primitive channel).
  explicit RunStopper(double wall_limit_s);
  ~RunStopper() override;
  RunStopper(const RunStopper&) = delete;
  RunStopper& operator=(const RunStopper&) = delete;

  int signal() const { return signal_.load(); }  // SIGINT or SIGTERM that stopped the run; 0 if none
  bool wall_limit_reached() const { return wall_.load(); }
  bool stopped() const { return signal() != 0 || wall_limit_reached(); }

 private:
  void update() override;
  void watch(double wall_limit_s);

  std::atomic<int> signal_{0};
  std::atomic<bool> wall_{false}, done_{false};
  sigset_t old_mask_;
  int signal_fd_ = -1, wake_fd_ = -1;  // the stop signals; written by the destructor to end the watcher
  std::thread watcher_;
};

// True once a RunStopper alive in this process has stopped the run (for loops that slice
// sc_start, such as the progress display, so that they do not start another slice).
bool run_stop_requested();

}  // namespace hetvp
