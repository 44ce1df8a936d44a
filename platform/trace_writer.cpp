#include "platform/trace_writer.h"

#include <pthread.h>
#include <signal.h>

#include <utility>

namespace hetvp {

// The thread takes no asynchronous signal: SIGINT and SIGTERM are the run's to handle (its
// RunStopper, platform/run_stop.h), whichever thread the kernel would pick. Blocked here, before
// it starts, so that none reaches it in between.
TraceWriter::TraceWriter(std::function<void(const char*, size_t)> write) : write_(std::move(write)) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  thread_ = std::thread([this] { loop(); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void TraceWriter::submit(std::vector<char>& buf, size_t n) {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return !busy_; });
  std::swap(work_, buf);
  const size_t size = work_.size();
  work_bytes_ = n;
  busy_ = true;
  cv_.notify_all();
  lock.unlock();
  if (buf.size() < size) buf.resize(size);  // the first time: the spare is made
}

void TraceWriter::wait() {
  std::unique_lock<std::mutex> lock(m_);
  cv_.wait(lock, [this] { return !busy_; });
}

void TraceWriter::finish() {
  if (!thread_.joinable()) return;
  {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return !busy_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void TraceWriter::loop() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    cv_.wait(lock, [this] { return busy_ || stop_; });
    if (!busy_) return;  // stopped with nothing left
    const size_t n = work_bytes_;
    lock.unlock();
    write_(work_.data(), n);  // only this thread touches work_ while busy_
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

}  // namespace hetvp
