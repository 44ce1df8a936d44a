// The Tracer's calls as compact records (platform/trace.h): the simulation's thread appends one
// per span/instant/counter call to a buffer, and the formatter's thread (platform/trace_format.h)
// reads them back, in the same order, to write the file. A record is an op byte, its numbers
// (8 bytes each, native byte order: both ends are this process) and its texts (a 4-byte length,
// then the bytes, no terminator). Times are sc_time's raw values (sc_time::from_value reads them).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace hetvp::trace_record {

enum class Op : uint8_t {
  kSpan,          // start, duration; track, what, args
  kRun,           // start, duration, addr, bytes; track, what (Tracer::span_run)
  kInstant,       // at; track, what, args
  kCounter,       // at, value (a double's bits); track, what
  kCounterDelta,  // at, now (sc_time_stamp() at the call), delta (a double's bits); track, what
  kTouch,         // track: its first span_run call on a TraceTrack (the track exists from here, as it
                  // would had the call been a record)
  kRunPending,    // start, end, busy, addr, next, bytes, count; track, what: a TraceTrack's run left at close()
};

constexpr size_t kNumberBytes = 8, kLengthBytes = 4;

// Bytes a record takes: its op, `numbers` numbers and the given texts.
inline size_t size_of(size_t numbers, std::string_view a, std::string_view b, std::string_view c = {}) {
  return 1 + numbers * kNumberBytes + 3 * kLengthBytes + a.size() + b.size() + c.size();
}

// Writes into memory the caller has made room for (size_of's bytes).
class Writer {
 public:
  explicit Writer(char* p) : p_(p) {}
  Writer& op(Op o) {
    *p_++ = static_cast<char>(o);
    return *this;
  }
  Writer& number(uint64_t v) {
    std::memcpy(p_, &v, kNumberBytes);
    p_ += kNumberBytes;
    return *this;
  }
  Writer& real(double v) {
    std::memcpy(p_, &v, kNumberBytes);
    p_ += kNumberBytes;
    return *this;
  }
  Writer& text(std::string_view s) {
    const uint32_t n = static_cast<uint32_t>(s.size());
    std::memcpy(p_, &n, kLengthBytes);
    p_ += kLengthBytes;
    if (n) std::memcpy(p_, s.data(), n);
    p_ += n;
    return *this;
  }
  char* end() const { return p_; }

 private:
  char* p_;
};

// Reads what a Writer wrote, field by field in the same order.
class Reader {
 public:
  Reader(const char* p, const char* end) : p_(p), end_(end) {}
  bool done() const { return p_ >= end_; }
  Op op() { return static_cast<Op>(*p_++); }
  uint64_t number() {
    uint64_t v;
    std::memcpy(&v, p_, kNumberBytes);
    p_ += kNumberBytes;
    return v;
  }
  double real() {
    double v;
    std::memcpy(&v, p_, kNumberBytes);
    p_ += kNumberBytes;
    return v;
  }
  std::string_view text() {
    uint32_t n;
    std::memcpy(&n, p_, kLengthBytes);
    p_ += kLengthBytes;
    const std::string_view s(p_, n);
    p_ += n;
    return s;
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace hetvp::trace_record
