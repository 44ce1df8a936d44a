// One run of the platform: load the YAML, apply overrides, build, simulate, report.
// This is what `hetvp run` and `hetvp check` do; tests call it too.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "platform/results.h"
#include "platform/run_context.h"

namespace hetvp {

// The objects of one simulation: the run's context (its outcome, RunState, and its timeline, Tracer,
// which the builder passes to every model it builds, platform/run_context.h) and its log levels.
// Constructing one
// also gives SystemC a fresh simulation context (sc_simcontext) when the process has elaborated a
// platform before, so that one process (the Python module, a test) can build and run platforms one
// after the other. One context at a time; the platform's modules must be destroyed before it.
class SimulationContext : public RunContext {
 public:
  SimulationContext();
  ~SimulationContext();
  SimulationContext(const SimulationContext&) = delete;
  SimulationContext& operator=(const SimulationContext&) = delete;

  // Logging (SC_REPORT): a message is shown when its level (warning; info = SC_INFO up to
  // SC_MEDIUM verbosity; debug = SC_INFO above it) is at or below the level of the instance it
  // comes from (the message's leading "instance..." or the reporting process's), else the run's.
  enum Level { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };
  static int parse_level(const std::string& name);  // -1 when not a level name
  int log_level = kWarning;
  std::map<std::string, int> instance_log_levels;
  int level_for(const std::string& msg, const std::string& process) const;
  uint64_t warnings = 0;          // hetvp warnings reported (shown or not)
  uint64_t warnings_shown = 0;    // printed
  uint64_t warnings_dropped = 0;  // over the cut-off of kMaxWarningsShown
  static constexpr uint64_t kMaxWarningsShown = 50;
};

// What a run produced, for callers that want it in memory (the Python module) rather than files.
struct RunOutputs {
  std::string stats_json;  // the --stats document
  ResultTable results;     // the --csv table
  std::string summary;     // the human summary (what `hetvp run` prints)
  std::vector<std::string> errors;  // a usage or configuration error (exit 2): each message (diagnose())
  size_t instances = 0;             // check_platform: instances built
};

struct RunOptions {
  std::string config;                  // YAML file
  std::vector<std::string> overrides;  // "path=value"
  std::vector<std::string> plugins;    // --plugin libraries, loaded before the config is validated
  std::string workload;                // overrides workload.name when not empty
  std::string stats_path;              // JSON stats
  std::string csv_path;                // workload results table
  std::string trace_path;              // Chrome trace-event timeline
  std::string trace_window;            // "START:END" in simulated time: only that part of the timeline
  std::string trace_filter;            // comma-separated globs over track names: only those tracks
  std::string debug_flags;             // comma-separated debug categories (platform/debug.h)
  bool quiet = false;
  std::string log_level;          // error|warning|info|debug; "" = warning (error with quiet)
  std::string version;            // "0.2.0 (git describe)": recorded in the stats' run section
  RunOutputs* outputs = nullptr;  // when set, run_platform also fills it
  std::string dump_config;        // write the resolved configuration (every default filled in) here
  // Runs the simulation up to the absolute time `until` (<= `limit`, simulation.time_limit), or
  // less when the run ends first (`hetvp run`'s progress display slices it; --stats-every calls it
  // once per period); empty: sc_start up to `until`. `run`: the run's context (its WorkProgress).
  std::function<void(const sc_core::sc_time& until, const sc_core::sc_time& limit, RunContext& run)> simulate;
  std::string stats_every;  // "1 ms": a snapshot of the statistics every so much simulated time (stats_periodic.h)
  double wall_limit_s = 0;  // end the run after this much wall time (0: none), as simulation.time_limit does
};

// A run SIGINT/SIGTERM ended exits 128 + the signal (130, 143).
enum ExitStatus { kExitOk = 0, kExitSimFailure = 1, kExitUsage = 2 };

// Builds and runs; returns the exit status. Human output goes to `out`, errors to `err`.
int run_platform(const RunOptions& opt, std::ostream& out, std::ostream& err);
// Validates and builds without simulating; returns 0 or 2.
int check_platform(const RunOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace hetvp
