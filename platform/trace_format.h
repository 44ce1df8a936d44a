// The trace file's events, made from the Tracer's records (platform/trace_record.h) on a thread of
// their own (platform/trace.h says how the stages connect). Everything that depends on what came
// before is here, so it happens in call order: which tracks exist and their pids/tids, nesting of
// spans on a track (complete "X" events) or async lanes for overlapping ones, span_run's merging,
// counter_delta's running sums. The output is the Chrome trace-event JSON (plain or through gzip)
// or Perfetto's protobuf packets (platform/trace_proto.h); full 1 MiB buffers go on to the
// writer's thread (platform/trace_writer.h) that compresses and writes them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "platform/trace.h"
#include "platform/trace_proto.h"

namespace hetvp {

class TraceFormatter {
 public:
  struct Settings {
    TraceFormat format = TraceFormat::kJson;
    TraceSelection selection;
    bool windowed = false;
    sc_core::sc_time window_start, window_end, run_gap;
  };
  // Simulated times as sc_time's raw values (the records' own): compared and added as integers,
  // with no sc_time made per field.
  using Ticks = uint64_t;
  // Writes to `file` (opened by the Tracer; a gzip stream for .json.gz), which it does not close.
  TraceFormatter(std::FILE* file, Settings settings);
  ~TraceFormatter();
  TraceFormatter(const TraceFormatter&) = delete;
  TraceFormatter& operator=(const TraceFormatter&) = delete;

  // The events of `n` bytes of whole records.
  void consume(const char* records, size_t n);
  // Writes the pending runs and counters, ends the file and waits until it is all written; false
  // if writing failed.
  bool finish();

  uint64_t events() const { return events_; }
  uint64_t async_spans() const { return async_spans_; }

 private:
  struct Lane {
    Ticks end;
    uint64_t id;
  };
  struct Counter {
    std::string name;  // "track what": its own track in the viewers
    double level = 0;
    Ticks flushed = 0;                             // deltas before this are written; later ones move to it
    std::vector<std::pair<Ticks, double>> pending;  // not yet written, in call order
    bool wrote_start = false;                                   // the level at the window's start
  };
  struct Track {
    std::string name;
    bool on = false;
    int pid = 0, tid = 0;
    Ticks last_start = 0;
    std::vector<std::pair<Ticks, Ticks>> open;  // nested X spans (start, end), outermost first
    std::vector<Lane> lanes;                                          // async lanes for overlapping spans
    std::vector<std::pair<std::string, Counter>> counters;            // counter_delta's, by name
    struct Run {
      std::string what;
      Ticks start = 0, end = 0, busy = 0;
      uint64_t addr = 0, next = 0, bytes = 0, count = 0;
    } run;  // span_run's pending run
    std::string x_head;  // ",\"ph\":\"X\",\"pid\":P,\"tid\":T,\"ts\":": what every X event of the track repeats
  };

  Track& track(std::string_view name);
  int process(const std::string& instance);
  bool in_window(Ticks start, Ticks end) const { return !s_.windowed || (end >= window_start_ && start < window_end_); }
  void span(Track& t, std::string_view what, Ticks start, Ticks duration, std::string_view args);
  void span_run(Track& t, std::string_view what, Ticks start, Ticks duration, uint64_t addr, uint64_t bytes);
  void instant(Track& t, std::string_view what, Ticks at, std::string_view args);
  void counter_delta(Track& t, std::string_view what, Ticks at, Ticks now, double delta);
  void flush_counter(int pid, Counter& c, Ticks before);
  void flush_run(Track& t);
  void put_counter(int pid, std::string_view name, Ticks at, double value);
  void put_packets();  // the Perfetto writer's pending packets into the buffer

  // The writer: events go into buf_ and on to the writer's thread when it fills.
  void begin_event();
  void put(const char* s, size_t n) {
    if (used_ + n <= buf_.size()) {
      std::memcpy(buf_.data() + used_, s, n);
      used_ += n;
    } else {
      put_slow(s, n);
    }
  }
  void put_slow(const char* s, size_t n);
  void put(std::string_view s) { put(s.data(), s.size()); }
  void put_char(char c) {
    if (used_ == buf_.size()) drain();
    buf_[used_++] = c;
  }
  void put_string(std::string_view s);  // JSON-escaped, quoted
  void put_int(uint64_t v);
  void put_time(Ticks t);  // microseconds, exact to the picosecond
  void put_double(double v);
  void drain();

  std::FILE* file_;
  Settings s_;
  Ticks window_start_ = 0, window_end_ = 0, run_gap_ = 0;  // s_'s
  std::unique_ptr<PerfettoPackets> perfetto_;  // .pftrace: the events as packets; else JSON text
  std::unique_ptr<TraceWriter> writer_;        // compresses and writes full buffers
  std::vector<char> buf_;
  size_t used_ = 0;
  uint64_t events_ = 0, async_spans_ = 0, next_async_id_ = 1;
  std::unordered_map<std::string_view, std::unique_ptr<Track>> tracks_;  // keyed by the Track's own name
  static constexpr size_t kRecentTracks = 4;
  Track* recent_[kRecentTracks] = {};  // the tracks named last: compared before the table is hashed
  size_t next_recent_ = 0;
  std::unordered_map<std::string, int> processes_;
  std::string label_;  // a run's "MWr x512", made here rather than allocated per run
};

}  // namespace hetvp
