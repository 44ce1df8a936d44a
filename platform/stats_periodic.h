// `hetvp run --stats-every T --stats FILE.json`: snapshots of every component's statistics every T
// of simulated time, as gem5's periodic stats dump does (m5.stats.periodicStatDump): one JSON
// object per line (JSON Lines) in FILE.periodic.jsonl, each the `components` object the --stats
// file ends with plus "sim_time_ns", the simulated time it was taken at. The counters are
// cumulative from the start of the run (nothing is reset): a line minus the previous one is what
// that period did. A last line is taken where the run ends (its end, an interrupt, a limit), so
// the file's last line is the --stats file's components.
//
// The simulation stops at each multiple of T (consecutive sc_start() calls, as --progress's
// slices: models see the same events in the same order, and the statistics are the same bytes as
// without snapshots). Initiators that run ahead of SystemC time (temporal decoupling, at most
// simulation.quantum) may have counted work up to a quantum past a snapshot's time.
#pragma once

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

namespace hetvp {

class Component;

class PeriodicStats {
 public:
  // Where the snapshots of a --stats file go: "s.json" -> "s.periodic.jsonl" (any other name:
  // NAME.periodic.jsonl).
  static std::string path_for(const std::string& stats_path);
  // Truncates `path`; throws std::runtime_error when it cannot be written.
  PeriodicStats(const std::string& path, const std::vector<Component*>& components);
  // Appends one line: every component's statistics at simulated time `at`.
  void dump(const sc_core::sc_time& at);
  // Runs the simulation up to `limit` with `simulate_to` (which simulates up to the absolute time
  // it is given, or less when the run ends), taking a snapshot at every multiple of `every`
  // before the end; the caller dump()s the last one after the models' end_of_run().
  void run(const sc_core::sc_time& limit, const sc_core::sc_time& every,
           const std::function<void(const sc_core::sc_time&)>& simulate_to);
  bool ok() const { return static_cast<bool>(out_); }
  const std::string& path() const { return path_; }
  uint64_t lines() const { return lines_; }

 private:
  std::string path_;
  std::ofstream out_;
  std::vector<Component*> components_;
  uint64_t lines_ = 0;
};

}  // namespace hetvp
