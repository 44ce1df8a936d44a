// `hetvp sweep`: a grid of configurations (a YAML sweep file), run point by point as `hetvp run`
// processes on this machine (-j N) or as a Slurm job array, resumable, merged into one CSV and
// plotted with gnuplot. docs/sweeps.md describes the file and the commands.
//
// A point is one resolved configuration: the base config, the sweep's fixed overrides and one
// value of every axis. It lives in OUT/points/<hash of the resolved YAML>/ and is finished once
// its `status` file exists (written last, by rename): a finished point is never run again.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace hetvp::sweep {

// One dimension of the grid: a plain axis has one path; a zip group has several paths whose
// value lists have the same length and advance together.
struct Dimension {
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> values;  // values[path][i], as --set value text
  size_t size() const { return values.empty() ? 0 : values[0].size(); }
};

struct SlurmOptions {
  std::string partition, time, mem, account;
  int cpus_per_task = 1;
  int max_parallel = 0;             // the %M of --array=0-K%M (0: no limit)
  std::vector<std::string> setup;   // shell lines before the task (module load ..., export ...)
  std::vector<std::string> sbatch;  // extra #SBATCH options, e.g. "--qos=short"
};

struct Spec {
  std::string file;              // the sweep file, as given
  std::string base;              // absolute path of the base configuration
  std::string workload;          // fixed workload (empty: the config's)
  std::vector<std::string> set;  // fixed overrides PATH=VALUE
  std::vector<Dimension> dims;   // axes, zip groups, seeds, in file order (the last varies fastest)
  bool keep_stats = true, keep_csv = true;
  std::vector<std::string> columns;  // stats copied into results.csv: "instance.stat[.sub]"
  double timeout_s = 0;              // per point wall-clock limit (0: none)
  SlurmOptions slurm;
};

struct Point {
  size_t index = 0;
  std::vector<std::pair<std::string, std::string>> axis_values;  // column name, value
  std::string workload;                                          // --workload (empty: none)
  std::vector<std::string> sets;                                 // every --set PATH=VALUE, in order
  std::string hash;                                              // 16 hex digits of the resolved configuration
};

// Parses and validates a sweep file; throws ConfigError ("file:line:col: what").
Spec load_spec(const std::string& path);
// Expands the grid and validates every point's resolved configuration against the schemas;
// an error names the sweep file's axis value that causes it. Throws ConfigError.
std::vector<Point> expand(const Spec& spec);
// `hetvp run` arguments of a point (without the program name) writing into `dir`.
std::vector<std::string> run_args(const Spec& spec, const Point& p, const std::string& dir);

// The `hetvp sweep ...` command; args[0] == "sweep".
int command(const std::vector<std::string>& args);
// `hetvp sweep plot ...` (plot.cpp); args[0] == "sweep", args[1] == "plot".
int plot_command(const std::vector<std::string>& args);

}  // namespace hetvp::sweep
