// hetvp — `hetvp run`, `hetvp check` and `hetvp debug` (= run with the `debug` workload).
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "platform/cli/command.h"
#include "platform/cli/progress.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/paths.h"
#include "platform/simulation.h"

namespace hetvp::cli {
namespace {

// A configuration file as hetvp reads it (Config::load_file): a regular file within the size limit.
constexpr InputKind kConfigFile{"a YAML configuration file", ConfigLimits::kMaxBytes};

const char* kRunUsage = "usage: hetvp run CONFIG [options]";
const char* kRunAbout =
    "  builds the platform described by CONFIG (a YAML file, or the name of a shipped config: `hetvp run default`),\n"
    "  boots it and runs its workload. Options take their value as `--opt VALUE` or `--opt=VALUE`.\n"
    "  Log levels: --log-level error | warning (default) | info | debug decides which SC_REPORT messages are\n"
    "  printed; per instance: --set X.log=debug (or `log: debug` in its YAML block).\n";
const char* kCheckUsage = "usage: hetvp check CONFIG [--set PATH=VALUE]... [--plugin LIB.so]... [--dump-config F.yaml]";
const char* kCheckAbout =
    "  validates CONFIG (types, keys, values, connections, address maps) and builds the platform\n"
    "  without simulating; exit 0 when valid, 2 otherwise\n";
const char* kDebugUsage =
    "usage: hetvp debug CONFIG [--script FILE] [--commands 'LINE; LINE; ...'] [--set PATH=VALUE]... [--stats F]";
const char* kDebugAbout =
    "  boots nothing by itself: the script does (`boot`, or `load`/`start`), then sends commands and dumps\n"
    "  registers and memory through the MMIO register blocks, on RV32 and Falcon controllers. Lines: boot |\n"
    "  load T FILE | start|stop|cont|reset T | step T [N] | break T ADDR|SYM | delete T [ADDR|SYM] |\n"
    "  watch T REG [read|write|access] | unwatch T | info | disas T [ADDR|SYM] [N] | symbols T FILE |\n"
    "  wait T STATE [US] | waitreg T OFF MASK [V] [US] | cmd T NAME [DATA [ARG...]] [notify] | read T OFF |\n"
    "  write T OFF V | regs T | dump T [code|data] OFF LEN | alloc NAME SIZE [vram|host] | set NAME V |\n"
    "  expect V | state T | echo TEXT | sleep US (T = hub, gpcN, gpcs; values take $last, $NAME, $NAME.lo,\n"
    "  $NAME.hi; OFF and REG a register name or offset). docs/firmware.md. A bad line is reported with its\n"
    "  number and the session goes on; exit status 1 when a --script/--commands line failed, else as `hetvp run`.\n"
    "  With neither --script nor --commands: an interactive prompt on stdin (help, history, quit); its errors\n"
    "  never fail the run.\n";

enum class Mode { kRun, kCheck, kDebug };

// `run`, `check` and `debug`: one set of options; `check` has no use for the outputs of a run,
// `debug` adds its script and picks the workload.
int run_check_or_debug(Mode mode, const std::vector<std::string>& args) {
  RunOptions opt;
  opt.version = std::string(HETVP_VERSION) + " (" + HETVP_GIT_DESCRIBE + ")";
  std::unique_ptr<CLI::App> app = mode == Mode::kRun     ? make_parser(kRunUsage, kRunAbout)
                                  : mode == Mode::kCheck ? make_parser(kCheckUsage, kCheckAbout)
                                                         : make_parser(kDebugUsage, kDebugAbout);
  std::string script, commands;
  int verbosity = 0;
  bool progress = false, no_progress = false;
  app->add_option("CONFIG", opt.config, "the configuration: a YAML file or a shipped config's name")->type_name("");
  if (mode == Mode::kRun)
    app->add_option("--workload", opt.workload, "run host program NAME instead of the config's workload.name")
        ->type_name("NAME");
  if (mode == Mode::kDebug) {
    app->add_option("--script", script, "the debug script to run (workload.args.script)")->type_name("FILE");
    app->add_option("--commands", commands, "debug lines separated by ';' (workload.args.commands)")
        ->type_name("'LINE; ...'");
  }
  app->add_option("--set", opt.overrides,
                  "override any YAML value by its dotted path (repeatable), e.g. --set pcie0.lanes=8")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);
  if (mode != Mode::kCheck) {
    app->add_option("--stats", opt.stats_path, "write every component's statistics as JSON (deterministic for a seed)")
        ->type_name("FILE.json");
    app->add_option("--stats-every", opt.stats_every,
                    "also snapshot the statistics every T of simulated time, one JSON object per line (with "
                    "\"sim_time_ns\") in FILE.periodic.jsonl beside --stats FILE.json, e.g. 1ms")
        ->type_name("T");
    app->add_option("--csv", opt.csv_path, "write the workload's result table as CSV")->type_name("FILE.csv");
    app->add_option("--trace", opt.trace_path,
                    "write a transaction timeline, its format by the extension: .json (Chrome trace-event JSON), "
                    ".json.gz (the same gzip-compressed), .pftrace (Perfetto's protobuf format, the most compact)")
        ->type_name("FILE");
    app->add_option("--trace-window", opt.trace_window,
                    "trace only what overlaps this stretch of simulated time, e.g. 2ms:3ms")
        ->type_name("START:END");
    app->add_option("--trace-filter", opt.trace_filter,
                    "trace only the tracks a glob matches (comma-separated; a glob matching an instance keeps its "
                    "tracks), e.g. 'pcie0,gpu0.ce*'")
        ->type_name("GLOBS");
  }
  app->add_option("--dump-config", opt.dump_config,
                  "write the resolved configuration (every default filled in, every --set applied); running it "
                  "gives the same statistics")
      ->type_name("F.yaml");
  app->add_option("--plugin", opt.plugins, "load a plugin library (component types, host programs) first (repeatable)")
      ->type_name("LIB.so")
      ->allow_extra_args(false);
  if (mode != Mode::kCheck)
    app->add_option("--wall-limit", opt.wall_limit_s,
                    "end the run after this many seconds of wall time, writing what was done (exit 1, as "
                    "simulation.time_limit); SIGINT/SIGTERM end it the same way (exit 130/143)")
        ->type_name("SECONDS")
        ->check(CLI::PositiveNumber);
  if (mode != Mode::kCheck) {
    app->add_flag("--progress", progress,
                  "show progress on stderr: the percent done and an ETA where the work is known (the workload's "
                  "points or runs, else the time limit), simulated time and rate (default: when it is a terminal)");
    app->add_flag("--no-progress", no_progress, "never show progress");
  }
  if (mode != Mode::kCheck)
    app->add_option("--debug-flags", opt.debug_flags,
                    "print the debug messages of these categories (comma-separated; `help` or `hetvp list "
                    "debug-flags` lists them)")
        ->type_name("FLAG,...");
  app->add_flag("-q,--quiet", opt.quiet, "print nothing but errors (log level error)");
  app->add_flag("-v", verbosity,
                "log level info (the run's milestones, models' notes); -vv: debug (also every debug category)");
  app->add_option("--log-level", opt.log_level, "which SC_REPORT messages are printed")
      ->type_name("error|warning|info|debug");
  const int parsed = parse_args(*app, args);
  if (parsed >= 0) return parsed;
  const std::string help = app->help();
  if (!opt.log_level.empty() && SimulationContext::parse_level(opt.log_level) < 0)
    return usage_error("--log-level " + opt.log_level + ": expected error, warning, info or debug", help);
  if (verbosity > 0 && opt.log_level.empty()) opt.log_level = verbosity == 1 ? "info" : "debug";
  if (progress && no_progress) return usage_error("--progress and --no-progress contradict each other", help);
  if (opt.debug_flags == "help" || opt.debug_flags == "list") return list_debug_flags(std::cout);
  if (opt.config.empty()) return usage_error("no CONFIG file given", help);

  // A path to an existing file, else a shipped config's name (configs/NAME.yaml of the data folder).
  const std::string found = find_config(opt.config);
  // A path that exists but is no file to read (a directory, /dev/zero, a FIFO, a file over the
  // size limit): say what it is rather than "no such file".
  if (found.empty() && access(opt.config.c_str(), F_OK) == 0) {
    try {
      check_input_file(opt.config, kConfigFile);
    } catch (const InputFileError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (found.empty()) {
    std::string names;
    for (const std::string& n : shipped_configs()) names += (names.empty() ? "" : ", ") + n;
    std::cerr << "error: " << opt.config << ": no such configuration file, nor a shipped config of that name"
              << " (shipped, in " << data_dir() << "/configs: " << (names.empty() ? "none" : names) << ")\n";
    return kExitUsage;
  }
  opt.config = found;

  if (mode == Mode::kCheck) return check_platform(opt, std::cout, std::cerr);
  if (mode == Mode::kDebug) {
    opt.workload = "debug";
    if (!script.empty()) opt.overrides.push_back("workload.args.script=" + script);
    if (!commands.empty()) opt.overrides.push_back("workload.args.commands=" + commands);
    // Neither: an interactive prompt on stdin (sw/mcu/debug_prompt.h); no progress line beside it.
    if (script.empty() && commands.empty()) {
      opt.overrides.push_back("workload.args.interactive=true");
      no_progress = !progress;
    }
  }
  const bool terminal = isatty(STDERR_FILENO) == 1;
  if (progress || (terminal && !no_progress && !opt.quiet)) {
    auto display = std::make_shared<ProgressDisplay>(std::cerr, terminal);
    opt.simulate = [display](const sc_core::sc_time& until, const sc_core::sc_time& limit, RunContext& run) {
      display->simulate(until, limit, run);
    };
  }
  return run_platform(opt, std::cout, std::cerr);
}

}  // namespace

HETVP_REGISTER_COMMAND("run", 10,
                       "  run CONFIG     build the platform described by CONFIG (YAML), boot it and run its workload\n",
                       [](std::vector<std::string> args) { return run_check_or_debug(Mode::kRun, args); });
HETVP_REGISTER_COMMAND("check", 20, "  check CONFIG   validate CONFIG and build the platform without simulating\n",
                       [](std::vector<std::string> args) { return run_check_or_debug(Mode::kCheck, args); });
HETVP_REGISTER_COMMAND("debug", 60,
                       "  debug CONFIG   the microcontroller debug tool: run a debug script on the booted platform\n",
                       [](std::vector<std::string> args) { return run_check_or_debug(Mode::kDebug, args); });

}  // namespace hetvp::cli
