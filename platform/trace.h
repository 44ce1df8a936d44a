// A transaction timeline in the Chrome trace-event format (open it in Perfetto or chrome://tracing).
// Off unless `hetvp run --trace FILE`; when off, a model's `if (tracer.enabled())` costs one load
// and one branch and nothing is formatted.
//
// Streamed, off the simulation's thread: a call appends a compact record of itself to a 1 MiB
// buffer (platform/trace_record.h); a full buffer goes to a formatter thread that makes the file's
// events of it (platform/trace_format.h: tracks, nesting, lanes, runs, JSON or Perfetto), which
// hands its output to a third thread that compresses and writes it (platform/trace_writer.h).
// One buffer in flight per stage, so memory stays flat however long the run; on a machine with a
// core to spare, formatting and compression cost the simulation little wall time. The file is the
// same as if it were written on the simulation's thread: records are formatted in call order.
// close() formats what is pending and ends the file.
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
#include <string_view>
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

// Which tracks a trace keeps: the instances' `trace:` selection and --trace-filter's globs. The
// formatter's thread asks too (a track's first event), from its own copy.
// A run's args (Tracer::span_run): its first address, how many calls, their bytes, the sum of their durations.
TraceArgs run_args(uint64_t addr, uint64_t count, uint64_t bytes, const sc_core::sc_time& busy);

class TraceSelection {
 public:
  void select(const std::string& instance, bool on);
  void set_filter(const std::string& globs);
  // Whether `track` ("gpu0.ce0") is kept; `by_default`: for models that are off unless asked.
  bool keeps(const std::string& track, bool by_default = true) const;

 private:
  bool matches_filter(const std::string& track) const;
  std::vector<std::string> filter_;
  std::map<std::string, bool> selected_;
  bool any_selected_ = false;
};

class TraceTrack;      // platform/trace_track.h
class TraceFormatter;  // platform/trace_format.h
class TraceWriter;     // platform/trace_writer.h

class Tracer {
 public:
  Tracer();
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
  void select(const std::string& instance, bool on) { selection_.select(instance, on); }
  // Whether `track`'s instance is traced; `by_default`: for models that are off unless asked.
  bool enabled_for(const std::string& track, bool by_default = true) const {
    return enabled_ && selection_.keeps(track, by_default);
  }
  // simulation.trace_routers: routers (off by default) are traced too.
  void set_trace_routers(bool on) { trace_routers_ = on; }
  bool trace_routers() const { return trace_routers_; }
  // One completed span on `track` (a component name), from `start` lasting `duration`.
  // `args`: the body of a JSON object ("\"addr\":4096,\"size\":64"), shown with the span.
  // Texts are copied at the call: a temporary will do.
  void span(std::string_view track, std::string_view what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration, std::string_view args = {});
  void span(std::string_view track, std::string_view what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration, const TraceArgs& args) {
    span(track, what, start, duration, std::string_view(args.data(), args.size()));
  }
  // A span that may merge with the track's previous one into a run ("MWr x512"): same `what`,
  // `addr` from the run's first address to 4 KiB past its last byte, starting at most run_gap()
  // (5 us) after the previous one ended.
  // The run is one span from its first start to its last end, with args addr, count, bytes and
  // busy_ns (the sum of the durations); written when a span does not continue it, or at close().
  // For a model's stream of small sequential transactions (TLPs, MMIO words) on busy tracks.
  void span_run(std::string_view track, std::string_view what, const sc_core::sc_time& start,
                const sc_core::sc_time& duration, uint64_t addr, uint64_t bytes);
  // The same on a model's TraceTrack (its on() asked first), merged here on the simulation's
  // thread: one record per run instead of one per call. `what`: a literal (compared by address first).
  void span_run(TraceTrack& track, const char* what, const sc_core::sc_time& start, const sc_core::sc_time& duration,
                uint64_t addr, uint64_t bytes);
  const sc_core::sc_time& run_gap() const { return run_gap_; }
  // A counter track (e.g. a link's occupancy): `track`'s counter `name` takes `value` at `at`.
  void counter(std::string_view track, std::string_view name, const sc_core::sc_time& at, double value);
  // A counter that moves by `delta` at `at` (e.g. bytes entering and leaving a queue): calls may
  // come in any time order (decoupled initiators) but not before the current simulated time
  // (sc_time_stamp(): what is before it is written, in time order, as a running sum; a delta that
  // is late all the same moves to the oldest time not yet written).
  void counter_delta(std::string_view track, std::string_view name, const sc_core::sc_time& at, double delta);
  // An instant event on `track` (e.g. a single probe).
  void instant(std::string_view track, std::string_view what, const sc_core::sc_time& at, std::string_view args = {});

  // What was written, for the summary and tests: counted by the formatter, known after close().
  uint64_t events_written() const { return events_; }
  uint64_t async_spans() const { return async_spans_; }

  // How far from the window a model may report (a span reported when it ends, a decoupled
  // initiator ahead of the kernel): 1 ms.
  const sc_core::sc_time& slack() const { return slack_; }

 private:
  bool in_window(const sc_core::sc_time& start, const sc_core::sc_time& end) const {
    return !windowed_ || (end >= window_start_ && start < window_end_);
  }
  // Room for a record of `bytes` in rec_ (a full buffer goes to the formatter first): where to write it.
  char* record(size_t bytes) {
    if (rec_used_ + bytes > rec_.size()) hand_over(bytes);
    char* at = rec_.data() + rec_used_;
    rec_used_ += bytes;
    return at;
  }
  void hand_over(size_t room);  // rec_'s records to the formatter's thread; then at least `room` free
  friend class TraceTrack;           // a TraceTrack that goes away writes its run (drop_run)
  void flush_run(TraceTrack& track);  // its run as a span
  void drop_run(TraceTrack& track);   // flush_run, and off the list of runs

  sc_core::sc_time slack_, run_gap_;  // set by open() (an sc_time must not be made before SystemC's time resolution is)
  bool enabled_ = false;
  bool windowed_ = false;
  sc_core::sc_time window_start_, window_end_;
  TraceSelection selection_;
  bool trace_routers_ = false;
  std::FILE* file_ = nullptr;
  std::vector<char> rec_;  // records not yet handed over (platform/trace_record.h)
  size_t rec_used_ = 0;
  std::unique_ptr<TraceFormatter> formatter_;  // the file's events, made from the records
  std::unique_ptr<TraceWriter> format_thread_;  // runs formatter_ on each full record buffer
  std::vector<TraceTrack*> runs_;  // TraceTracks with a run this trace: close() hands over what is pending
  uint64_t events_ = 0, async_spans_ = 0;
};

}  // namespace hetvp
