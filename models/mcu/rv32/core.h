// hetvp — RV32IMC + Zicsr instruction-set simulator (machine mode only). Pure C++.
//
// Speed: every 16/32-bit instruction is decoded once into a compact Insn (op index + operands +
// cycle cost) held in a per-executable-region decode cache indexed by (pc - base) / 2; the run loop
// dispatches with computed goto. On top of that (the default, `set_threaded_blocks(false)` turns it off) the run
// loop executes pre-decoded straight-line blocks: a Block is an array of BOp (handler address,
// operands, pc) built once per start pc, run with one dispatch check per block. Stores into
// executable regions, fence.i, invalidate_code(), breakpoint and cycle-table changes drop decoded
// entries and the blocks that cover them. See docs/iss.md.
#pragma once

#include "models/mcu/core_if.h"
#include "models/mcu/rv32/jit/x86_translator.h"
#include "models/mcu/rv32/pmp.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace hetvp::mcu::rv32 {

// Per-instruction-class cycle costs.
struct CycleCosts {
  uint32_t alu = 1;  // ALU/immediate/lui/auipc/shifts, fence, nop
  uint32_t load = 2;
  uint32_t store = 1;
  uint32_t branch = 1;        // conditional branch not taken
  uint32_t branch_taken = 2;  // conditional branch taken
  uint32_t jump = 2;          // jal, jalr
  uint32_t mul = 3;           // mul, mulh, mulhsu, mulhu
  uint32_t div = 33;          // div, divu, rem, remu
  uint32_t csr = 1;           // csrr*
  uint32_t system = 1;        // ecall, ebreak, mret, wfi, fence.i
  uint32_t trap = 1;          // entering a trap or interrupt handler
};

// Valid class names, in declaration order: alu load store branch branch_taken jump mul div csr system trap.
const std::vector<std::string>& cycle_class_names();
// Applies {name: cost} overrides; throws std::invalid_argument for an unknown name (listing the valid
// ones) or for a cost outside 1..65535.
void apply_cycle_overrides(CycleCosts& costs, const std::map<std::string, uint64_t>& overrides);

// CSR numbers.
enum Csr : uint32_t {
  CSR_MSTATUS = 0x300,
  CSR_MISA = 0x301,
  CSR_MIE = 0x304,
  CSR_MTVEC = 0x305,
  CSR_MSCRATCH = 0x340,
  CSR_MEPC = 0x341,
  CSR_MCAUSE = 0x342,
  CSR_MTVAL = 0x343,
  CSR_MIP = 0x344,
  CSR_TSELECT = 0x7A0,  // Sdtrig trigger CSRs: this core has no triggers (read 0, writes ignored)
  CSR_TDATA1 = 0x7A1,
  CSR_TDATA2 = 0x7A2,
  CSR_TDATA3 = 0x7A3,
  CSR_MCYCLE = 0xB00,
  CSR_MINSTRET = 0xB02,
  CSR_MCYCLEH = 0xB80,
  CSR_MINSTRETH = 0xB82,
  CSR_CYCLE = 0xC00,
  CSR_TIME = 0xC01,
  CSR_INSTRET = 0xC02,
  CSR_CYCLEH = 0xC80,
  CSR_TIMEH = 0xC81,
  CSR_INSTRETH = 0xC82,
  CSR_MVENDORID = 0xF11,
  CSR_MARCHID = 0xF12,
  CSR_MIMPID = 0xF13,
  CSR_MHARTID = 0xF14,
};

constexpr uint32_t MSTATUS_MIE = 1u << 3;
constexpr uint32_t MSTATUS_MPIE = 1u << 7;
constexpr uint32_t MSTATUS_MPP = 3u << 11;  // always reads 11 (machine mode only)

// mcause exception codes
enum Cause : uint32_t {
  CAUSE_MISALIGNED_FETCH = 0,
  CAUSE_FETCH_ACCESS = 1,
  CAUSE_ILLEGAL = 2,
  CAUSE_BREAKPOINT = 3,
  CAUSE_MISALIGNED_LOAD = 4,
  CAUSE_LOAD_ACCESS = 5,
  CAUSE_MISALIGNED_STORE = 6,
  CAUSE_STORE_ACCESS = 7,
  CAUSE_ECALL_M = 11,
};
constexpr uint32_t CAUSE_INTERRUPT = 0x80000000u;

// Default of the trap-loop watchdog (Rv32Core::set_trap_watchdog): the same synchronous exception
// taken this many times in a row with no progress stops the core.
constexpr uint32_t kDefaultTrapWatchdog = 1000;

// Decoded instruction (16 bytes).
struct Insn {
  uint8_t op = 0;  // Op index; 0 = not decoded yet
  uint8_t rd = 0;  // destination; x0 is mapped to the sink register 32
  uint8_t rs1 = 0;
  uint8_t rs2 = 0;
  int32_t imm = 0;    // immediate / csr number
  uint32_t raw = 0;   // instruction bits (16-bit ones zero-extended)
  uint16_t cost = 1;  // cycles (not-taken cost for branches)
  uint8_t len = 4;    // 2 or 4
  uint8_t pad = 0;
};

// One pre-decoded instruction of a Block (the fast path): the handler's label address in run(),
// the operands, and what is needed to fall back to the per-instruction path at this instruction.
struct BOp {
  const void* h = nullptr;  // handler label (run_impl<true>)
  int32_t imm = 0;
  uint32_t pc = 0;     // this instruction's address (for the END op: the block's fall-through pc)
  uint32_t pcost = 0;  // cycles of the block's instructions before this one
  int32_t tdelta = 0;  // branches: branch_taken - cost (added when taken)
  uint16_t idx = 0;    // instructions of the block before this one
  uint8_t rd = 0, rs1 = 0, rs2 = 0, len = 4;
  uint8_t opc = 0;  // Op (auipc is filed as LI with the pc folded into imm)
};

// A straight-line run of simple instructions (ALU, M, loads, stores, at most one control transfer
// as the last one) starting at `start`. Anything else (CSR, system, illegal, breakpoint, ...) ends
// the block before it and runs on the per-instruction path.
struct Block {
  uint32_t start = 0, end = 0;  // [start, end): the bytes the block was decoded from
  uint32_t n = 0;               // instructions
  uint32_t cost = 0;            // cycles with every branch not taken
  uint32_t cost_before_last = 0;
  std::vector<BOp> ops;  // n ops (+ an END op when the last one is not a control transfer)
  JitFn code = nullptr;  // x86-64 translation (jit/x86_translator.h), null: run the ops threaded
};
constexpr uint32_t kMaxBlockInsns = 64;
constexpr uint32_t kMaxBlockBytes = 256;  // also the invalidation look-back window
constexpr uint32_t kBlockPageShift = 8;   // "a block starts in this 256-byte page" flags

class Rv32Core final : public CoreIf, public DmiControl, public DebugControl {
 public:
  Rv32Core();
  ~Rv32Core() override;

  const char* isa() const override { return compressed_ ? "rv32imc_zicsr" : "rv32im_zicsr"; }

  void add_region(const MemRegion& r) override;
  void clear_regions() override;
  void set_bus(BusIf* bus) override { bus_ = bus; }
  void set_dmi(bool enabled) override;
  void set_cycle_costs(const std::map<std::string, uint64_t>& overrides) override;
  void set_cycle_costs(const CycleCosts& c);
  const CycleCosts& cycle_costs() const { return costs_; }

  void reset(uint32_t entry_pc) override;
  RunResult run(uint64_t max_cycles) override;
  RunResult step() override { return run(1); }
  void request_stop() override;
  void stop_at(uint64_t cycle) override { limit_ = std::min(limit_, cycle); }
  void halt(const std::string& why) override;
  CoreState state() const override { return state_; }
  const std::string& halt_reason() const override { return halt_reason_; }

  void set_irq(IrqLine line, bool level) override;
  bool wake_pending() const override { return (mie_ & mip_) != 0; }

  uint32_t read_gpr(unsigned idx) const override { return idx < 32 ? x_[idx] : 0; }
  void write_gpr(unsigned idx, uint32_t value) override {
    if (idx > 0 && idx < 32) x_[idx] = value;
  }
  uint32_t read_pc() const override { return pc_; }
  void write_pc(uint32_t pc) override { pc_ = pc & ~1u; }
  bool read_csr(uint32_t csr, uint32_t& value) const;  // false: no such CSR
  TrapInfo last_trap() const override { return {mepc_, mcause_, mtval_}; }
  // The true counts, which simulated time is computed from: a csrw mcycle/minstret changes only what
  // software reads (csr_cycles()/csr_instret()), never these.
  uint64_t instret() const override { return instret_; }
  uint64_t cycles() const override { return cycles_; }
  uint64_t csr_cycles() const { return cycles_ + cycle_offset_; }  // mcycle as software reads it
  uint64_t csr_instret() const { return instret_ + instret_offset_; }
  void invalidate_code(uint32_t addr, uint32_t len) override;
  void set_breakpoint(uint32_t addr) override;
  void clear_breakpoint(uint32_t addr) override;
  void clear_breakpoints() override;
  void set_debug_mode(bool on) override { debug_ebreak_ = on; }
  DmiControl* dmi_control() override { return this; }
  DebugControl* debug_control() override { return this; }
  GdbLayout gdb_layout() const override { return GdbLayout::riscv32; }

  // RV32-specific options.
  void set_hart_id(uint32_t id) { hartid_ = id; }
  // Without C: 16-bit encodings are illegal and jumps to pc with bit 1 set raise a misaligned fetch.
  void set_compressed(bool on);
  bool dmi() const { return dmi_; }
  // Pre-decoded blocks (default on). Off: the per-instruction interpreter (`hetvp iss --no-jit`).
  // Both give the same architectural results, counters and stop points (docs/iss.md).
  void set_threaded_blocks(bool on) {
    threaded_blocks_ = on;
    invalidate_all();
  }
  bool threaded_blocks() const { return threaded_blocks_; }
  // Translation of blocks to x86-64 code (default on where supported: x86-64 Linux; elsewhere, or
  // off, blocks run as threaded code). Same results either way (docs/iss.md).
  void set_x86_translation(bool on) {
    x86_translation_ = on;
    invalidate_all();
  }
  // Blocks built / translated since construction (statistics for tests and benchmarks).
  uint64_t blocks_built() const { return blocks_built_; }
  uint64_t blocks_translated() const { return blocks_translated_; }
  uint64_t code_memory_refills() const { return translated_refills_; }  // translated-code memory was full
  // Debugging aid, off by default (the privileged spec allows a trap inside a trap handler): with it
  // on, a synchronous exception taken while "in a trap handler" halts the core (fatal).
  void set_strict_traps(bool on) { strict_traps_ = on; }
  bool strict_traps() const { return strict_traps_; }
  // Trap-loop watchdog: the same synchronous exception (mcause, mepc) taken n times in a row with no
  // progress in between halts the core (fatal, the reason names pc, cause and count). 0 = off.
  // "Progress" = a different synchronous exception, an mret to another pc than that mepc, or an mret
  // to it after which at least one instruction retired. Interrupts neither count nor reset.
  void set_trap_watchdog(uint32_t n) { wd_limit_ = n; }
  uint32_t trap_watchdog() const { return wd_limit_; }
  // Misaligned loads/stores: false (default) = they trap (mcause 4/6); true = done in hardware, as
  // byte accesses, at twice the class's cycles (docs/iss.md "Misaligned accesses").
  void set_misaligned_emulation(bool on) { misaligned_emulate_ = on; }
  bool misaligned_emulation() const { return misaligned_emulate_; }

  // Decode one instruction word (exposed for tests/trace). For 16-bit ones pass the halfword.
  void decode(uint32_t raw, Insn& out) const;
  // Disassembly-free trace help: the raw bits of the instruction at pc (0 if not in code memory).
  uint32_t fetch_raw(uint32_t pc) const;

 private:
  struct Region {
    MemRegion m;
    std::vector<Insn> dcache;  // executable regions only: size/2 entries, allocated at the first fetch
    std::vector<std::unique_ptr<Block>> blocks;  // with dcache: the block starting at each halfword
    std::vector<JitFn> jslots;                   // with dcache: translated code of those blocks (chaining)
    std::vector<uint8_t> bpages;                 // per 256-byte page: some block starts here
    bool any_block = false;
  };
  template <bool kBlocks>
  RunResult run_impl(uint64_t max_cycles);
  Block* build_block(Region& r, uint32_t pc, const void* const* blabels);
  void drop_blocks(Region& r, uint64_t lo, uint64_t hi);
  Region* find_region(uint32_t addr, uint32_t size);
  const Region* find_region(uint32_t addr, uint32_t size) const;
  void decode_at(Region& r, uint32_t pc, Insn& out) const;
  void allocate_decode_cache(Region& r);
  void invalidate_all();
  // slow paths (return false if a trap/stop ended the instruction)
  bool load_slow(uint32_t addr, uint32_t size, uint32_t& value);
  bool store_slow(uint32_t addr, uint32_t size, uint32_t value);
  bool load_misaligned(uint32_t addr, uint32_t size, uint32_t& value);
  bool store_misaligned(uint32_t addr, uint32_t size, uint32_t value);
  bool csr_access(const Insn& i, uint32_t operand, bool write, uint32_t& old);
  bool csr_write(uint32_t csr, uint32_t value);
  void take_trap(uint32_t cause, uint32_t tval, uint32_t epc);
  bool take_interrupt_if_pending();
  void fatal(const std::string& why);
  uint32_t pending_enabled() const { return mie_ & mip_; }
  void reset_data_cache();
  void sync_jit_ctx() {
    jc_.limit = limit_;
    jc_.lbase = ld_base_;
    jc_.llim1 = ld_size_ - 1;
    jc_.llim2 = ld_size_ - 2;
    jc_.llim4 = ld_size_ - 4;
    jc_.lhost = ld_host_;
    jc_.sbase = st_base_;
    jc_.slim1 = st_size_ - 1;
    jc_.slim2 = st_size_ - 2;
    jc_.slim4 = st_size_ - 4;
    jc_.shost = st_host_;
  }

  // architectural state
  uint32_t x_[33] = {};  // x_[32] is the sink for writes to x0
  uint32_t pc_ = 0;
  uint32_t mstatus_ = 0, mie_ = 0, mip_ = 0, mtvec_ = 0, mscratch_ = 0, mepc_ = 0, mcause_ = 0, mtval_ = 0;
  uint32_t hartid_ = 0;
  uint64_t cycles_ = 0, instret_ = 0;               // raw counters (budget accounting)
  uint64_t cycle_offset_ = 0, instret_offset_ = 0;  // software writes to mcycle/minstret (CSR view only)
  bool in_handler_ = false;                         // see docs/iss.md "fatal traps" (strict mode)
  bool mtvec_written_ = false;
  bool strict_traps_ = false;
  bool csr_probe_trap_ = false;  // the trap being taken is a CSR access to an absent CSR (strict mode)
  bool misaligned_emulate_ = false;
  // trap-loop watchdog (docs/iss.md "trap-loop watchdog")
  uint32_t wd_limit_ = kDefaultTrapWatchdog;
  uint32_t wd_count_ = 0, wd_cause_ = 0, wd_epc_ = 0;  // the current run of identical traps
  bool wd_mret_seen_ = false;                          // an mret since that trap ...
  uint32_t wd_mret_pc_ = 0;                            // ... returned here,
  uint64_t wd_mret_instret_ = 0;                       // ... and instret_ right after it

  // run control
  uint64_t limit_ = 0;  // run() stops when cycles_ >= limit_
  CoreState state_ = CoreState::running;
  RunResult::Reason stop_reason_ = RunResult::Reason::budget;
  bool stop_pending_ = false;
  std::string halt_reason_;
  bool debug_ebreak_ = false;
  bool compressed_ = true;
  bool dmi_ = true;
  bool threaded_blocks_ = true;  // run pre-decoded blocks (set_threaded_blocks)
  bool x86_translation_ = true;  // translate blocks to host code where supported (set_x86_translation)
  uint64_t blocks_built_ = 0, blocks_translated_ = 0, translated_refills_ = 0;
  JitCtx jc_;        // translated code's view of counters, limit and the data caches
  JitBuffer jitbuf_;  // translated code

  // memory
  std::vector<std::unique_ptr<Region>> regions_;
  BusIf* bus_ = nullptr;
  // last-hit caches for the fast paths (copied into locals by run())
  uint32_t ld_base_ = 0;
  int64_t ld_size_ = -1;
  uint8_t* ld_host_ = nullptr;
  uint32_t st_base_ = 0;
  int64_t st_size_ = -1;
  uint8_t* st_host_ = nullptr;

  CycleCosts costs_;
  std::set<uint32_t> breakpoints_;
  Insn tmp_;  // used to execute the real instruction under a breakpoint
  // Last: out of the run loop's way. Checked only while pmp_.active() (some entry locked), in the
  // slow paths and at decode.
  Pmp pmp_;
};

}  // namespace hetvp::mcu::rv32
