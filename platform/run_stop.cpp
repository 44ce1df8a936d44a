#include "platform/run_stop.h"

#include <pthread.h>

#include <chrono>
#include <ctime>

namespace hetvp {

namespace {
std::atomic<const RunStopper*> g_stopper{nullptr};  // the one alive (run_platform makes one per run)

sigset_t stop_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}
}  // namespace

bool run_stop_requested() {
  const RunStopper* s = g_stopper.load();
  return s && s->stopped();
}

RunStopper::RunStopper(double wall_limit_s) : sc_core::sc_prim_channel(sc_core::sc_gen_unique_name("run_stopper")) {
  const sigset_t s = stop_signals();
  pthread_sigmask(SIG_BLOCK, &s, &old_mask_);  // the watcher thread inherits the mask
  g_stopper.store(this);
  watcher_ = std::thread([this, wall_limit_s] { watch(wall_limit_s); });
}

RunStopper::~RunStopper() {
  done_.store(true);
  watcher_.join();
  g_stopper.store(nullptr);
  // A signal that arrived after the watcher stopped waiting stays pending: restoring the mask
  // delivers it with its default action, as if it had come after the run.
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

void RunStopper::update() { sc_core::sc_pause(); }

void RunStopper::watch(double wall_limit_s) {
  const sigset_t s = stop_signals();
  const auto start = std::chrono::steady_clock::now();
  const timespec tick{0, 50 * 1000 * 1000};  // how often the wall limit and done_ are looked at
  while (!done_.load()) {
    const int sig = sigtimedwait(&s, nullptr, &tick);
    if (sig == SIGINT || sig == SIGTERM) {
      if (stopped()) {  // the second one: end the process now, as the default action would
        std::signal(sig, SIG_DFL);
        pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
        std::raise(sig);
      }
      signal_.store(sig);
      async_request_update();
      continue;
    }
    if (wall_limit_s > 0 && !stopped() &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= wall_limit_s) {
      wall_.store(true);
      async_request_update();
    }
  }
}

}  // namespace hetvp
