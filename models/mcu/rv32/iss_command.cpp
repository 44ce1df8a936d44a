// hetvp — `hetvp iss ELF`: the standalone ISS (standalone.h) as a subcommand of the program. It is
// compiled into the tool layer (the CMake target hetvp_cli, platform/cli/command.h), not into the
// models library: it sits here, beside what it drives, so that platform/ includes nothing of models/.
#include <cctype>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/mcu/rv32/standalone.h"
#include "platform/cli/command.h"
#include "platform/simulation.h"

namespace hetvp::mcu {
namespace {

const char* kIssUsage =
    "usage: hetvp iss ELF [--max-instructions N] [--trace] [--no-dmi] [--no-jit] [--strict-traps]\n"
    "                     [--trap-watchdog N] [--misaligned trap|emulate] [--exit-code-file FILE]";
const char* kIssAbout =
    "  runs an RV32IMC ELF on the bare ISS until it stores (code<<1)|1 to its `tohost` symbol\n"
    "  exit status: 0 when the program exits with 0; its code when 3..119; 120 for any other code (1, 2, 120 and\n"
    "  above: see the log line or --exit-code-file); 1 when the simulator stops it (fatal trap, timeout, wfi\n"
    "  deadlock); 2 for a usage error or an ELF that cannot be loaded\n";

int iss_command(std::vector<std::string> args) {
  StandaloneOptions o;
  std::string elf, max_instructions;
  bool no_dmi = false, no_jit = false;
  auto app = cli::make_parser(kIssUsage, kIssAbout);
  app->add_option("ELF", elf, "the RV32 program")->type_name("");
  app->add_option("--max-instructions", max_instructions, "stop (exit 1) after N instructions (at least 1)")
      ->type_name("N")
      ->default_str(std::to_string(o.max_instructions));
  app->add_flag("--trace", o.trace, "print every instruction executed");
  app->add_flag("--no-dmi", no_dmi, "fetch and access memory through TLM transactions only (no direct memory)");
  app->add_flag("--no-jit", no_jit,
                "run every instruction on the per-instruction interpreter (no pre-decoded blocks; same results)");
  app->add_flag("--strict-traps", o.strict_traps,
                "a trap inside a trap handler stops the run (debugging aid; off: nested traps per the spec)");
  // strtoull would wrap "-5" around to a huge count: a sign is refused first; CLI11 refuses a
  // value too large for the variable.
  app->add_option("--trap-watchdog", o.trap_watchdog,
                  "stop when the same trap (mcause, mepc) repeats N times with no progress (0 = off)")
      ->type_name("N")
      ->default_str(std::to_string(o.trap_watchdog))
      ->check([](const std::string& v) {
        return v.find('-') != std::string::npos ? "expected a number >= 0, not '" + v + "'" : std::string();
      });
  std::string misaligned = "trap";
  app->add_option("--misaligned", misaligned,
                  "misaligned loads/stores: trap (mcause 4/6, the default) or emulate (done in hardware, twice the "
                  "class's cycles)")
      ->type_name("trap|emulate")
      ->check([](const std::string& v) {
        return v == "trap" || v == "emulate" ? std::string() : "expected trap or emulate, not '" + v + "'";
      });
  app->add_option("--exit-code-file", o.exit_code_file, "write the program's full exit code to FILE when it exits")
      ->type_name("FILE");
  if (int parsed = cli::parse_args(*app, args); parsed >= 0) return parsed;
  if (no_dmi) o.dmi = false;
  if (no_jit) o.threaded_blocks = false;
  o.misaligned_emulate = misaligned == "emulate";
  if (!max_instructions.empty()) {
    try {  // stoull would take "-5" as 2^64-5: digits only, and at least 1
      const std::string& n = max_instructions;
      if (!std::isdigit(static_cast<unsigned char>(n[0]))) throw std::invalid_argument(n);
      size_t used = 0;
      o.max_instructions = std::stoull(n, &used, 0);
      if (used != n.size()) throw std::invalid_argument(n);
      if (o.max_instructions == 0) throw std::out_of_range(n);
    } catch (const std::exception&) {
      return cli::usage_error("--max-instructions needs a number of at least 1, not '" + max_instructions + "'",
                              app->help());
    }
  }
  if (elf.empty()) return cli::usage_error("no ELF given", app->help());
  const int rc = run_standalone_elf(elf, o, std::cerr);
  if (rc == kStandaloneLoadError) return kExitUsage;
  if (rc < 0) return kExitSimFailure;
  return iss_exit_status(rc);  // never the code modulo 256 (models/mcu/rv32/standalone.h)
}

}  // namespace

HETVP_REGISTER_COMMAND("iss", 50,
                       "  iss ELF        run an RV32 program on the bare ISS (standalone mode); exit status: its exit "
                       "code (mapped: iss --help)\n",
                       iss_command);

}  // namespace hetvp::mcu
