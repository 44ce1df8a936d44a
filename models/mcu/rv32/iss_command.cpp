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
    "usage: hetvp iss ELF [--max-instructions N] [--trace] [--no-dmi] [--strict-traps] [--trap-watchdog N]\n"
    "  runs an RV32IMC ELF on the bare ISS until it stores (code<<1)|1 to its `tohost` symbol\n"
    "  --strict-traps: a trap inside a trap handler stops the run (debugging aid; off: nested traps per the spec)\n"
    "  --trap-watchdog N: stop when the same trap (mcause, mepc) repeats N times with no progress (default 1000, 0 = "
    "off)\n"
    "  --exit-code-file FILE: write the program's full exit code to FILE when it exits\n"
    "  exit status: 0 when the program exits with 0; its code when 3..119; 120 for any other code (1, 2, 120 and\n"
    "  above: see the log line or --exit-code-file); 1 when the simulator stops it (fatal trap, timeout, wfi\n"
    "  deadlock); 2 for a usage error or an ELF that cannot be loaded\n";

int iss_command(std::vector<std::string> args) {
  using cli::usage_error;
  StandaloneOptions o;
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
