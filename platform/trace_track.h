// A model's handle on one of its tracks in the trace (platform/trace.h): its name is made once, at
// construction, and whether the track is traced (the instance's `trace:` selection,
// --trace-filter, simulation.trace_routers) is decided once per trace, the first time the model
// asks. After that the question costs a few loads and branches, so a model builds an event's
// name and arguments only for what the trace keeps:
//   TraceTrack dma_{std::string(name()) + ".dma"};                   // a member of the model
//   if (dma_.on(tracer())) tracer().span(dma_.name(), "DMA read", t0, took, TraceArgs().add("addr", a));
// A kept event costs the simulation a record of the call (platform/trace_record.h); a left-out
// one costs nothing more than the question.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "platform/trace.h"

namespace hetvp {

// Moves whenever any Tracer opens or closes (trace.cpp): what a TraceTrack decided before is
// decided again.
extern std::atomic<uint64_t> trace_epoch;

class TraceTrack {
 public:
  TraceTrack() = default;
  // `by_default` false: a router's track, traced only when asked (simulation.trace_routers, or
  // the instance's `trace: true`): a span per routed access is costly.
  explicit TraceTrack(std::string name, bool by_default = true) : name_(std::move(name)), by_default_(by_default) {}
  // A copy has the name and is decided on its own; a run pending on `o` stays `o`'s.
  TraceTrack(const TraceTrack& o) : name_(o.name_), by_default_(o.by_default_) {}
  TraceTrack& operator=(const TraceTrack& o);
  ~TraceTrack();  // a run pending here is written first (Tracer::span_run)

  const std::string& name() const { return name_; }
  // Whether an event on this track now would be written: a trace is open, now is within its
  // window (Tracer::enabled()), and the track is traced.
  bool on(Tracer& tracer) {
    if (!tracer.enabled()) return false;
    if (epoch_ != trace_epoch.load(std::memory_order_relaxed) || tracer_ != &tracer) decide(tracer);
    return on_;
  }

  // Tracer::span_run(TraceTrack&, ...)'s run in progress on this track, merged on the caller's
  // thread (a record per run rather than per call: a transfer's MMIO words, its TLPs).
  struct Run {
    const char* what = nullptr;
    sc_core::sc_time start, end, busy;
    uint64_t addr = 0, next = 0, bytes = 0, count = 0;
  };

 private:
  friend class Tracer;
  void decide(Tracer& tracer);
  Run run_;
  Tracer* runs_in_ = nullptr;  // the open Tracer whose list of runs holds this track
  std::string name_;
  bool by_default_ = true;
  bool on_ = false;
  uint64_t epoch_ = 0;
  const Tracer* tracer_ = nullptr;
};

}  // namespace hetvp
