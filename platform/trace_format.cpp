// The trace file's events from the Tracer's records (trace_format.h).
#include "platform/trace_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "platform/json.h"
#include "platform/trace_record.h"
#include "platform/trace_run.h"
#include "platform/trace_writer.h"

namespace hetvp {

namespace {
constexpr size_t kBufferBytes = 1 << 20;  // what the formatter holds before the writer's thread takes it
constexpr size_t kMaxLanes = 64;          // async lanes per track; more concurrency shares the last ones

// The JSON writer's fixed text: its length known at compile time, not strlen'd per event.
#define PUT_LITERAL(s) put(s, sizeof(s) - 1)

// Picoseconds of a simulated time's raw value (SystemC's default resolution is 1 ps; another is converted).
uint64_t to_ps(uint64_t ticks) {
  static const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  return res_ps == 1.0 ? ticks : static_cast<uint64_t>(static_cast<double>(ticks) * res_ps + 0.5);
}
// Nanoseconds (the Perfetto format's unit), rounded down: spans keep their order.
uint64_t to_ns(uint64_t ticks) { return to_ps(ticks) / 1000; }
}  // namespace

TraceFormatter::TraceFormatter(std::FILE* file, Settings settings)
    : file_(file),
      s_(std::move(settings)),
      window_start_(s_.window_start.value()),
      window_end_(s_.window_end.value()),
      run_gap_(s_.run_gap.value()) {
  if (s_.format == TraceFormat::kPerfetto) {
    perfetto_ = std::make_unique<PerfettoPackets>();
    writer_ = std::make_unique<TraceWriter>([file](const char* data, size_t n) {
      const std::string packet = PerfettoPackets::compress(data, n);
      std::fwrite(packet.data(), 1, packet.size(), file);
    });
  } else {  // JSON, through gzip for .json.gz (the Tracer's gzip stream)
    writer_ = std::make_unique<TraceWriter>([file](const char* data, size_t n) { std::fwrite(data, 1, n, file); });
  }
  buf_.assign(kBufferBytes, '\0');
  if (!perfetto_) PUT_LITERAL("{\"traceEvents\":[");
}

TraceFormatter::~TraceFormatter() = default;

void TraceFormatter::consume(const char* records, size_t n) {
  using trace_record::Op;
  trace_record::Reader r(records, records + n);
  while (!r.done()) {
    const Op op = r.op();
    switch (op) {
      case Op::kSpan: {
        const Ticks start = r.number(), duration = r.number();
        const std::string_view name = r.text(), what = r.text(), args = r.text();
        Track& t = track(name);
        if (t.on) span(t, what, start, duration, args);
        break;
      }
      case Op::kRun: {
        const Ticks start = r.number(), duration = r.number();
        const uint64_t addr = r.number(), bytes = r.number();
        const std::string_view name = r.text(), what = r.text();
        r.text();
        Track& t = track(name);
        if (t.on) span_run(t, what, start, duration, addr, bytes);
        break;
      }
      case Op::kInstant: {
        const Ticks at = r.number();
        const std::string_view name = r.text(), what = r.text(), args = r.text();
        Track& t = track(name);
        if (t.on) instant(t, what, at, args);
        break;
      }
      case Op::kCounter: {
        const Ticks at = r.number();
        const double value = r.real();
        const std::string_view name = r.text(), what = r.text();
        r.text();
        Track& t = track(name);
        if (t.on) put_counter(t.pid, t.name + " " + std::string(what), at, value);
        break;
      }
      case Op::kCounterDelta: {
        const Ticks at = r.number(), now = r.number();
        const double delta = r.real();
        const std::string_view name = r.text(), what = r.text();
        r.text();
        Track& t = track(name);
        if (t.on) counter_delta(t, what, at, now, delta);
        break;
      }
      case Op::kTouch: {
        track(r.text());
        r.text();
        r.text();
        break;
      }
      case Op::kRunPending: {
        Track::Run run;
        run.start = r.number();
        run.end = r.number();
        run.busy = r.number();
        run.addr = r.number();
        run.next = r.number();
        run.bytes = r.number();
        run.count = r.number();
        const std::string_view name = r.text(), what = r.text();
        r.text();
        Track& t = track(name);
        if (!t.on) break;
        flush_run(t);  // the formatter's own run on the track, if any, came first
        run.what.assign(what.data(), what.size());
        t.run = std::move(run);
        break;
      }
    }
  }
}

// ------------------------------------------------------------------ tracks
// Each instance is a process of the trace (its name shown as the process's); pid 1, 2, ... in the
// order they first report.
int TraceFormatter::process(const std::string& instance) {
  auto it = processes_.find(instance);
  if (it != processes_.end()) return it->second;
  const int pid = static_cast<int>(processes_.size()) + 1;
  processes_.emplace(instance, pid);
  if (perfetto_) {
    ++events_;
    perfetto_->process_track(pid, instance);
    put_packets();
    return pid;
  }
  begin_event();
  PUT_LITERAL("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":");
  put_int(pid);
  PUT_LITERAL(",\"args\":{\"name\":");
  put_string(instance);
  PUT_LITERAL("}}");
  return pid;
}

TraceFormatter::Track& TraceFormatter::track(std::string_view name) {
  for (Track* t : recent_)
    if (t && t->name == name) return *t;
  Track* found;
  if (auto it = tracks_.find(name); it != tracks_.end()) {
    found = it->second.get();
    recent_[next_recent_++ % kRecentTracks] = found;
    return *found;
  }
  auto owned = std::make_unique<Track>();
  Track& t = *owned;
  t.name = std::string(name);
  tracks_.emplace(t.name, std::move(owned));  // the key views the Track's own name
  recent_[next_recent_++ % kRecentTracks] = &t;
  t.on = s_.selection.keeps(t.name);
  if (!t.on) return t;
  t.pid = process(t.name.substr(0, t.name.find('.')));
  t.tid = static_cast<int>(tracks_.size());
  t.x_head = ",\"ph\":\"X\",\"pid\":" + std::to_string(t.pid) + ",\"tid\":" + std::to_string(t.tid) + ",\"ts\":";
  if (perfetto_) {
    ++events_;
    perfetto_->thread_track(t.pid, t.tid, t.name);
    put_packets();
    return t;
  }
  begin_event();
  PUT_LITERAL("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
  put_int(t.pid);
  PUT_LITERAL(",\"tid\":");
  put_int(t.tid);
  PUT_LITERAL(",\"args\":{\"name\":");
  put_string(t.name);
  PUT_LITERAL("}}");
  return t;
}

// ------------------------------------------------------------------ events
void TraceFormatter::span(Track& t, std::string_view what, Ticks start, Ticks duration, std::string_view args) {
  const Ticks end = start + duration;
  // Complete ("X") when the span nests in what is open on the track and does not start before the
  // last one (spans reported in time order, the usual case); else an async pair on a lane.
  bool nested = start >= t.last_start;
  if (nested) {
    while (!t.open.empty() && t.open.back().second <= start) t.open.pop_back();
    nested = t.open.empty() || end <= t.open.back().second;
  }
  if (nested) {
    t.open.emplace_back(start, end);
    t.last_start = start;
    if (perfetto_) {  // a BEGIN/END pair on the model's track (Perfetto has no complete event)
      ++events_;
      perfetto_->slice_begin(perfetto_->thread_uuid(t.tid), to_ns(start), what, args.data(), args.size());
      perfetto_->slice_end(perfetto_->thread_uuid(t.tid), to_ns(end));
      put_packets();
      return;
    }
    begin_event();
    PUT_LITERAL("{\"name\":");
    put_string(what);
    put(t.x_head);
    put_time(start);
    PUT_LITERAL(",\"dur\":");
    put_time(duration);
    if (!args.empty()) {
      PUT_LITERAL(",\"args\":{");
      put(args);
      put_char('}');
    }
    put_char('}');
    return;
  }
  // A lane whose last span has ended; else a new one (up to kMaxLanes, then the one ending first).
  ++async_spans_;
  Lane* lane = nullptr;
  for (Lane& l : t.lanes)
    if (l.end <= start) {
      lane = &l;
      break;
    }
  if (!lane && t.lanes.size() < kMaxLanes) {
    t.lanes.push_back({0, next_async_id_++});
    lane = &t.lanes.back();
  }
  if (!lane) {
    lane = &t.lanes.front();
    for (Lane& l : t.lanes)
      if (l.end < lane->end) lane = &l;
  }
  if (end > lane->end) lane->end = end;
  if (perfetto_) {  // the pair on the lane's own track, a child of the model's ("rc.dma lane 2")
    events_ += 2;
    const uint64_t uuid =
        perfetto_->lane_track(lane->id, t.tid, t.name, static_cast<size_t>(lane - t.lanes.data()) + 1);
    perfetto_->slice_begin(uuid, to_ns(start), what, args.data(), args.size());
    perfetto_->slice_end(uuid, to_ns(end));
    put_packets();
    return;
  }
  for (const char ph : {'b', 'e'}) {
    begin_event();
    PUT_LITERAL("{\"name\":");
    put_string(what);
    PUT_LITERAL(",\"cat\":");
    put_string(t.name);
    if (ph == 'b')
      PUT_LITERAL(",\"ph\":\"b\",\"id\":");
    else
      PUT_LITERAL(",\"ph\":\"e\",\"id\":");
    put_int(lane->id);
    PUT_LITERAL(",\"pid\":");
    put_int(t.pid);
    PUT_LITERAL(",\"tid\":");
    put_int(t.tid);
    PUT_LITERAL(",\"ts\":");
    put_time(ph == 'b' ? start : end);
    if (ph == 'b' && !args.empty()) {
      PUT_LITERAL(",\"args\":{");
      put(args);
      put_char('}');
    }
    put_char('}');
  }
}

void TraceFormatter::span_run(Track& t, std::string_view what, Ticks start, Ticks duration, uint64_t addr,
                              uint64_t bytes) {
  Track::Run& r = t.run;
  if (extend_run(r, r.count && r.what == what, addr, bytes, start, duration, run_gap_)) return;
  flush_run(t);
  r.what.assign(what.data(), what.size());  // keeps its capacity: no allocation per run
  r.start = start;
  r.end = start + duration;
  r.busy = duration;
  r.addr = addr;
  r.next = addr + bytes;
  r.bytes = bytes;
  r.count = 1;
}

void TraceFormatter::flush_run(Track& t) {
  Track::Run& r = t.run;
  if (!r.count) return;
  const uint64_t n = r.count;
  r.count = 0;
  label_ = r.what;
  if (n > 1) {
    char count[24];
    label_ += " x";
    label_.append(count, std::to_chars(count, count + sizeof count, n).ptr);
  }
  const TraceArgs args = run_args(r.addr, n, r.bytes, sc_core::sc_time::from_value(r.busy));
  const Ticks start = r.start, end = r.end;
  if (in_window(start, end)) span(t, label_, start, end - start, std::string_view(args.data(), args.size()));
}

void TraceFormatter::instant(Track& t, std::string_view what, Ticks at, std::string_view args) {
  if (perfetto_) {
    ++events_;
    perfetto_->instant(perfetto_->thread_uuid(t.tid), to_ns(at), what, args.data(), args.size());
    put_packets();
    return;
  }
  begin_event();
  PUT_LITERAL("{\"name\":");
  put_string(what);
  PUT_LITERAL(",\"ph\":\"i\",\"s\":\"t\",\"pid\":");
  put_int(t.pid);
  PUT_LITERAL(",\"tid\":");
  put_int(t.tid);
  PUT_LITERAL(",\"ts\":");
  put_time(at);
  if (!args.empty()) {
    PUT_LITERAL(",\"args\":{");
    put(args);
    put_char('}');
  }
  put_char('}');
}

void TraceFormatter::put_counter(int pid, std::string_view name, Ticks at, double value) {
  // A counter is its own track in the viewers, named "track name", in its instance's process.
  if (perfetto_) {
    ++events_;
    perfetto_->counter(perfetto_->counter_track(pid, name), to_ns(at), value);
    put_packets();
    return;
  }
  begin_event();
  PUT_LITERAL("{\"name\":");
  put_string(name);
  PUT_LITERAL(",\"ph\":\"C\",\"pid\":");
  put_int(pid);
  PUT_LITERAL(",\"ts\":");
  put_time(at);
  PUT_LITERAL(",\"args\":{\"value\":");
  put_double(value);
  PUT_LITERAL("}}");
}

void TraceFormatter::counter_delta(Track& t, std::string_view what, Ticks at, Ticks now, double delta) {
  Counter* c = nullptr;
  for (auto& [n, k] : t.counters)
    if (n == what) c = &k;
  if (!c) {
    t.counters.emplace_back(std::string(what), Counter{});
    c = &t.counters.back().second;
    c->name = t.name + " " + std::string(what);
  }
  c->pending.emplace_back(at < c->flushed ? c->flushed : at, delta);
  if (c->pending.size() >= 256) flush_counter(t.pid, *c, now);
}

// Writes the running level at every time before `before` (in the window), in time order.
void TraceFormatter::flush_counter(int pid, Counter& c, Ticks before) {
  std::stable_sort(c.pending.begin(), c.pending.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t i = 0;
  while (i < c.pending.size() && c.pending[i].first < before) {
    const Ticks at = c.pending[i].first;
    const double was = c.level;
    for (; i < c.pending.size() && c.pending[i].first == at; ++i) c.level += c.pending[i].second;
    if (s_.windowed && !c.wrote_start && at >= window_start_) {  // the level as the window opens
      c.wrote_start = true;
      if (at > window_start_) put_counter(pid, c.name, window_start_, was);
    }
    if (in_window(at, at) && c.level != was) put_counter(pid, c.name, at, c.level);
  }
  c.pending.erase(c.pending.begin(), c.pending.begin() + static_cast<long>(i));
  if (before > c.flushed) c.flushed = before;
}

bool TraceFormatter::finish() {
  for (auto& [name, t] : tracks_) {
    if (!t->on) continue;
    flush_run(*t);
    for (auto& [what, c] : t->counters) flush_counter(t->pid, c, sc_core::sc_max_time().value());
  }
  if (!perfetto_) PUT_LITERAL("\n],\"displayTimeUnit\":\"ns\"}\n");  // a protobuf Trace needs no end
  drain();
  writer_->finish();  // writes what is in flight, then stops its thread
  return !std::ferror(file_);
}

// ------------------------------------------------------------------ the writer
// In the Perfetto format the buffer holds whole packets (put() drains before a packet that does
// not fit): it goes out deflated, as one packet of them.
void TraceFormatter::put_packets() {
  put(perfetto_->pending());
  perfetto_->clear_pending();
}

void TraceFormatter::drain() {
  if (!used_) return;
  writer_->submit(buf_, used_);
  used_ = 0;
}

void TraceFormatter::put_slow(const char* s, size_t n) {
  drain();
  if (n > buf_.size()) {  // more than a buffer: written here, after what is in flight
    writer_->wait();
    std::fwrite(s, 1, n, file_);
    return;
  }
  std::memcpy(buf_.data() + used_, s, n);
  used_ += n;
}

void TraceFormatter::begin_event() {
  if (events_++ == 0)
    put_char('\n');
  else
    PUT_LITERAL(",\n");
}

void TraceFormatter::put_string(std::string_view s) {
  for (char c : s)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      put(JsonWriter::escape(std::string(s)));  // quoted and escaped (platform/json.h)
      return;
    }
  put_char('"');  // the usual case: nothing to escape, one copy
  put(s);
  put_char('"');
}

// Numbers are printed straight into the buffer (after making room): the JSON writer's most
// frequent calls, several per event.
void TraceFormatter::put_int(uint64_t v) {
  if (used_ + 24 > buf_.size()) drain();
  used_ = static_cast<size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
}

// The trace-event format counts microseconds; simulated time is whole picoseconds (SystemC's
// default resolution), so "12.000345" is exact where a double printed with %f could round.
void TraceFormatter::put_time(Ticks t) {
  const uint64_t ps = to_ps(t);
  if (used_ + 32 > buf_.size()) drain();
  char* p = std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), ps / 1000000).ptr;
  uint64_t frac = ps % 1000000;
  if (frac) {
    int n = 6;  // six digits after the point, the trailing zeros left out
    while (frac % 10 == 0) {
      frac /= 10;
      --n;
    }
    *p = '.';
    for (int i = n; i >= 1; --i) {
      p[i] = static_cast<char>('0' + frac % 10);
      frac /= 10;
    }
    p += n + 1;
  }
  used_ = static_cast<size_t>(p - buf_.data());
}

void TraceFormatter::put_double(double v) {
  if (!std::isfinite(v)) v = 0;  // JSON has no NaN or infinity
  if (used_ + 32 > buf_.size()) drain();
  used_ = static_cast<size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
}

}  // namespace hetvp
