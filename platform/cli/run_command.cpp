// hetvp — `hetvp run`, `hetvp check` and `hetvp debug` (= run with the `debug` workload).
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform/cli/command.h"
#include "platform/simulation.h"

namespace hetvp::cli {
namespace {

const char* kRunUsage =
    "usage: hetvp run CONFIG [options]\n"
    "  --workload NAME     run host program NAME instead of the config's workload.name\n"
    "  --set PATH=VALUE    override any YAML value by its dotted path (repeatable), e.g. --set pcie0.lanes=8\n"
    "  --stats FILE.json   write every component's statistics as JSON (deterministic for a seed)\n"
    "  --csv FILE.csv      write the workload's result table as CSV\n"
    "  --trace FILE.json   write a transaction timeline (Chrome trace-event format)\n"
    "  --dump-config F.yaml  write the resolved configuration (every default filled in, every --set applied);\n"
    "                      running it gives the same statistics\n"
    "  --plugin LIB.so     load a plugin library (component types, host programs) first (repeatable)\n"
    "  --quiet, -q         print nothing but errors (log level error)\n"
    "  -v, -vv             log level info, debug\n"
    "  --log-level L       error | warning (default) | info | debug: which SC_REPORT messages are printed;\n"
    "                      per instance: --set X.log=debug (or `log: debug` in its YAML block)\n";

const char* kCheckUsage =
    "usage: hetvp check CONFIG [--set PATH=VALUE]... [--plugin LIB.so]... [--dump-config F.yaml]\n"
    "  validates CONFIG (types, keys, values, connections, address maps) and builds the platform\n"
    "  without simulating; exit 0 when valid, 2 otherwise\n";

const char* kDebugUsage =
    "usage: hetvp debug CONFIG [--script FILE] [--commands 'LINE; LINE; ...'] [--set PATH=VALUE]... [--stats F]\n"
    "  boots nothing by itself: the script does (`boot`, or `load`/`start`), then sends commands and dumps\n"
    "  registers and memory through the MMIO register blocks. Lines: boot | load T FILE | start|stop|cont|reset T |\n"
    "  step T [N] | wait T STATE [US] | cmd T NAME [DATA [ARG...]] [notify] | read T OFF | write T OFF V | regs T |\n"
    "  dump T OFF LEN | alloc NAME SIZE [vram|host] | set NAME V | expect V | state T | echo TEXT | sleep US\n"
    "  (T = hub, gpcN, gpcs; values take $last, $NAME, $NAME.lo, $NAME.hi). docs/firmware.md. Exit status as `hetvp "
    "run`.\n";

// `run` and `check`: one option parser, the options `check` has no use for are refused.
int run_or_check(std::vector<std::string> args) {
  const std::string cmd = args[0];
  const char* usage = cmd == "run" ? kRunUsage : kCheckUsage;

  RunOptions opt;
  opt.version = std::string(HETVP_VERSION) + " (" + HETVP_GIT_DESCRIBE + ")";
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument(std::string(a) + " needs " + what);
      return args[++i];
    };
    try {
      if (a == "--help" || a == "-h") {
        std::cout << usage;
        return 0;
      } else if (a == "--dump-config") {
        opt.dump_config = value("a file name");
      } else if (a == "--plugin") {
        opt.plugins.push_back(value("a plugin library"));
      } else if (a == "--set") {
        opt.overrides.push_back(value("PATH=VALUE"));
      } else if (a.rfind("--set=", 0) == 0) {
        opt.overrides.push_back(a.substr(6));
      } else if (cmd == "run" && a == "--workload") {
        opt.workload = value("a workload name");
      } else if (cmd == "run" && a == "--stats") {
        opt.stats_path = value("a file name");
      } else if (cmd == "run" && a == "--csv") {
        opt.csv_path = value("a file name");
      } else if (cmd == "run" && a == "--trace") {
        opt.trace_path = value("a file name");
      } else if (a == "--quiet" || a == "-q") {
        opt.quiet = true;
      } else if (a == "-v" || a == "-vv") {
        opt.log_level = a == "-v" ? "info" : "debug";
      } else if (a == "--log-level" || a.rfind("--log-level=", 0) == 0) {
        opt.log_level = a == "--log-level" ? value("error, warning, info or debug") : a.substr(12);
        if (SimulationContext::parse_level(opt.log_level) < 0)
          return usage_error("--log-level " + opt.log_level + ": expected error, warning, info or debug", usage);
      } else if (!a.empty() && a[0] == '-') {
        return usage_error("unknown option '" + a + "'", usage);
      } else if (opt.config.empty()) {
        opt.config = a;
      } else {
        return usage_error("unexpected argument '" + a + "'", usage);
      }
    } catch (const std::invalid_argument& e) {
      return usage_error(e.what(), usage);
    }
  }
  if (opt.config.empty()) return usage_error("no CONFIG file given", usage);
  return cmd == "run" ? run_platform(opt, std::cout, std::cerr) : check_platform(opt, std::cout, std::cerr);
}

// = run CONFIG --workload debug --set workload.args.script=FILE ...
int debug_command(std::vector<std::string> args) {
  std::vector<std::string> r{"run", "--workload", "debug"};
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kDebugUsage;
      return 0;
    } else if ((args[i] == "--script" || args[i] == "--commands") && i + 1 < args.size()) {
      r.push_back("--set");
      r.push_back("workload.args." + args[i].substr(2) + "=" + args[i + 1]);
      ++i;
    } else {
      r.push_back(args[i]);
    }
  }
  return run_or_check(std::move(r));
}

}  // namespace

HETVP_REGISTER_COMMAND("run", 10,
                       "  run CONFIG     build the platform described by CONFIG (YAML), boot it and run its workload\n",
                       run_or_check);
HETVP_REGISTER_COMMAND("check", 20, "  check CONFIG   validate CONFIG and build the platform without simulating\n",
                       run_or_check);
HETVP_REGISTER_COMMAND("debug", 60,
                       "  debug CONFIG   the microcontroller debug tool: run a debug script on the booted platform\n",
                       debug_command);

}  // namespace hetvp::cli
