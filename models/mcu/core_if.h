// hetvp — abstract microcontroller core interface.
//
// A microcontroller model owns a core through this interface only; the SystemC side (burst loop,
// sleep/wake, trap -> run state, GDB) is one host for every core (models/mcu/core_host.h). The
// interface holds what every core has; what only some cores have (a DMI switch, a debug mode in
// which the ISA's breakpoint instruction stops the run, a GDB register layout, Falcon's code pages,
// xfers and disassembler) is a capability the host asks for (dmi_control(), debug_control(),
// gdb_layout(), code_paging(), xfer_control(), disassembly(), register_view()), never a do-nothing override, and what
// is chosen once when a core is made is a CoreOptions field of make_core. No model casts a CoreIf to
// its concrete core. Pure C++: no SystemC here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
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

// Code reached through a virtual -> physical page table (Falcon's code TLB, docs/hw/falcon/vm.rst).
class CodePaging {
 public:
  virtual ~CodePaging() = default;
  // Entry of physical page `phys_page`: flags (1 usable, 2 busy, 4 secret) and its virtual page.
  virtual void set_tlb(unsigned phys_page, uint32_t virt_page, uint32_t flags) = 0;
  // The lookup of a virtual address (Falcon's vtlb result: bit 31 no hit, 30 multiple hits, else
  // flags << 24 | physical page).
  virtual uint32_t vtlb(uint32_t virt_addr) const = 0;
};

// A transfer between the core's memories and an outside memory, executed synchronously by the owner
// (Falcon xcld/xdld/xdst: xdwait/xcwait then never wait).
struct XferRequest {
  enum class Mode { code_load, data_load, data_store } mode = Mode::data_load;
  unsigned port = 0;        // from $xtargets
  uint32_t ext_base = 0;    // $xcbase / $xdbase (address = base << 8 + offset)
  uint32_t ext_offset = 0;  // first operand
  uint32_t local = 0;       // second operand bits 0-15
  uint32_t bytes = 0;       // 4 << size (code: 0x100)
};
class XferIf {
 public:
  virtual ~XferIf() = default;
  // Returns false with a message to stop the core (fatal).
  virtual bool xfer(const XferRequest& r, std::string& error) = 0;
};
class XferControl {  // the core's transfer instructions go to an XferIf (implemented by the owner)
 public:
  virtual ~XferControl() = default;
  virtual void set_xfer(XferIf* x) = 0;  // nullptr: every transfer stops the core
};

// A debugger's register list by index, for a core whose list is not RV32's (x0..x31 = 0..31, pc = 32):
// Falcon's $r0..$r15, $pc, $sp, $flags and the other special registers (falcon/debug_regs.h names them).
class RegisterView {
 public:
  virtual ~RegisterView() = default;
  // false: the core has no register `index`.
  virtual bool debug_register(unsigned index, uint32_t& value) const = 0;
};

class Disassembly {  // the instruction at a pc as text (a model's instruction trace)
 public:
  virtual ~Disassembly() = default;
  virtual std::string disassemble_at(uint32_t pc) const = 0;
};

// What is chosen once, when a core is made (make_core). A field names the cores that read it; the
// others have no such feature and leave it alone.
struct CoreOptions {
  // RV32: a synchronous exception inside a trap handler is fatal (debugging aid, docs/iss.md).
  bool strict_traps = false;
  // RV32: the same trap this many times in a row with no progress is fatal (0 = off); none: the
  // core's default.
  std::optional<uint32_t> trap_watchdog;
  // RV32: misaligned loads/stores done in hardware instead of trapping (docs/iss.md).
  bool misaligned_emulate = false;
  // RV32: how instructions run — pre-decoded blocks translated to host code (the default), the
  // same blocks without translation, or the per-instruction interpreter. Same results every way.
  enum class Execution { translated, threaded, interpreted } execution = Execution::translated;
  // Falcon: run() ends before an iord/iowr that is not the burst's first instruction, so the owner
  // can bring its time up to the access first (I/O happens at its own time, whatever the quantum).
  bool sync_io = false;
};

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
  // An interrupt is raised and enabled: a core sleeping in its sleep instruction wakes on run().
  virtual bool wake_pending() const = 0;

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
  virtual CodePaging* code_paging() { return nullptr; }
  virtual const CodePaging* code_paging() const { return nullptr; }
  virtual XferControl* xfer_control() { return nullptr; }
  virtual const Disassembly* disassembly() const { return nullptr; }
  virtual const RegisterView* register_view() const { return nullptr; }
};

// Creates a core by ISA name, every core type from this one place (models/mcu/core_factory.cpp):
// "rv32imc" (aliases "rv32", "rv32imc_zicsr"), "rv32im" (alias "rv32im_zicsr", no C), "falcon"
// (alias "falcon3", Falcon v3) or "falcon5" (the v5 encodings, GK208 on). Throws
// std::invalid_argument naming the valid ISAs.
std::unique_ptr<CoreIf> make_core(const std::string& isa, const CoreOptions& options = CoreOptions{});

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
