#include "platform/run_stop.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>

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
  signal_fd_ = signalfd(-1, &s, SFD_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC);
  watcher_ = std::thread([this, wall_limit_s] { watch(wall_limit_s); });
}

RunStopper::~RunStopper() {
  done_.store(true);
  const uint64_t one = 1;
  if (wake_fd_ >= 0 && write(wake_fd_, &one, sizeof one) < 0) {
  }  // the watcher wakes at once: a run's end costs no polling period
  watcher_.join();
  for (int fd : {signal_fd_, wake_fd_})
    if (fd >= 0) close(fd);
  g_stopper.store(nullptr);
  // A signal that arrived after the watcher stopped waiting stays pending: restoring the mask
  // delivers it with its default action, as if it had come after the run.
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

void RunStopper::update() { sc_core::sc_pause(); }

void RunStopper::watch(double wall_limit_s) {
  const sigset_t s = stop_signals();
  const auto start = std::chrono::steady_clock::now();
  pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (!done_.load()) {
    int timeout_ms = -1;  // no wall limit: wait for a signal or the end of the run
    if (wall_limit_s > 0 && !stopped()) {
      const double left =
          wall_limit_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) {
        wall_.store(true);
        async_request_update();
        continue;
      }
      timeout_ms = static_cast<int>(left * 1000) + 1;
    }
    if (poll(fds, 2, timeout_ms) <= 0 || !(fds[0].revents & POLLIN)) continue;
    signalfd_siginfo info{};
    if (read(signal_fd_, &info, sizeof info) != static_cast<ssize_t>(sizeof info)) continue;
    const int sig = static_cast<int>(info.ssi_signo);
    if (stopped() && signal_.load()) {  // the second one: end the process now, as the default action would
      std::signal(sig, SIG_DFL);
      pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
      std::raise(sig);
    }
    signal_.store(sig);
    async_request_update();
  }
}

}  // namespace hetvp
