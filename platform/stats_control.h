// The statistics of a run on demand, and their reset: gem5's `m5 dumpstats` / `m5 resetstats`,
// for the debug prompt (`hetvp debug`: `stats FILE.json`, `stats reset`; docs/stats.md "Dump and
// reset during a run"). A run service (RunContext::service<StatsControl>()): the simulation hands
// it the run's components and the writer of the --stats file's `run` section before it starts, and
// writes the --stats file's `components` through it at the end.
//
// What a reset zeroes, by the kind a stat is declared with (platform/stats.h):
//   counter, time  count from the reset on (an event count, an accumulated time);
//   value          untouched: computed when written from the model's state (configuration,
//                  a state name, a ratio or total the model derives from its own members);
//   record, undeclared (hand-written)  untouched.
// The models are not touched: a reset keeps the statistics as they were at that moment (a
// baseline) and every later dump writes counter and time stats minus it. A stat the baseline did
// not have (a `.when()` that was false then) counts from 0. With no reset, a dump is exactly
// Component::dump_stats (the --stats file is the same bytes as before the service existed).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "platform/json.h"

namespace hetvp {

class Component;
struct RunContext;

class StatsControl {
 public:
  explicit StatsControl(RunContext&);
  ~StatsControl();

  // The components whose statistics a dump writes, in the --stats file's order.
  void set_components(std::vector<Component*> components) { components_ = std::move(components); }
  bool has_components() const { return !components_.empty(); }
  // Writes the members of the `run` object of a dump taken during the run (the --stats file's
  // identity of the run: version, config, overrides, workload, seed).
  void set_run_header(std::function<void(JsonWriter&)> f) { header_ = std::move(f); }

  // Every component's statistics as members of `w`'s current object ("cpu": {...}, ...): counter
  // and time stats since the last reset.
  void write_components(JsonWriter& w) const;
  // A whole document in the --stats file's shape, taken now:
  //   {"run": {<header>, "simulated_ns", "simulated_seconds", "stats_since_ns", "status": "running"},
  //    "components": {...}}
  std::string document() const;

  // Counter and time stats count from now (sc_time_stamp()) on.
  void reset();
  unsigned resets() const { return resets_; }
  // The simulated time of the last reset (0 when there was none).
  const sc_core::sc_time& since() const { return since_; }

  // A parsed JSON value as JsonWriter writes it (stats_control.cpp); public for the tests.
  struct Node;

 private:
  std::vector<Component*> components_;
  std::function<void(JsonWriter&)> header_;
  std::map<std::string, std::unique_ptr<Node>> baseline_;  // by instance name
  unsigned resets_ = 0;
  sc_core::sc_time since_;
};

// Parses `text` (a JSON value as JsonWriter writes it) and writes it again through `w` as the
// member `key` of its current object: the same bytes (the stats round trip; tests). Throws
// std::runtime_error on text that is not JSON.
void rewrite_json(JsonWriter& w, const std::string& key, const std::string& text);

}  // namespace hetvp
