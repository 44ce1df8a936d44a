// The hetvp command-line program.
//
//   hetvp run CONFIG [--workload NAME] [--set PATH=VALUE]... [--stats F.json] [--csv F.csv] [--trace F]
//   hetvp check CONFIG [--set PATH=VALUE]...
//   hetvp list
//   hetvp sweep SPEC.yaml --out DIR [--backend local|slurm] [-j N] [--dry-run]   (platform/sweep)
// Exit status: 0 success, 1 the simulated system failed, 2 usage or configuration error.
#include <cctype>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <systemc>

#include "models/mcu/rv32/standalone.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/paths.h"
#include "platform/plugin.h"
#include "platform/program.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/schema_json.h"
#include "platform/simulation.h"
#include "platform/stats_doc.h"
#include "platform/sweep/sweep.h"

namespace {

const char* kUsage =
    "usage: hetvp COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  run CONFIG     build the platform described by CONFIG (YAML), boot it and run its workload\n"
    "  check CONFIG   validate CONFIG and build the platform without simulating\n"
    "  list [TYPE] [--plugin LIB.so]  list component types and host programs (workloads); with TYPE, every parameter\n"
    "                 of that type or program: kind, default, range, description\n"
    "  --version      print hetvp's version\n"
    "  iss ELF        run an RV32 program on the bare ISS (standalone mode); exit status = its exit code\n"
    "  debug CONFIG   the microcontroller debug tool: run a debug script on the booted platform\n"
    "  schema         print a JSON Schema of the configuration format (for editors and checkers)\n"
    "  registers      print the register tables of every block (docs/registers.md), from firmware/include/hetvp\n"
    "  stats-doc [CONFIG]  print every declared statistic (unit, description) of each component type in CONFIG\n"
    "                 (default configs/coherence.yaml) as docs/stats.md's tables\n"
    "  sweep SPEC     run a grid of configurations (local processes or a Slurm job array), merge, plot\n"
    "\n"
    "`hetvp COMMAND --help` describes a command's options.\n"
    "exit status: 0 success, 1 the simulated system reported a failure, 2 usage or configuration error\n";

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

int usage_error(const std::string& msg, const char* usage) {
  std::cerr << "error: " << msg << "\n" << usage;
  return hetvp::kExitUsage;
}

// One line per parameter of `schema` (groups and list elements indented below their key): the
// same facts the config loader validates against, so this can never disagree with it.
void print_schema(const hetvp::Schema& schema, const std::string& indent) {
  for (const auto& s : schema.specs) {
    std::string line = indent + s.name + " (" + hetvp::to_string(s.kind);
    if (!s.choices.empty()) {
      line += ":";
      for (size_t i = 0; i < s.choices.size(); ++i) line += (i ? "|" : " ") + s.choices[i];
    }
    line += ")";
    if (s.required)
      line += " required";
    else if (s.default_text)
      line += " default " + (s.default_text->empty() ? std::string("\"\"") : *s.default_text);
    if (s.min || s.max)
      line += " range " + (s.min ? hetvp::format("%g", *s.min) : std::string("")) + ".." +
              (s.max ? hetvp::format("%g", *s.max) : std::string(""));
    std::cout << line << " — " << s.doc << "\n";
    if (s.children) print_schema(*s.children, indent + "  ");
  }
}

int list_command(std::vector<std::string> args) {
  // --plugin LIB.so (repeatable): its types are listed with the built-in ones.
  for (size_t i = 1; i < args.size();) {
    if (args[i] != "--plugin") {
      ++i;
      continue;
    }
    if (i + 1 >= args.size()) return usage_error("--plugin needs a plugin library", kUsage);
    try {
      hetvp::load_plugin(args[i + 1], "--plugin");
    } catch (const hetvp::ConfigError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return hetvp::kExitUsage;
    }
    args.erase(args.begin() + i, args.begin() + i + 2);
  }
  if (args.size() == 2) {  // hetvp list TYPE: a component type's or a host program's parameters
    const std::string& t = args[1];
    if (auto* c = hetvp::ComponentRegistry::get().find(t)) {
      std::cout << "component type " << t << " — " << c->doc << "\nparameters (ranges in base units: bytes, s, Hz):\n";
      print_schema(*c->schema(), "  ");
      return 0;
    }
    if (auto* p = hetvp::ProgramRegistry::get().find(t)) {
      std::cout << "host program " << t << " — " << p->doc << "\narguments (workload.args; ranges in base units):\n";
      print_schema(*p->schema(), "  ");
      return 0;
    }
    std::vector<std::string> all = hetvp::ComponentRegistry::get().names();
    for (auto& n : hetvp::ProgramRegistry::get().names()) all.push_back(n);
    const std::string near = hetvp::nearest_name(t, all);
    return usage_error("no component type or host program '" + t + "'" +
                           (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; `hetvp list` names them",
                       kUsage);
  }
  if (args.size() > 2) return usage_error("list takes at most one TYPE", kUsage);
  std::cout << "component types:\n";
  auto from = [](const std::string& origin) { return origin.empty() ? std::string() : " [plugin " + origin + "]"; };
  for (auto& n : hetvp::ComponentRegistry::get().names())
    std::cout << "  " << n << " — " << hetvp::ComponentRegistry::get().find(n)->doc
              << from(hetvp::ComponentRegistry::get().origin(n)) << "\n";
  std::cout << "host programs (workloads):\n";
  for (auto& n : hetvp::ProgramRegistry::get().names())
    std::cout << "  " << n << " — " << hetvp::ProgramRegistry::get().find(n)->doc
              << from(hetvp::ProgramRegistry::get().origin(n)) << "\n";
  return 0;
}

// `hetvp iss` (models/mcu/rv32/standalone.h) and `hetvp debug` (the `debug` workload, sw/mcu).
const char* kIssUsage =
    "usage: hetvp iss ELF [--max-instructions N] [--trace] [--no-dmi] [--strict-traps] [--trap-watchdog N]\n"
    "  runs an RV32IMC ELF on the bare ISS until it stores (code<<1)|1 to its `tohost` symbol\n"
    "  --strict-traps: a trap inside a trap handler stops the run (debugging aid; off: nested traps per the spec)\n"
    "  --trap-watchdog N: stop when the same trap (mcause, mepc) repeats N times with no progress (default 1000, 0 = "
    "off)\n"
    "  --exit-code-file FILE: write the program's full exit code to FILE when it exits\n"
    "  exit status: 0 when the program exits with 0; its code when 3..119; 120 for any other code (1, 2, 120 and\n"
    "  above: see the log line or --exit-code-file); 1 when the simulator stops it (fatal trap, timeout, wfi\n"
    "  deadlock); 2 for a usage error or an ELF that cannot be loaded\n";
const char* kDebugUsage =
    "usage: hetvp debug CONFIG [--script FILE] [--commands 'LINE; LINE; ...'] [--set PATH=VALUE]... [--stats F]\n"
    "  boots nothing by itself: the script does (`boot`, or `load`/`start`), then sends commands and dumps\n"
    "  registers and memory through the MMIO register blocks. Lines: boot | load T FILE | start|stop|cont|reset T |\n"
    "  step T [N] | wait T STATE [US] | cmd T NAME [DATA [ARG...]] [notify] | read T OFF | write T OFF V | regs T |\n"
    "  dump T OFF LEN | alloc NAME SIZE [vram|host] | set NAME V | expect V | state T | echo TEXT | sleep US\n"
    "  (T = hub, gpcN, gpcs; values take $last, $NAME, $NAME.lo, $NAME.hi). docs/firmware.md. Exit status as `hetvp "
    "run`.\n";

int iss_command(const std::vector<std::string>& args) {
  hetvp::mcu::StandaloneOptions o;
  std::string elf;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kIssUsage;
      return 0;
    } else if (a == "--trace") {
      o.trace = true;
    } else if (a == "--no-dmi") {
      o.dmi = false;
    } else if (a == "--strict-traps") {
      o.strict_traps = true;
    } else if (a == "--trap-watchdog" && i + 1 < args.size()) {
      try {
        const unsigned long long n = std::stoull(args[++i], nullptr, 0);
        if (n > 0xffffffffull) throw std::out_of_range("--trap-watchdog");
        o.trap_watchdog = static_cast<uint32_t>(n);
      } catch (const std::exception&) {
        return usage_error("--trap-watchdog needs a number 0..4294967295", kIssUsage);
      }
    } else if (a == "--exit-code-file" && i + 1 < args.size()) {
      o.exit_code_file = args[++i];
    } else if (a == "--max-instructions" && i + 1 < args.size()) {
      try {  // stoull would take "-5" as 2^64-5: digits only, and at least 1
        const std::string& n = args[++i];
        if (n.empty() || !std::isdigit(static_cast<unsigned char>(n[0]))) throw std::invalid_argument(n);
        o.max_instructions = std::stoull(n, nullptr, 0);
        if (o.max_instructions == 0) throw std::out_of_range(n);
      } catch (const std::exception&) {
        return usage_error("--max-instructions needs a number of at least 1, not '" + args[i] + "'", kIssUsage);
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option '" + a + "'", kIssUsage);
    } else if (elf.empty()) {
      elf = a;
    } else {
      return usage_error("unexpected argument '" + a + "'", kIssUsage);
    }
  }
  if (elf.empty()) return usage_error("no ELF given", kIssUsage);
  const int rc = hetvp::mcu::run_standalone_elf(elf, o, std::cerr);
  if (rc == hetvp::mcu::kStandaloneLoadError) return hetvp::kExitUsage;
  if (rc < 0) return hetvp::kExitSimFailure;
  return hetvp::mcu::iss_exit_status(rc);  // never the code modulo 256 (models/mcu/rv32/standalone.h)
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command given", kUsage);
  if (args[0] == "iss") return iss_command(args);
  if (args[0] == "sweep") return hetvp::sweep::command(args);
  if (args[0] == "debug") {  // = run CONFIG --workload debug --set workload.args.script=FILE ...
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
    args = r;
  }
  const std::string cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "list") return list_command(args);
  if (cmd == "--version" || cmd == "version") {
    std::cout << "hetvp " << HETVP_VERSION << " (" << HETVP_GIT_DESCRIBE << ")\n";
    return 0;
  }
  if (cmd == "schema") {  // hetvp schema [--plugin LIB.so]... > hetvp.schema.json
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "--help" || args[i] == "-h") {
        std::cout
            << "usage: hetvp schema [--plugin LIB.so]...\n  prints a JSON Schema of the configuration format "
               "(every component type's and program's\n  parameters) for editors: hetvp schema > hetvp.schema.json\n";
        return 0;
      }
      if (args[i] != "--plugin" || i + 1 >= args.size())
        return usage_error("schema takes only --plugin LIB.so", kUsage);
      try {
        hetvp::load_plugin(args[++i], "--plugin");
      } catch (const hetvp::ConfigError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return hetvp::kExitUsage;
      }
    }
    std::cout << hetvp::config_json_schema();
    return 0;
  }
  if (cmd == "registers") {
    std::cout << hetvp::registers_markdown();
    return 0;
  }
  if (cmd == "stats-doc") {
    if (args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
      std::cout << "usage: hetvp stats-doc [CONFIG]\n  prints every declared statistic (path, kind, unit, description) "
                   "of one instance of\n"
                   "  each component type in CONFIG (default configs/coherence.yaml): docs/stats.md's tables\n";
      return 0;
    }
    if (args.size() > 2) return usage_error("stats-doc takes at most one CONFIG", kUsage);
    return hetvp::stats_doc_platform(args.size() == 2 ? args[1] : hetvp::data_dir() + "/configs/coherence.yaml",
                                     std::cout, std::cerr);
  }
  if (cmd != "run" && cmd != "check") return usage_error("unknown command '" + cmd + "'", kUsage);
  const char* usage = cmd == "run" ? kRunUsage : kCheckUsage;

  hetvp::RunOptions opt;
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
        if (hetvp::SimulationContext::parse_level(opt.log_level) < 0)
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
  return cmd == "run" ? hetvp::run_platform(opt, std::cout, std::cerr)
                      : hetvp::check_platform(opt, std::cout, std::cerr);
}

// SystemC's own main() prints a banner; hetvp's output is for its users, so start SystemC here.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
