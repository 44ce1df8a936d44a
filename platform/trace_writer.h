// The Tracer's file output on a thread of its own (platform/trace.cpp): the simulation fills one
// 1 MiB buffer of events while the previous one is compressed (.json.gz, .pftrace) and written, so
// on a machine with a core to spare the trace's compression and I/O cost no wall time. One buffer
// in flight at most: memory stays flat, and a full buffer waits for the one before it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hetvp {

class TraceWriter {
 public:
  // `write`: what becomes of one buffer (runs on the writer's thread, one buffer at a time, in
  // the order they were handed over).
  explicit TraceWriter(std::function<void(const char* data, size_t n)> write);
  ~TraceWriter() { finish(); }
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // Hands over `buf`'s first `n` bytes and gives back in `buf` an empty buffer of the same size
  // (the one written before): no copy. Waits while the previous buffer is still being written.
  void submit(std::vector<char>& buf, size_t n);
  // Waits until everything handed over is written.
  void wait();
  // wait(), then stops the thread. Idempotent.
  void finish();

 private:
  void loop();
  std::function<void(const char*, size_t)> write_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<char> work_;  // the buffer being written (busy_), else the spare
  size_t work_bytes_ = 0;
  bool busy_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace hetvp
