// One run of the platform: load the YAML, apply overrides, build, simulate, report.
// This is what `hetvp run` and `hetvp check` do; tests call it too.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hetvp {

struct RunOptions {
  std::string config;                  // YAML file
  std::vector<std::string> overrides;  // "path=value"
  std::string workload;                // overrides workload.name when not empty
  std::string stats_path;              // JSON stats
  std::string csv_path;                // workload results table
  std::string trace_path;              // Chrome trace-event timeline
  bool quiet = false;
  std::string version;  // "0.2.0 (git describe)": recorded in the stats' run section
};

enum ExitStatus { kExitOk = 0, kExitSimFailure = 1, kExitUsage = 2 };

// Builds and runs; returns the exit status. Human output goes to `out`, errors to `err`.
int run_platform(const RunOptions& opt, std::ostream& out, std::ostream& err);
// Validates and builds without simulating; returns 0 or 2.
int check_platform(const RunOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace hetvp
