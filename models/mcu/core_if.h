// hetvp — abstract microcontroller core interface.
//
// A microcontroller model owns a core through this interface only; the SystemC side (burst loop,
// sleep/wake, trap -> run state, GDB) is one host for every core (models/mcu/core_host.h). The
// interface holds what every core has; what only some cores have (a DMI switch, a debug mode in
// which the ISA's breakpoint instruction stops the run, a GDB register layout) is a capability the
// host asks for (dmi_control(), debug_control(), gdb_layout()), never a do-nothing override. Pure C++:
// no SystemC here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace hetvp::mcu {

// Everything outside the direct memories (register block, BAR0 window, ...). Implemented by the owner.
// size is 1, 2 or 4; addresses are naturally aligned (the core traps misaligned accesses first).
// Return false = access fault (the core raises a load/store access fault).
// extra_cycles: add the access latency in core cycles (0 if none); the core adds it to its cycle count.
class BusIf {
 public:
  virtual ~BusIf() = default;
  virtual bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra_cycles) = 0;
  virtual bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra_cycles) = 0;
};

// A direct memory (IMEM/DMEM) the core reads/writes through a host pointer (the DMI fast path).
// Code executes only from executable regions. The host buffer must outlive the core (or the region).
struct MemRegion {
  uint32_t base = 0;
  uint32_t size = 0;        // bytes, multiple of 4, > 0
  uint8_t* host = nullptr;  // little-endian image of the memory
  bool writable = true;
  bool executable = false;
};

struct RunResult {
  enum class Reason {
    budget,         // the cycle budget was used up (or the owner called request_stop())
    wfi,            // the core executed wfi with no enabled interrupt pending; it sleeps
    halted,         // the owner called halt() (e.g. firmware wrote the exit register)
    trapped_fatal,  // a fatal trap (see halt_reason()); the core stays stopped until reset()
    breakpoint,     // pc hit a breakpoint, or ebreak with debug mode on; pc = that instruction
  };
  uint64_t cycles = 0;        // cycles executed in this call
  uint64_t instructions = 0;  // instructions retired in this call
  Reason reason = Reason::budget;
};

const char* to_string(RunResult::Reason r);

// Interrupt lines (RV32: mip.MEIP / MTIP / MSIP; Falcon: external = vector 0, timer = vector 1).
enum class IrqLine : unsigned { software = 3, timer = 7, external = 11 };

enum class CoreState { running, sleeping /*wfi*/, halted, fatal };

// The last trap the core took, in its own ISA's terms (RV32: mepc/mcause/mtval; Falcon: $tstatus's
// pc and reason). The host copies it into the model's trap registers and messages.
struct TrapInfo {
  uint32_t pc = 0;     // the trapping instruction (RV32 mepc)
  uint32_t cause = 0;  // the ISA's cause code (RV32 mcause, Falcon trap reason)
  uint32_t value = 0;  // the cause's detail (RV32 mtval; 0 where the ISA has none)
};

// Capabilities (optional features): a core returns one of these from CoreIf when it has the feature.
class DmiControl {  // loads/stores of the direct memories can be sent through BusIf instead
 public:
  virtual ~DmiControl() = default;
  virtual void set_dmi(bool enabled) = 0;  // false: loads/stores all go through BusIf
};
class DebugControl {  // the ISA's breakpoint instruction (RV32 ebreak) can stop run() for a debugger
 public:
  virtual ~DebugControl() = default;
  // On: the breakpoint instruction stops run() with reason breakpoint instead of trapping.
  virtual void set_debug_mode(bool on) = 0;
};
// The register layout a GDB remote stub presents (the stub speaks one layout today).
enum class GdbLayout { none, riscv32 /* x0..x31 = 0..31, pc = 32 */ };

class CoreIf {
 public:
  virtual ~CoreIf() = default;

  virtual const char* isa() const = 0;  // e.g. "rv32imc_zicsr"

  // --- set-up (before running) ---
  virtual void add_region(const MemRegion& r) = 0;  // throws std::invalid_argument on overlap/bad size
  virtual void clear_regions() = 0;
  virtual void set_bus(BusIf* bus) = 0;  // may be nullptr: every bus access faults
  // Override per-class cycle costs, e.g. {{"div",20},{"load",3}}. Throws std::invalid_argument for
  // an unknown class name (the message lists the valid names) or a cost of 0.
  virtual void set_cycle_costs(const std::map<std::string, uint64_t>& overrides) = 0;

  // --- execution ---
  virtual void reset(uint32_t entry_pc) = 0;  // clears GPRs/CSRs/counters, state running
  // Run until at least max_cycles cycles are spent (may overshoot by one instruction) or a stop
  // reason occurs. Returns immediately with reason wfi/halted/trapped_fatal when in that state.
  virtual RunResult run(uint64_t max_cycles) = 0;
  virtual RunResult step() = 0;                   // exactly one instruction (or trap entry)
  virtual void request_stop() = 0;                // from a bus callback: end run() after this insn
  // From a bus callback: end this run() once cycles() reaches `cycle` (or its budget, if earlier).
  virtual void stop_at(uint64_t cycle) = 0;
  virtual void halt(const std::string& why) = 0;  // from a bus callback or outside: state halted
  virtual CoreState state() const = 0;
  virtual const std::string& halt_reason() const = 0;  // "" when not halted/fatal

  // --- interrupts (level-sensitive) ---
  virtual void set_irq(IrqLine line, bool level) = 0;

  // --- debugger / owner access ---
  virtual uint32_t read_gpr(unsigned idx) const = 0;  // idx 0..31
  virtual void write_gpr(unsigned idx, uint32_t value) = 0;
  virtual uint32_t read_pc() const = 0;
  virtual void write_pc(uint32_t pc) = 0;
  virtual TrapInfo last_trap() const = 0;
  virtual uint64_t instret() const = 0;
  virtual uint64_t cycles() const = 0;
  // Code memory was written from outside (host upload, DMA): drop decoded instructions there.
  virtual void invalidate_code(uint32_t addr, uint32_t len) = 0;
  virtual void set_breakpoint(uint32_t addr) = 0;
  virtual void clear_breakpoint(uint32_t addr) = 0;
  virtual void clear_breakpoints() = 0;

  // --- capabilities (nullptr / none: the core has not got the feature) ---
  virtual DmiControl* dmi_control() { return nullptr; }
  virtual DebugControl* debug_control() { return nullptr; }
  virtual GdbLayout gdb_layout() const { return GdbLayout::none; }
};

// Creates a core by ISA name, every core type from this one place (models/mcu/core_factory.cpp):
// "rv32imc" (aliases "rv32", "rv32imc_zicsr"), "rv32im" (alias "rv32im_zicsr", no C) or "falcon"
// (alias "falcon3", Falcon v3). Throws std::invalid_argument naming the valid ISAs.
std::unique_ptr<CoreIf> make_core(const std::string& isa);

inline const char* to_string(RunResult::Reason r) {
  switch (r) {
    case RunResult::Reason::budget:
      return "budget";
    case RunResult::Reason::wfi:
      return "wfi";
    case RunResult::Reason::halted:
      return "halted";
    case RunResult::Reason::trapped_fatal:
      return "trapped-fatal";
    case RunResult::Reason::breakpoint:
      return "breakpoint";
  }
  return "?";
}

}  // namespace hetvp::mcu
