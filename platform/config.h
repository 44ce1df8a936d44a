// Loading, overriding and validating a hetvp YAML configuration.
//
// A configuration is a YAML map. The reserved top-level keys are `simulation` (seed, quantum,
// limits), `workload` (which host program runs, with its arguments) and `plugins` (libraries to
// load, platform/plugin.h); every other key is a
// component instance: `name: {type: T, count: N, connect: {port: target}, ...params of T}`.
// Every error is a ConfigError naming file:line:column and the YAML path; the `hetvp`
// program turns it into exit status 2 before any simulation starts.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "platform/diagnostics.h"
#include "platform/param_set.h"
#include "platform/params.h"

namespace hetvp {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // Several errors at once (Config::validate collects the errors of independent keys and
  // instances): what() joins them with "\nerror: ", so `hetvp` prints one "error: " line each.
  explicit ConfigError(const std::vector<std::string>& all);
  // Each error's message (what() alone for a single error).
  std::vector<std::string> messages() const { return all_.empty() ? std::vector<std::string>{what()} : all_; }

 private:
  std::vector<std::string> all_;
};


// One error split into the location every hetvp configuration error starts with ("FILE:LINE:COL: ",
// "FILE (--set PATH): " or "FILE: ") and the rest; line and col are 0 when not located, so the
// Python module's ConfigError gets its fields from here rather than by matching text itself.
struct ConfigDiagnostic {
  std::string file;
  int line = 0, col = 0;
  std::string message;  // the whole message, location included
};
ConfigDiagnostic diagnose(const std::string& message);

// What a configuration may be, so that loading it can neither crash nor hang (docs/reliability.md).
// Every limit is checked on the parse events, before any node tree is built or walked.
struct ConfigLimits {
  static constexpr size_t kMaxBytes = 1 << 20;   // file size (the shipped configs are ~5 KiB)
  static constexpr int kMaxDepth = 64;           // nesting of maps and lists, aliases expanded
  static constexpr uint64_t kMaxNodes = 100000;  // nodes (keys, values, items), aliases expanded
};

// The nearest of `candidates` to `word`, or "" when none is close.
std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

// The reserved `simulation` section.
struct SimulationConfig : ParamSet {
  Int<uint64_t> seed{this, "seed", 1, "seed of every random choice in the run (same seed, same stats)",
                     Range{0, 4294967295.0}};
  // At least 1 ns, the shortest clock period of the shipped models (a 1 GHz cycle): a shorter
  // quantum only makes every initiator synchronise more often (0 s: on every access, about 10x
  // slower) without making anything more exact. docs/architecture.md.
  Time quantum{this, "quantum", "1 us", "temporal-decoupling quantum: how far an initiator may run ahead (>= 1 ns)",
               Min{1e-9}};
  Time time_limit{this, "time_limit", "60 s", "simulated-time watchdog: a run that has not ended by then fails"};
  // A fixed number, not the host's memory, so that `hetvp check` accepts or refuses a configuration
  // the same on every machine (platform/host_memory.h). assumption: 2 GiB, far above what the
  // largest shipped configuration claims (3.5 MiB, coherence.yaml) and within a CI runner's memory.
  Size memory_budget{this, "memory_budget", "2 GiB",
                     "host memory the models may allocate before simulating (cache arrays, memories' tables); a "
                     "larger platform is a configuration error naming the largest contributors",
                     Range{1 << 20, 1099511627776.0}};
  Bool trace_routers{this, "trace_routers", false,
                     "with --trace, also trace every router's accesses (a span each: large files); one router: its "
                     "trace: true"};
};

// The reserved `workload` section: which host program runs, on which CPU, with what arguments.
struct WorkloadConfig : ParamSet {
  Str name{this, "name", "boot", "host program to run after boot (see `hetvp list`)"};
  Str cpu{this, "cpu", "cpu", "host CPU instance that runs it"};
  Any args{this, "args", "arguments of the program (validated by the program's own schema)"};
};

struct Config {
  std::string file;  // as given by the user, for messages
  YAML::Node root;
  // The file's name and the paths given with --set (platform/params.h): every location in an
  // error about this configuration comes from it. Shared by copies, like `root`.
  std::shared_ptr<ConfigSource> source = std::make_shared<ConfigSource>();
  std::string location(const YAML::Node& node) const { return source->location(node); }
  std::string location(const YAML::Node& node, const std::string& path) const { return source->location(node, path); }

  // Loads and parses a file; syntax errors and duplicate keys become ConfigErrors.
  static Config load_file(const std::string& path);
  static Config load_string(const std::string& text, const std::string& name);

  // Applies "a.b.c=value" (value is parsed as YAML). Creates missing maps.
  void apply_override(const std::string& assignment);

  // Loads the libraries listed in the reserved `plugins:` section (platform/plugin.h); validate()
  // does this first. Throws ConfigError.
  void load_plugins() const;
  // Validates reserved sections and every instance against the registered component schemas.
  void validate() const;

  // Instance names in file order (reserved sections excluded).
  std::vector<std::string> instance_names() const;
  // The configuration with every default filled in (instances, groups, list elements, the
  // reserved sections and the workload's arguments): what `--dump-config` writes and the stats'
  // run record holds. Running it gives the same platform. Call after validate().
  YAML::Node resolved() const;
  SimulationConfig simulation() const;  // the `simulation` section (call after validate())
  WorkloadConfig workload() const;      // the `workload` section: name, cpu, args

  static std::shared_ptr<const Schema> simulation_schema();
  static std::shared_ptr<const Schema> workload_schema();
};

// `own` (a component type's schema) plus the keys every instance may carry: type, count, connect,
// doc, log, trace.
Schema instance_schema(const Schema& own);

// Validates `node` against `schema`; `path` is its dotted YAML path, `source` the configuration it
// belongs to (for locations). Errors of independent keys go to `diags`; one that stops the check
// of this node (not a map) is thrown as a ConfigError.
void validate_node(const YAML::Node& node, const Schema& schema, const std::string& path, const ConfigSource& source,
                   Diagnostics& diags);

}  // namespace hetvp
