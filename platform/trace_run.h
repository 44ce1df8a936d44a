// Tracer::span_run's rule, in one place (platform/trace.h): a call continues the run in progress
// when it is of the same kind, its address lies from the run's first address to 4 KiB past its
// last byte, and it starts no earlier than the run's end and at most `gap` after it. Used where
// runs are merged: on a model's TraceTrack (platform/trace.cpp) and for the name API's calls in
// the formatter (platform/trace_format.cpp), whose times are sc_time and raw ticks respectively.
#pragma once

#include <cstdint>

namespace hetvp {

// Extends `r` (fields start, end, busy, addr, next, bytes, count) by the call and returns true
// when the call continues it; false (and `r` unchanged) when a new run must start.
template <class Run, class Time>
bool extend_run(Run& r, bool same_kind, uint64_t addr, uint64_t bytes, const Time& start, const Time& duration,
                const Time& gap) {
  if (!same_kind || addr < r.addr || addr > r.next + 4096 || start < r.end || start - r.end > gap) return false;
  r.end = start + duration;
  r.next += bytes;
  r.bytes += bytes;
  r.busy += duration;
  ++r.count;
  return true;
}

}  // namespace hetvp
