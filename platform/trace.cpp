#include "platform/trace.h"
#include "platform/trace_track.h"

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
#include "platform/trace_format.h"
#include "platform/trace_proto.h"
#include "platform/trace_record.h"
#include "platform/trace_run.h"
#include "platform/trace_writer.h"

namespace hetvp {

namespace {
constexpr size_t kRecordBytes = 1 << 20;  // the records the simulation's thread holds before the formatter takes them

// .json.gz: the Tracer's FILE* is a stream whose writes are gzwrite()s and whose fclose() writes
// the gzip trailer (glibc's fopencookie), so the JSON writer is the same for both.
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

}  // namespace

std::atomic<uint64_t> trace_epoch{1};

// ------------------------------------------------------------------ TraceTrack
TraceTrack& TraceTrack::operator=(const TraceTrack& o) {
  if (this == &o) return *this;
  if (runs_in_) runs_in_->drop_run(*this);
  name_ = o.name_;
  by_default_ = o.by_default_;
  epoch_ = 0;
  tracer_ = nullptr;
  return *this;
}

TraceTrack::~TraceTrack() {
  if (runs_in_) runs_in_->drop_run(*this);
}

void TraceTrack::decide(Tracer& tracer) {
  epoch_ = trace_epoch.load(std::memory_order_relaxed);
  tracer_ = &tracer;
  on_ = tracer.enabled_for(name_, by_default_ || tracer.trace_routers());
}

// ------------------------------------------------------------------ TraceSelection
void TraceSelection::select(const std::string& instance, bool on) {
  selected_[instance] = on;
  any_selected_ = false;
  for (auto& [inst, o] : selected_) any_selected_ |= o;
}

void TraceSelection::set_filter(const std::string& globs) {
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

bool TraceSelection::keeps(const std::string& track, bool by_default) const {
  const std::string inst = track.substr(0, track.find('.'));
  auto it = selected_.find(inst);
  if (it != selected_.end()) return it->second && matches_filter(track);
  return !any_selected_ && by_default && matches_filter(track);
}

// A glob matches a track when it matches the track's name or one of its dotted prefixes: "gpu0"
// keeps every track of gpu0, "gpu0.ce*" the copy engines', "*.dma" the root complexes' DMA tracks.
bool TraceSelection::matches_filter(const std::string& track) const {
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

// ------------------------------------------------------------------ Tracer
Tracer::Tracer() = default;  // here, where the formatter's and writer's types are complete

Tracer::~Tracer() {
  if (enabled_) close();
  ++trace_epoch;
}

void Tracer::set_window(const sc_core::sc_time& start, const sc_core::sc_time& end) {
  windowed_ = true;
  window_start_ = start;
  window_end_ = end;
}

void Tracer::set_filter(const std::string& globs) { selection_.set_filter(globs); }

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
  slack_ = sc_core::sc_time(1, sc_core::SC_MS);
  run_gap_ = sc_core::sc_time(5, sc_core::SC_US);  // more than an MMIO read's round trip over PCIe
  TraceFormatter::Settings settings;
  settings.format = format;
  settings.selection = selection_;
  settings.windowed = windowed_;
  settings.window_start = window_start_;
  settings.window_end = window_end_;
  settings.run_gap = run_gap_;
  formatter_ = std::make_unique<TraceFormatter>(file_, std::move(settings));
  TraceFormatter* formatter = formatter_.get();
  format_thread_ = std::make_unique<TraceWriter>([formatter](const char* data, size_t n) { formatter->consume(data, n); });
  rec_.assign(kRecordBytes, '\0');
  rec_used_ = 0;
  events_ = async_spans_ = 0;
  enabled_ = true;
  ++trace_epoch;  // every TraceTrack decides again for this trace
}

bool Tracer::close() {
  if (!enabled_) return true;
  // The runs still open go to the formatter, which writes them with its own at the end, in its order.
  for (TraceTrack* tt : runs_) {
    const TraceTrack::Run& r = tt->run_;
    if (r.count)
      trace_record::Writer(record(trace_record::size_of(7, tt->name(), r.what)))
          .op(trace_record::Op::kRunPending)
          .number(r.start.value())
          .number(r.end.value())
          .number(r.busy.value())
          .number(r.addr)
          .number(r.next)
          .number(r.bytes)
          .number(r.count)
          .text(tt->name())
          .text(r.what)
          .text({});
    tt->runs_in_ = nullptr;
    tt->run_ = {};
  }
  runs_.clear();
  if (rec_used_) format_thread_->submit(rec_, rec_used_);
  format_thread_->finish();  // every record formatted; the thread stopped
  format_thread_.reset();
  const bool ok = formatter_->finish();
  events_ = formatter_->events();
  async_spans_ = formatter_->async_spans();
  formatter_.reset();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  rec_ = {};
  rec_used_ = 0;
  enabled_ = false;
  ++trace_epoch;
  return ok && closed;
}

// ------------------------------------------------------------------ the records
// The formatter's thread takes the full buffer and gives back the one it finished (no copy); a
// record larger than a buffer (a long args text) gets a buffer of its size.
void Tracer::hand_over(size_t room) {
  if (rec_used_) format_thread_->submit(rec_, rec_used_);
  rec_used_ = 0;
  if (rec_.size() < room) rec_.resize(room);
}

void Tracer::span(std::string_view track, std::string_view what, const sc_core::sc_time& start,
                  const sc_core::sc_time& duration, std::string_view args) {
  if (!enabled_ || !in_window(start, start + duration)) return;
  trace_record::Writer(record(trace_record::size_of(2, track, what, args)))
      .op(trace_record::Op::kSpan)
      .number(start.value())
      .number(duration.value())
      .text(track)
      .text(what)
      .text(args);
}

// Not windowed here: the run is, when it is written (the formatter).
void Tracer::span_run(std::string_view track, std::string_view what, const sc_core::sc_time& start,
                      const sc_core::sc_time& duration, uint64_t addr, uint64_t bytes) {
  if (!enabled_) return;
  trace_record::Writer(record(trace_record::size_of(4, track, what)))
      .op(trace_record::Op::kRun)
      .number(start.value())
      .number(duration.value())
      .number(addr)
      .number(bytes)
      .text(track)
      .text(what)
      .text({});
}

// The merging of Tracer::span_run (platform/trace_format.cpp), on the TraceTrack.
void Tracer::span_run(TraceTrack& tt, const char* what, const sc_core::sc_time& start,
                      const sc_core::sc_time& duration, uint64_t addr, uint64_t bytes) {
  if (!enabled_) return;
  TraceTrack::Run& r = tt.run_;
  if (tt.runs_in_ != this) {  // this trace's first run on the track
    if (tt.runs_in_) tt.runs_in_->drop_run(tt);
    tt.runs_in_ = this;
    r = {};
    runs_.push_back(&tt);
    trace_record::Writer(record(trace_record::size_of(0, tt.name(), {})))
        .op(trace_record::Op::kTouch)
        .text(tt.name())
        .text({})
        .text({});
  }
  // `what` is a literal: mostly the very pointer of the run's kind, compared before the text.
  const bool same_kind = r.count && (r.what == what || std::strcmp(r.what, what) == 0);
  if (extend_run(r, same_kind, addr, bytes, start, duration, run_gap_)) return;
  flush_run(tt);
  r = {what, start, start + duration, duration, addr, addr + bytes, bytes, 1};
}

void Tracer::flush_run(TraceTrack& tt) {
  TraceTrack::Run& r = tt.run_;
  if (!r.count) return;
  const uint64_t n = r.count;
  r.count = 0;
  char label[96];
  const size_t len = std::strlen(r.what);
  if (n == 1 || len + 24 > sizeof label) {
    span(tt.name(), r.what, r.start, r.end - r.start, run_args(r.addr, n, r.bytes, r.busy));
    return;
  }
  std::memcpy(label, r.what, len);
  std::memcpy(label + len, " x", 2);
  char* e = std::to_chars(label + len + 2, label + sizeof label, n).ptr;
  span(tt.name(), std::string_view(label, static_cast<size_t>(e - label)), r.start, r.end - r.start,
       run_args(r.addr, n, r.bytes, r.busy));
}

void Tracer::drop_run(TraceTrack& tt) {
  flush_run(tt);
  runs_.erase(std::remove(runs_.begin(), runs_.end(), &tt), runs_.end());
  tt.runs_in_ = nullptr;
}

void Tracer::instant(std::string_view track, std::string_view what, const sc_core::sc_time& at, std::string_view args) {
  if (!enabled_ || !in_window(at, at)) return;
  trace_record::Writer(record(trace_record::size_of(1, track, what, args)))
      .op(trace_record::Op::kInstant)
      .number(at.value())
      .text(track)
      .text(what)
      .text(args);
}

void Tracer::counter(std::string_view track, std::string_view what, const sc_core::sc_time& at, double value) {
  if (!enabled_ || !in_window(at, at)) return;
  trace_record::Writer(record(trace_record::size_of(2, track, what)))
      .op(trace_record::Op::kCounter)
      .number(at.value())
      .real(value)
      .text(track)
      .text(what)
      .text({});
}

// The simulated time of the call travels with it: the formatter writes the sums before it.
void Tracer::counter_delta(std::string_view track, std::string_view what, const sc_core::sc_time& at, double delta) {
  if (!enabled_) return;
  trace_record::Writer(record(trace_record::size_of(3, track, what)))
      .op(trace_record::Op::kCounterDelta)
      .number(at.value())
      .number(sc_core::sc_time_stamp().value())
      .real(delta)
      .text(track)
      .text(what)
      .text({});
}

// ------------------------------------------------------------------ TraceArgs
TraceArgs run_args(uint64_t addr, uint64_t count, uint64_t bytes, const sc_core::sc_time& busy) {
  return TraceArgs()
      .add("addr", addr)
      .add("count", count)
      .add("bytes", bytes)
      .add("busy_ns", std::round(busy.to_seconds() * 1e12) / 1000);
}

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

}  // namespace hetvp
