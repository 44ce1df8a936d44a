// A transaction timeline in the Chrome trace-event format (open it in chrome://tracing or
// Perfetto). Off unless `hetvp run --trace FILE`; when off, a model's `if (tracer.enabled())`
// costs one load and one branch and nothing is formatted.
//
// Which components are traced: every instance, unless some instance says `trace: true` in YAML
// (or --set X.trace=true), then only those; `trace: false` leaves one out. Some models are off
// unless asked (routers: a span per routed access is costly), see enabled_for(name, false).
// Each run has its own (RunContext, platform/run_context.h); a model reaches it through tracer()
// of its Component base. Tracks are named after the model (its SystemC name); a track belongs to the instance named by
// its first component ("gpu0.hub" belongs to gpu0).
#pragma once

#include <map>
#include <set>
#include <string>

#include <systemc>

namespace hetvp {

class Tracer {
 public:
  void open(const std::string& path);
  void close();
  bool enabled() const { return enabled_; }
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
            const sc_core::sc_time& duration, const std::string& args = "");
  // A counter track (e.g. a link's occupancy): `track`'s counter `name` takes `value` at `at`.
  void counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value);
  // A counter that moves by `delta` at `at` (e.g. bytes entering and leaving a queue): calls may
  // come in any time order (decoupled initiators); close() writes the running sum in time order.
  void counter_delta(const std::string& track, const std::string& name, const sc_core::sc_time& at, double delta);
  // An instant event on `track` (e.g. a single probe).
  void instant(const std::string& track, const std::string& what, const sc_core::sc_time& at,
               const std::string& args = "");

 private:
  int track_id(const std::string& track);
  bool enabled_ = false;
  std::string path_;
  std::string events_;
  bool first_ = true;
  std::map<std::string, int> tracks_;
  std::map<std::string, bool> selected_;
  std::map<std::string, std::map<sc_core::sc_time, double>> deltas_;  // counter_delta: "track name" -> time -> sum
  bool any_selected_ = false;
  bool trace_routers_ = false;
};

}  // namespace hetvp
