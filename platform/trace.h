// A transaction timeline in the Chrome trace-event format (open it in Perfetto or chrome://tracing).
// Off unless `hetvp run --trace FILE`; when off, a model's `if (tracer.enabled())` costs one load
// and one branch and nothing is formatted.
//
// Streamed: every event is written to the file (through a 1 MiB buffer) when the model reports it,
// so memory stays flat however long the run; close() writes what is pending and ends the JSON.
//
// Which components are traced: every instance, unless some instance says `trace: true` in YAML
// (or --set X.trace=true), then only those; `trace: false` leaves one out. `--trace-filter GLOBS`
// keeps only the tracks that a glob matches (platform/trace.cpp: matches()). Some models are off
// unless asked (routers: a span per routed access is costly), see enabled_for(name, false).
// `--trace-window START:END` keeps only what overlaps that stretch of simulated time; outside it
// (give or take slack(), 1 ms) enabled() is false, so models format nothing.
//
// Tracks: one per model (its SystemC name, "gpu0.ce0"), shown as a thread of its instance's process
// ("gpu0"): a track belongs to the instance named by its first component. A span that overlaps
// the spans already on its track without nesting inside them (two DMAs in flight on one root
// complex, a TLP queued behind another) cannot be a complete ("X") event of that thread — viewers
// would draw it wrongly — so it becomes an async pair ("b"/"e") on one of the track's lanes, each
// lane an async id whose spans never overlap. Each run has its own Tracer (RunContext,
// platform/run_context.h); a model reaches it through tracer() of its Component base.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include "platform/sim_time.h"

namespace hetvp {

// A span's args ("\"addr\":4096,\"size\":64") built without printf, for call sites on hot paths
// (a span per TLP): TraceArgs().add("addr", a).add("size", n).str().
// Fixed storage, no allocation: a key that would not fit in its 240 characters is left out.
class TraceArgs {
 public:
  TraceArgs& add(const char* key, uint64_t v);
  TraceArgs& add(const char* key, unsigned v) { return add(key, static_cast<uint64_t>(v)); }
  TraceArgs& add(const char* key, double v);
  TraceArgs& add(const char* key, const char* text);  // a JSON string (escaped)
  std::string str() const { return std::string(b_, n_); }
  const char* data() const { return b_; }
  size_t size() const { return n_; }

 private:
  bool key(const char* k, size_t room);  // false (and nothing added) when the key and `room` do not fit
  char b_[240];
  size_t n_ = 0;
};

class Tracer {
 public:
  Tracer() = default;
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // Before open(): `--trace-window` (spans that overlap [start, end) are kept) and `--trace-filter`
  // (comma-separated globs over track names; empty: every track).
  void set_window(const sc_core::sc_time& start, const sc_core::sc_time& end);
  void set_filter(const std::string& globs);
  // Parses "START:END" (each a time with a unit: "2 ms:3 ms", "2ms:3ms"); throws std::invalid_argument.
  static std::pair<sc_core::sc_time, sc_core::sc_time> parse_window(const std::string& text);
  void open(const std::string& path);  // throws std::runtime_error when the file cannot be written
  bool close();                        // writes what is pending and ends the file; false if writing failed

  // A trace is being written (whatever its window): a model may skip preparing a span's start
  // time when not (#31); whether to write one is still enabled()'s answer.
  bool active() const { return enabled_; }
  bool enabled() const {
    if (!enabled_) return false;
    if (!windowed_) return true;
    const sc_core::sc_time& now = hetvp::sim_now();
    return now + slack_ >= window_start_ && now <= window_end_ + slack_;
  }
  // Per-instance selection (Config's `trace:` keys), before open().
  void select(const std::string& instance, bool on) { selected_[instance] = on; }
  // Whether `track`'s instance is traced; `by_default`: for models that are off unless asked.
  bool enabled_for(const std::string& track, bool by_default = true) const;
  // simulation.trace_routers: routers (off by default) are traced too.
  void set_trace_routers(bool on) { trace_routers_ = on; }
  bool trace_routers() const { return trace_routers_; }
  // One completed span on `track` (a component name), from `start` lasting `duration`.
  // `args`: the body of a JSON object ("\"addr\":4096,\"size\":64"), shown with the span.
  void span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration, const std::string& args = "") {
    span(track, what, start, duration, args.data(), args.size());
  }
  void span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration, const TraceArgs& args) {
    span(track, what, start, duration, args.data(), args.size());
  }
  void span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration, const char* args, size_t args_len);
  // A span that may merge with the track's previous one into a run ("MWr x512"): same `what`,
  // `addr` from the run's first address to 4 KiB past its last byte, starting at most run_gap()
  // (5 us) after the previous one ended.
  // The run is one span from its first start to its last end, with args addr, count, bytes and
  // busy_ns (the sum of the durations); written when a span does not continue it, or at close().
  // For a model's stream of small sequential transactions (TLPs, MMIO words) on busy tracks.
  void span_run(const std::string& track, const char* what, const sc_core::sc_time& start,
                const sc_core::sc_time& duration, uint64_t addr, uint64_t bytes);
  const sc_core::sc_time& run_gap() const { return run_gap_; }
  // A counter track (e.g. a link's occupancy): `track`'s counter `name` takes `value` at `at`.
  void counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value);
  // A counter that moves by `delta` at `at` (e.g. bytes entering and leaving a queue): calls may
  // come in any time order (decoupled initiators) but not before the current simulated time
  // (sc_time_stamp(): what is before it is written, in time order, as a running sum; a delta that
  // is late all the same moves to the oldest time not yet written).
  void counter_delta(const std::string& track, const std::string& name, const sc_core::sc_time& at, double delta);
  // An instant event on `track` (e.g. a single probe).
  void instant(const std::string& track, const std::string& what, const sc_core::sc_time& at,
               const std::string& args = "");

  // What was written, for the summary and tests.
  uint64_t events_written() const { return events_; }
  uint64_t async_spans() const { return async_spans_; }

  // How far from the window a model may report (a span reported when it ends, a decoupled
  // initiator ahead of the kernel): 1 ms.
  const sc_core::sc_time& slack() const { return slack_; }

 private:
  struct Lane {
    sc_core::sc_time end;
    uint64_t id;
  };
  struct Counter {
    std::string name;  // "track what": its own track in the viewers
    double level = 0;
    sc_core::sc_time flushed;  // deltas before this are written; later ones move to it
    std::vector<std::pair<sc_core::sc_time, double>> pending;  // not yet written, in call order
    bool wrote_start = false;                                   // the level at the window's start
  };
  struct Track {
    bool on = false;
    int pid = 0, tid = 0;
    sc_core::sc_time last_start;
    std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> open;  // nested X spans, outermost first
    std::vector<Lane> lanes;                                          // async lanes for overlapping spans
    std::vector<std::pair<std::string, Counter>> counters;            // counter_delta's, by name
    struct Run {
      const char* what = nullptr;
      sc_core::sc_time start, end, busy;
      uint64_t addr = 0, next = 0, bytes = 0, count = 0;
    } run;  // span_run's pending run
    std::string x_head;  // ",\"ph\":\"X\",\"pid\":P,\"tid\":T,\"ts\":": what every X event of the track repeats
  };
  Track& track(const std::string& name);
  int process(const std::string& instance);
  bool matches_filter(const std::string& track) const;
  bool in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const {
    return !windowed_ || (end >= window_start_ && start < window_end_);
  }
  void flush_counter(int pid, Counter& c, const sc_core::sc_time& before);
  void flush_run(const std::string& name, Track& t);
  void put_counter(int pid, const std::string& name, const sc_core::sc_time& at, double value);
  // The writer: events go into buf_ and on to the file when it fills.
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
  void put(const char* s) { put(s, std::strlen(s)); }
  void put(const std::string& s) { put(s.data(), s.size()); }
  void put_char(char c) {
    if (used_ == buf_.size()) drain();
    buf_[used_++] = c;
  }
  void put_string(const std::string& s);  // JSON-escaped, quoted
  void put_int(uint64_t v);
  void put_time(const sc_core::sc_time& t);  // microseconds, exact to the picosecond
  void put_double(double v);
  void drain();

  sc_core::sc_time slack_, run_gap_;  // set by open() (an sc_time must not be made before SystemC's time resolution is)
  bool enabled_ = false;
  bool windowed_ = false;
  sc_core::sc_time window_start_, window_end_;
  std::vector<std::string> filter_;
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<char> buf_;
  size_t used_ = 0;
  uint64_t events_ = 0, async_spans_ = 0, next_async_id_ = 1, counter_calls_ = 0;
  std::unordered_map<std::string, Track> tracks_;
  std::unordered_map<std::string, int> processes_;
  std::map<std::string, bool> selected_;
  bool any_selected_ = false;
  bool trace_routers_ = false;
};

}  // namespace hetvp
