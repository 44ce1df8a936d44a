#include "platform/trace.h"
#include "platform/trace_track.h"
#include "platform/trace_writer.h"

#include <fnmatch.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "platform/json.h"
#include "platform/params.h"
#include "platform/trace_proto.h"

namespace hetvp {

namespace {
constexpr size_t kBufferBytes = 1 << 20;  // what the writer holds before it writes to the file
constexpr size_t kMaxLanes = 64;          // async lanes per track; more concurrency shares the last ones

// The file's format comes from its name (trace_format_of, platform/trace_proto.h):
// - .json.gz: the JSON goes through zlib. The Tracer's FILE* is a stream whose writes are
//   gzwrite()s and whose fclose() writes the gzip trailer (glibc's fopencookie), so the JSON writer
//   is the same.
// - .pftrace: the Tracer's events become Perfetto's packets (PerfettoPackets) instead of JSON text,
//   and drain() deflates each buffer of them into one compressed_packets packet. The packet writer
//   of an open Tracer lives in this table, keyed by the Tracer, rather than in a member:
//   platform/trace.h is included by every model, and a member there rebuilds them all.
std::unordered_map<const Tracer*, std::unique_ptr<PerfettoPackets>>& perfetto_writers() {
  static std::unordered_map<const Tracer*, std::unique_ptr<PerfettoPackets>> writers;
  return writers;
}
// The thread that compresses and writes an open Tracer's full buffers (platform/trace_writer.h);
// kept here for the same reason.
std::unordered_map<const Tracer*, std::unique_ptr<TraceWriter>>& trace_writers() {
  static std::unordered_map<const Tracer*, std::unique_ptr<TraceWriter>> writers;
  return writers;
}
TraceWriter* writer_of(const Tracer* t) {
  auto& w = trace_writers();
  auto it = w.find(t);
  return it == w.end() ? nullptr : it->second.get();
}

PerfettoPackets* perfetto_of(const Tracer* t) {
  auto& w = perfetto_writers();
  if (w.empty()) return nullptr;  // the usual case: no .pftrace open, no lookup
  auto it = w.find(t);
  return it == w.end() ? nullptr : it->second.get();
}

ssize_t gz_write(void* gz, const char* data, size_t n) {
  if (n == 0) return 0;
  const int wrote = gzwrite(static_cast<gzFile>(gz), data, static_cast<unsigned>(n));
  return wrote > 0 ? wrote : -1;
}
int gz_close(void* gz) { return gzclose(static_cast<gzFile>(gz)) == Z_OK ? 0 : EOF; }

// A FILE* that writes `path` gzip-compressed at level 1 (the fastest: most of the size gain on
// this repetitive text); nullptr when it cannot be opened.
std::FILE* open_gzip(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "wb1");
  if (!gz) return nullptr;
  std::FILE* f = fopencookie(gz, "w", cookie_io_functions_t{nullptr, gz_write, nullptr, gz_close});
  if (!f) {
    gzclose(gz);
    return nullptr;
  }
  std::setvbuf(f, nullptr, _IONBF, 0);  // the Tracer's buffer is the only one
  return f;
}

// The tracks Tracer::track() found last: most calls name one of a few busy tracks (a TLP stream's
// span_run per TLP), and comparing a short name is cheaper than hashing it and probing the table;
// that lookup is also all that a track --trace-filter leaves out costs the Tracer. Entries name their
// Tracer; close() and the destructor forget a Tracer's (a run's tracks are gone with it). Static
// for the same reason as perfetto_writers().
struct RecentTrack {
  const Tracer* tracer = nullptr;
  std::string name;
  void* track = nullptr;
};
constexpr size_t kRecentTracks = 4;
RecentTrack g_recent[kRecentTracks];
size_t g_recent_next = 0;

// Decided TraceTracks (platform/trace_track.h) by their name's address: a model's track is found
// by comparing two pointers. A slot is the TraceTrack's while it lives (its destructor empties
// it), so no other string can be at that address; two TraceTracks in one slot take turns (the
// other falls back to the name's lookup). Static for the same reason as perfetto_writers().
struct KnownTrack {
  const std::string* name = nullptr;
  const Tracer* tracer = nullptr;
  void* track = nullptr;  // Tracer::Track, found at the first event
};
constexpr size_t kKnownTracks = 1024;
KnownTrack g_known[kKnownTracks];
KnownTrack& known_slot(const std::string* name) {
  return g_known[(reinterpret_cast<uintptr_t>(name) * 0x9E3779B97F4A7C15ull) >> 54];  // Fibonacci hashing: 10 bits
}

void forget_tracks(const Tracer* t) {
  for (RecentTrack& r : g_recent)
    if (r.tracer == t) r = {};
  for (KnownTrack& k : g_known)
    if (k.tracer == t) k = {};
}

// The JSON writer's fixed text: its length known at compile time, not strlen'd per event.
#define PUT_LITERAL(s) put(s, sizeof(s) - 1)

// Nanoseconds of simulated time (the Perfetto format's unit), rounded down: spans keep their order.
uint64_t to_ns(const sc_core::sc_time& t) {
  static const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  const uint64_t ps = res_ps == 1.0 ? t.value() : static_cast<uint64_t>(t.value() * res_ps + 0.5);
  return ps / 1000;
}
}  // namespace

std::atomic<uint64_t> trace_epoch{1};

namespace {
// Empties `name`'s slot of g_known if it holds it (a TraceTrack forgetting its decision).
void forget_known(const std::string* name) {
  KnownTrack& k = known_slot(name);
  if (k.name == name) k = {};
}
}  // namespace

TraceTrack& TraceTrack::operator=(const TraceTrack& o) {
  if (this == &o) return *this;
  if (known_) forget_known(&name_);
  known_ = false;
  name_ = o.name_;
  by_default_ = o.by_default_;
  epoch_ = 0;
  tracer_ = nullptr;
  return *this;
}

TraceTrack::~TraceTrack() {
  if (known_) forget_known(&name_);
}

void TraceTrack::decide(Tracer& tracer) {
  if (known_) forget_known(&name_);
  known_ = false;
  epoch_ = trace_epoch.load(std::memory_order_relaxed);
  tracer_ = &tracer;
  on_ = tracer.enabled_for(name_, by_default_ || tracer.trace_routers());
  if (!on_) return;
  known_slot(&name_) = {&name_, &tracer, nullptr};
  known_ = true;
}

Tracer::~Tracer() {
  if (enabled_) close();
  trace_writers().erase(this);
  perfetto_writers().erase(this);
  forget_tracks(this);
  ++trace_epoch;
}

void Tracer::set_window(const sc_core::sc_time& start, const sc_core::sc_time& end) {
  windowed_ = true;
  window_start_ = start;
  window_end_ = end;
}

void Tracer::set_filter(const std::string& globs) {
  filter_.clear();
  size_t b = 0;
  while (b <= globs.size()) {
    size_t e = globs.find(',', b);
    if (e == std::string::npos) e = globs.size();
    std::string g = globs.substr(b, e - b);
    const size_t f = g.find_first_not_of(' '), l = g.find_last_not_of(' ');
    if (f != std::string::npos) filter_.push_back(g.substr(f, l - f + 1));
    b = e + 1;
  }
}

std::pair<sc_core::sc_time, sc_core::sc_time> Tracer::parse_window(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("--trace-window " + text + ": expected START:END, e.g. 2ms:3ms");
  sc_core::sc_time start, end;
  try {
    start = parse_time(text.substr(0, colon));
    end = parse_time(text.substr(colon + 1));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--trace-window " + text + ": " + e.what());
  }
  if (end <= start) throw std::invalid_argument("--trace-window " + text + ": END must be after START");
  return {start, end};
}

void Tracer::open(const std::string& path) {
  const TraceFormat format = trace_format_of(path);
  file_ = format == TraceFormat::kJsonGz ? open_gzip(path) : std::fopen(path.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot write trace file " + path);
  if (format == TraceFormat::kPerfetto) perfetto_writers()[this] = std::make_unique<PerfettoPackets>();
  std::FILE* f = file_;
  if (format == TraceFormat::kPerfetto)
    trace_writers()[this] = std::make_unique<TraceWriter>([f](const char* data, size_t n) {
      const std::string packet = PerfettoPackets::compress(data, n);
      std::fwrite(packet.data(), 1, packet.size(), f);
    });
  else  // JSON, through gzip for .json.gz (open_gzip's stream)
    trace_writers()[this] =
        std::make_unique<TraceWriter>([f](const char* data, size_t n) { std::fwrite(data, 1, n, f); });
  path_ = path;
  buf_.assign(kBufferBytes, '\0');
  used_ = 0;
  events_ = async_spans_ = 0;
  slack_ = sc_core::sc_time(1, sc_core::SC_MS);
  run_gap_ = sc_core::sc_time(5, sc_core::SC_US);  // more than an MMIO read's round trip over PCIe
  enabled_ = true;
  ++trace_epoch;  // every TraceTrack decides again for this trace
  any_selected_ = false;
  for (auto& [inst, on] : selected_) any_selected_ |= on;
  if (!perfetto_of(this)) PUT_LITERAL("{\"traceEvents\":[");
}

bool Tracer::enabled_for(const std::string& track, bool by_default) const {
  if (!enabled_) return false;
  const std::string inst = track.substr(0, track.find('.'));
  auto it = selected_.find(inst);
  if (it != selected_.end()) return it->second && matches_filter(track);
  return !any_selected_ && by_default && matches_filter(track);
}

// A glob matches a track when it matches the track's name or one of its dotted prefixes: "gpu0"
// keeps every track of gpu0, "gpu0.ce*" the copy engines', "*.dma" the root complexes' DMA tracks.
bool Tracer::matches_filter(const std::string& track) const {
  if (filter_.empty()) return true;
  for (const std::string& g : filter_) {
    for (size_t dot = track.find('.'); ; dot = track.find('.', dot + 1)) {
      const std::string prefix = track.substr(0, dot);
      if (fnmatch(g.c_str(), prefix.c_str(), 0) == 0) return true;
      if (dot == std::string::npos) break;
    }
  }
  return false;
}

// ------------------------------------------------------------------ the writer
// In the Perfetto format the buffer holds whole packets (put() drains before a packet that does
// not fit): it goes out deflated, as one packet of them.
// The full buffer goes to the writer's thread (trace_writer.h), which compresses it (Perfetto's
// compressed_packets, or gzip's stream) and writes it while the simulation goes on.
void Tracer::drain() {
  if (!used_ || !file_) return;
  writer_of(this)->submit(buf_, used_);
  used_ = 0;
}

void Tracer::put_slow(const char* s, size_t n) {
  drain();
  if (n > buf_.size()) {  // more than a buffer: written here, after what is in flight
    writer_of(this)->wait();
    std::fwrite(s, 1, n, file_);
    return;
  }
  std::memcpy(buf_.data() + used_, s, n);
  used_ += n;
}

void Tracer::begin_event() {
  if (events_++ == 0)
    put_char('\n');
  else
    PUT_LITERAL(",\n");
}

void Tracer::put_string(const std::string& s) {
  put_char('"');
  bool plain = true;  // the usual case: nothing to escape, one copy
  for (char c : s)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      plain = false;
      break;
    }
  if (plain) {
    put(s.data(), s.size());
    put_char('"');
    return;
  }
  for (char c : s) {
    switch (c) {
      case '"':
        put("\\\"", 2);
        break;
      case '\\':
        put("\\\\", 2);
        break;
      case '\n':
        put("\\n", 2);
        break;
      case '\t':
        put("\\t", 2);
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          put(b);
        } else {
          put_char(c);
        }
    }
  }
  put_char('"');
}

// Numbers are printed straight into the buffer (after making room): the JSON writer's most
// frequent calls, several per event.
void Tracer::put_int(uint64_t v) {
  if (used_ + 24 > buf_.size()) drain();
  used_ = static_cast<size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
}

// The trace-event format counts microseconds; simulated time is whole picoseconds (SystemC's
// default resolution), so "12.000345" is exact where a double printed with %f could round.
void Tracer::put_time(const sc_core::sc_time& t) {
  static const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  const uint64_t ps = res_ps == 1.0 ? t.value() : static_cast<uint64_t>(t.value() * res_ps + 0.5);
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

void Tracer::put_double(double v) {
  if (!std::isfinite(v)) v = 0;  // JSON has no NaN or infinity
  if (used_ + 32 > buf_.size()) drain();
  used_ = static_cast<size_t>(std::to_chars(buf_.data() + used_, buf_.data() + buf_.size(), v).ptr - buf_.data());
}

// ------------------------------------------------------------------ TraceArgs
bool TraceArgs::key(const char* k, size_t room) {
  const size_t kn = std::strlen(k);
  if (n_ + kn + 4 + room > sizeof b_) return false;
  if (n_) b_[n_++] = ',';
  b_[n_++] = '"';
  std::memcpy(b_ + n_, k, kn);
  n_ += kn;
  b_[n_++] = '"';
  b_[n_++] = ':';
  return true;
}

TraceArgs& TraceArgs::add(const char* k, uint64_t v) {
  if (key(k, 20)) n_ = static_cast<size_t>(std::to_chars(b_ + n_, b_ + sizeof b_, v).ptr - b_);
  return *this;
}

TraceArgs& TraceArgs::add(const char* k, double v) {
  if (!std::isfinite(v)) v = 0;  // JSON has no NaN or infinity
  if (key(k, 32)) n_ = static_cast<size_t>(std::to_chars(b_ + n_, b_ + sizeof b_, v).ptr - b_);
  return *this;
}

TraceArgs& TraceArgs::add(const char* k, const char* text) {
  const size_t n = std::strlen(text);
  bool plain = true;  // the usual case (an initiator's name): quoted as it is, no allocation
  for (size_t i = 0; i < n && plain; ++i)
    plain = text[i] != '"' && text[i] != '\\' && static_cast<unsigned char>(text[i]) >= 0x20;
  if (plain) {
    if (key(k, n + 2)) {
      b_[n_++] = '"';
      if (n) std::memcpy(b_ + n_, text, n);
      n_ += n;
      b_[n_++] = '"';
    }
    return *this;
  }
  const std::string e = JsonWriter::escape(text);
  if (key(k, e.size())) {
    std::memcpy(b_ + n_, e.data(), e.size());
    n_ += e.size();
  }
  return *this;
}

// ------------------------------------------------------------------ tracks
// Each instance is a process of the trace (its name shown as the process's); pid 1, 2, ... in the
// order they first report.
int Tracer::process(const std::string& instance) {
  auto it = processes_.find(instance);
  if (it != processes_.end()) return it->second;
  const int pid = static_cast<int>(processes_.size()) + 1;
  processes_.emplace(instance, pid);
  if (PerfettoPackets* pf = perfetto_of(this)) {
    ++events_;
    pf->process_track(pid, instance);
    put(pf->pending());
    pf->clear_pending();
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

Tracer::Track& Tracer::track(const std::string& name) {
  KnownTrack& k = known_slot(&name);  // a TraceTrack's name: two pointers compared
  const bool known = k.name == &name && k.tracer == this;
  if (known && k.track) return *static_cast<Track*>(k.track);
  for (RecentTrack& r : g_recent)
    if (r.tracer == this && r.name == name) {
      if (known) k.track = r.track;
      return *static_cast<Track*>(r.track);
    }
  auto it = tracks_.find(name);
  Track& t = it != tracks_.end() ? it->second : tracks_[name];  // a node's address stays put: g_recent keeps it
  if (known) k.track = &t;
  g_recent[g_recent_next++ % kRecentTracks] = {this, name, &t};
  if (it != tracks_.end()) return t;
  t.on = enabled_for(name);
  if (!t.on) return t;
  t.pid = process(name.substr(0, name.find('.')));
  t.tid = static_cast<int>(tracks_.size());
  t.x_head = ",\"ph\":\"X\",\"pid\":" + std::to_string(t.pid) + ",\"tid\":" + std::to_string(t.tid) + ",\"ts\":";
  if (PerfettoPackets* pf = perfetto_of(this)) {
    ++events_;
    pf->thread_track(t.pid, t.tid, name);
    put(pf->pending());
    pf->clear_pending();
    return t;
  }
  begin_event();
  PUT_LITERAL("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
  put_int(t.pid);
  PUT_LITERAL(",\"tid\":");
  put_int(t.tid);
  PUT_LITERAL(",\"args\":{\"name\":");
  put_string(name);
  PUT_LITERAL("}}");
  return t;
}

void Tracer::span(const std::string& name, const std::string& what, const sc_core::sc_time& start,
                  const sc_core::sc_time& duration, const char* args, size_t args_len) {
  if (!enabled_) return;
  const sc_core::sc_time end = start + duration;
  if (!in_window(start, end)) return;
  Track& t = track(name);
  if (!t.on) return;
  // Complete ("X") when the span nests in what is open on the track and does not start before the
  // last one (spans reported in time order, the usual case); else an async pair on a lane.
  bool nested = start >= t.last_start;
  if (nested) {
    while (!t.open.empty() && t.open.back().second <= start) t.open.pop_back();
    nested = t.open.empty() || end <= t.open.back().second;
  }
  PerfettoPackets* pf = perfetto_of(this);
  if (nested) {
    t.open.emplace_back(start, end);
    t.last_start = start;
    if (pf) {  // a BEGIN/END pair on the model's track (Perfetto has no complete event)
      ++events_;
      pf->slice_begin(pf->thread_uuid(t.tid), to_ns(start), what, args, args_len);
      pf->slice_end(pf->thread_uuid(t.tid), to_ns(end));
      put(pf->pending());
      pf->clear_pending();
      return;
    }
    begin_event();
    PUT_LITERAL("{\"name\":");
    put_string(what);
    put(t.x_head);
    put_time(start);
    PUT_LITERAL(",\"dur\":");
    put_time(duration);
    if (args_len) {
      PUT_LITERAL(",\"args\":{");
      put(args, args_len);
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
    t.lanes.push_back({sc_core::SC_ZERO_TIME, next_async_id_++});
    lane = &t.lanes.back();
  }
  if (!lane) {
    lane = &t.lanes.front();
    for (Lane& l : t.lanes)
      if (l.end < lane->end) lane = &l;
  }
  if (end > lane->end) lane->end = end;
  if (pf) {  // the pair on the lane's own track, a child of the model's ("rc.dma lane 2")
    events_ += 2;
    const uint64_t uuid = pf->lane_track(lane->id, t.tid, name, static_cast<size_t>(lane - t.lanes.data()) + 1);
    pf->slice_begin(uuid, to_ns(start), what, args, args_len);
    pf->slice_end(uuid, to_ns(end));
    put(pf->pending());
    pf->clear_pending();
    return;
  }
  for (const char ph : {'b', 'e'}) {
    begin_event();
    PUT_LITERAL("{\"name\":");
    put_string(what);
    PUT_LITERAL(",\"cat\":");
    put_string(name);
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
    if (ph == 'b' && args_len) {
      PUT_LITERAL(",\"args\":{");
      put(args, args_len);
      put_char('}');
    }
    put_char('}');
  }
}

void Tracer::span_run(const std::string& name, const char* what, const sc_core::sc_time& start,
                      const sc_core::sc_time& duration, uint64_t addr, uint64_t bytes) {
  if (!enabled_) return;
  Track& t = track(name);
  if (!t.on) return;
  Track::Run& r = t.run;
  const sc_core::sc_time end = start + duration;
  // `what` is a literal: mostly the very pointer of the run's kind, compared before the text.
  const bool same_kind = r.count && (r.what == what || std::strcmp(r.what, what) == 0);
  if (same_kind && addr >= r.addr && addr <= r.next + 4096 && start >= r.end && start - r.end <= run_gap_) {
    r.end = end;
    r.next += bytes;
    r.bytes += bytes;
    r.busy += duration;
    ++r.count;
    return;
  }
  flush_run(name, t);
  r = {what, start, end, duration, addr, addr + bytes, bytes, 1};
}

void Tracer::flush_run(const std::string& name, Track& t) {
  Track::Run& r = t.run;
  if (!r.count) return;
  const uint64_t n = r.count;
  r.count = 0;
  span(name, n == 1 ? std::string(r.what) : std::string(r.what) + " x" + std::to_string(n), r.start, r.end - r.start,
       TraceArgs().add("addr", r.addr).add("count", n).add("bytes", r.bytes).add("busy_ns", std::round(r.busy.to_seconds() * 1e12) / 1000));
}

void Tracer::instant(const std::string& name, const std::string& what, const sc_core::sc_time& at,
                     const std::string& args) {
  if (!enabled_ || !in_window(at, at)) return;
  Track& t = track(name);
  if (!t.on) return;
  if (PerfettoPackets* pf = perfetto_of(this)) {
    ++events_;
    pf->instant(pf->thread_uuid(t.tid), to_ns(at), what, args.data(), args.size());
    put(pf->pending());
    pf->clear_pending();
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

void Tracer::put_counter(int pid, const std::string& name, const sc_core::sc_time& at, double value) {
  // A counter is its own track in the viewers, named "track name", in its instance's process.
  if (PerfettoPackets* pf = perfetto_of(this)) {
    ++events_;
    pf->counter(pf->counter_track(pid, name), to_ns(at), value);
    put(pf->pending());
    pf->clear_pending();
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

void Tracer::counter(const std::string& name, const std::string& what, const sc_core::sc_time& at, double value) {
  if (!enabled_ || !in_window(at, at)) return;
  Track& t = track(name);
  if (t.on) put_counter(t.pid, name + " " + what, at, value);
}

void Tracer::counter_delta(const std::string& name, const std::string& what, const sc_core::sc_time& at,
                           double delta) {
  if (!enabled_) return;
  Track& t = track(name);
  if (!t.on) return;
  Counter* c = nullptr;
  for (auto& [n, k] : t.counters)
    if (n == what) c = &k;
  if (!c) {
    t.counters.emplace_back(what, Counter{});
    c = &t.counters.back().second;
    c->name = name + " " + what;
  }
  c->pending.emplace_back(at < c->flushed ? c->flushed : at, delta);
  if (c->pending.size() >= 256) flush_counter(t.pid, *c, sc_core::sc_time_stamp());
}

// Writes the running level at every time before `before` (in the window), in time order.
void Tracer::flush_counter(int pid, Counter& c, const sc_core::sc_time& before) {
  std::stable_sort(c.pending.begin(), c.pending.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t i = 0;
  while (i < c.pending.size() && c.pending[i].first < before) {
    const sc_core::sc_time at = c.pending[i].first;
    const double was = c.level;
    for (; i < c.pending.size() && c.pending[i].first == at; ++i) c.level += c.pending[i].second;
    if (windowed_ && !c.wrote_start && at >= window_start_) {  // the level as the window opens
      c.wrote_start = true;
      if (at > window_start_) put_counter(pid, c.name, window_start_, was);
    }
    if (in_window(at, at) && c.level != was) put_counter(pid, c.name, at, c.level);
  }
  c.pending.erase(c.pending.begin(), c.pending.begin() + static_cast<long>(i));
  if (before > c.flushed) c.flushed = before;
}

bool Tracer::close() {
  if (!enabled_) return true;
  for (auto& [name, t] : tracks_) {
    flush_run(name, t);
    for (auto& [what, c] : t.counters) flush_counter(t.pid, c, sc_core::sc_max_time());
  }
  if (!perfetto_of(this)) PUT_LITERAL("\n],\"displayTimeUnit\":\"ns\"}\n");  // a protobuf Trace needs no end
  drain();
  trace_writers().erase(this);  // writes what is in flight, then stops its thread
  perfetto_writers().erase(this);
  forget_tracks(this);
  const bool ok = !std::ferror(file_);
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  tracks_.clear();
  processes_.clear();
  buf_ = {};
  enabled_ = false;
  return ok && closed;
}

}  // namespace hetvp
