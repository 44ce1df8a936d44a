// hetvp — standalone mode: run an RV32 ELF on the bare ISS with the HTIF `tohost` exit convention.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

namespace hetvp::mcu {

struct StandaloneOptions {
  uint64_t max_instructions = 2'000'000'000ull;  // then the run times out (kStandaloneTimeout)
  bool trace = false;                            // one log line per executed instruction
  bool dmi = true;                               // false: every load/store goes through the bus path
  bool threaded_blocks = true;                   // false: per-instruction interpreter (`--no-jit`)
  uint32_t stack_size = 64 * 1024;               // stack region below __stack_top, or after the image
  std::map<std::string, uint64_t> cycle_costs;   // cycle-class overrides, e.g. {"div", 20}
  bool strict_traps = false;                     // a trap inside a trap handler is fatal (debugging aid)
  uint32_t trap_watchdog = 1000;                 // same trap N times with no progress stops the run; 0 = off
  bool misaligned_emulate = false;               // misaligned loads/stores in hardware (`--misaligned emulate`)
  std::string exit_code_file;                    // non-empty: the program's full exit code is written there
};

struct StandaloneStats {
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  double seconds = 0;
};

// Return codes other than the program's own exit code (which is tohost >> 1, 0..2^31-1):
constexpr int kStandaloneTimeout = -1;    // max_instructions reached without an exit
constexpr int kStandaloneFatal = -2;      // fatal trap (log names it), or unsupported tohost command
constexpr int kStandaloneLoadError = -3;  // bad ELF, no `tohost` symbol, overlapping segments
constexpr int kStandaloneDeadlock = -4;   // wfi with no interrupt source: the program can never wake
// `hetvp iss`'s exit status for a program that exited through `tohost` with `code` (0..2^31-1).
// A process status has 8 bits, and hetvp's own statuses are 0 (pass), 1 (the simulator stopped the
// program) and 2 (usage or load error); so that no failing program reads as a pass or as one of
// those: code 0 -> 0; 3..119 -> the code itself; any other code (1, 2, 120 and above, e.g. 256,
// which a plain `code % 256` turned into 0) -> kIssStatusOtherCode. The full code is in the log
// line ("exit code N") and in StandaloneOptions::exit_code_file (`--exit-code-file`). 120 keeps
// clear of 124 (timeout(1)), 125 (hetvp-iss's simulator errors), 126/127 (the shell) and 128+
// (signals). docs/iss.md.
constexpr int kIssStatusOtherCode = 120;
int iss_exit_status(int code);

// The memory a program's segments and stack may need (a corrupt size is a load error, not 4 GiB).
constexpr uint64_t kStandaloneMaxMemory = 64ull << 20;

// Loads the ELF (every PT_LOAD whatever its p_flags: all memory is readable, writable and executable,
// as on Spike/QEMU; memory is allocated to cover the segments plus a stack), sets sp, runs from
// the entry point. The program exits by storing (code << 1) | 1 to the symbol `tohost`. Bytes stored
// to MCU_SA_CONSOLE_ADDR (0x00030000) are written to `log`. Errors are reported on `log`.
int run_standalone_elf(const std::string& elf_path, const StandaloneOptions& opt, std::ostream& log,
                       StandaloneStats* stats = nullptr);

}  // namespace hetvp::mcu
