// hetvp-iss — run an RV32 ELF on the ISS in standalone mode (developer tool; `hetvp iss` is the CLI).
#include "models/mcu/rv32/standalone.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

// hetvp_lib links libsystemc, which references sc_main; this program never starts SystemC.
extern "C" int sc_main(int, char*[]) { return 0; }

int main(int argc, char** argv) {
  hetvp::mcu::StandaloneOptions opt;
  const char* elf = nullptr;
  for (int k = 1; k < argc; ++k) {
    if (!std::strcmp(argv[k], "--trace"))
      opt.trace = true;
    else if (!std::strcmp(argv[k], "--no-dmi"))
      opt.dmi = false;
    else if (!std::strcmp(argv[k], "--no-jit"))
      opt.threaded_blocks = false;
    else if (!std::strcmp(argv[k], "--strict-traps"))
      opt.strict_traps = true;
    else if (!std::strcmp(argv[k], "--trap-watchdog") && k + 1 < argc)
      opt.trap_watchdog = static_cast<uint32_t>(std::strtoul(argv[++k], nullptr, 0));
    else if (!std::strcmp(argv[k], "--max-instructions") && k + 1 < argc)
      opt.max_instructions = std::strtoull(argv[++k], nullptr, 0);
    else if (!std::strcmp(argv[k], "--help") || !std::strcmp(argv[k], "-h")) {
      std::cout
          << "usage: hetvp-iss [--trace] [--no-dmi] [--no-jit] [--strict-traps] [--trap-watchdog N] [--max-instructions N] ELF\n"
             "Runs an RV32IMC ELF until it stores (code<<1)|1 to `tohost`; exit status: the code when 0 or 3..119,\n"
             "else 120 (the log line has the full code).\n"
             "Exit status 125 when the simulator reports a timeout, fatal trap, load error or deadlock.\n";
      return 0;
    } else if (argv[k][0] == '-') {
      std::cerr << "hetvp-iss: unknown option " << argv[k] << " (see --help)\n";
      return 2;
    } else
      elf = argv[k];
  }
  if (!elf) {
    std::cerr << "hetvp-iss: no ELF given (see --help)\n";
    return 2;
  }
  hetvp::mcu::StandaloneStats st;
  const int rc = hetvp::mcu::run_standalone_elf(elf, opt, std::cerr, &st);
  std::cerr << "hetvp-iss: " << st.instructions << " instructions, " << st.cycles << " cycles, "
            << (st.seconds > 0 ? st.instructions / st.seconds / 1e6 : 0.0) << " MIPS\n";
  return rc < 0 ? 125 : hetvp::mcu::iss_exit_status(rc);  // never the code modulo 256 (standalone.h)
}
