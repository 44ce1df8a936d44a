// hetvp — Falcon v3 ("fuc3") microcontroller core, with the v5 ("fuc5") encodings of set_version(5), behind CoreIf. Pure C++.
//
// The ISA follows the envytools documentation (docs/hw/falcon/*.rst); decoding was written from those
// documents (docs/falcon.md). Falcon has separate code and data spaces: an executable MemRegion is the
// code segment (physical, paged in 0x100-byte pages, reached through a virtual->physical TLB), a
// non-executable one the data segment. I/O space (iord/iowr/iowrs) goes to the BusIf with the Falcon
// I/O address (e.g. 0x04200 = UC_CAPS); xfers (xcld/xdld/xdst) go to an XferIf.
//
// Speed: each instruction is decoded on its first execution into an Insn in a decode cache indexed by
// virtual pc (allocated per 256-byte page on first touch, cleared on a code upload); the run loop
// dispatches with computed goto (as the RV32 core).
#pragma once

#include "models/mcu/core_if.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace hetvp::mcu::falcon {

// $flags bits
constexpr uint32_t FL_C = 1u << 8, FL_O = 1u << 9, FL_S = 1u << 10, FL_Z = 1u << 11;
constexpr uint32_t FL_IE0 = 1u << 16, FL_IE1 = 1u << 17, FL_IS0 = 1u << 20, FL_IS1 = 1u << 21;
constexpr uint32_t FL_TA = 1u << 24;

// special registers ($sr index)
enum Sr : unsigned {
  SR_IV0 = 0,
  SR_IV1 = 1,
  SR_TV = 3,
  SR_SP = 4,
  SR_PC = 5,
  SR_XCBASE = 6,
  SR_XDBASE = 7,
  SR_FLAGS = 8,
  SR_XTARGETS = 11,
  SR_TSTATUS = 12,
};

// trap reasons ($tstatus bits 20-23)
enum TrapReason : uint32_t { TRAP_SW0 = 0, TRAP_INVALID_OPCODE = 8, TRAP_VM_NO_HIT = 0xa, TRAP_VM_MULTI_HIT = 0xb };

// xfer requests: XferRequest / XferIf (core_if.h), through the XferControl capability.

// Decoded instruction (12 bytes).
struct Insn {
  uint8_t op = 0;               // Op; 0 = not decoded
  uint8_t len = 1;              // 2, 3 or 4 (invalid: 1)
  uint8_t a = 0, b = 0, c = 0;  // register operands (16 = $sp for memory bases)
  uint8_t sz = 2;               // 0 = 8, 1 = 16, 2 = 32 bit
  uint8_t imm_form = 0;         // 1: second source is imm, 0: register c
  uint8_t cost = 1;
  uint32_t imm = 0;
};

struct CycleCosts {
  uint32_t alu = 1, load = 1, store = 1, branch = 1, branch_taken = 4, call = 4, ret = 5, div = 33, io = 1, trap = 4;
};
const std::vector<std::string>& cycle_class_names();

class FalconCore final : public CoreIf, public CodePaging, public XferControl, public Disassembly, public RegisterView {
 public:
  FalconCore();
  ~FalconCore() override;

  const char* isa() const override { return version_ >= 5 ? "falcon5" : "falcon3"; }

  // An executable region is the code segment, a non-executable one the data segment (base 0 each;
  // sizes multiples of 0x100). The code pages are mapped at identical virtual pages on add_region.
  void add_region(const MemRegion& r) override;
  void clear_regions() override;
  void set_bus(BusIf* bus) override { bus_ = bus; }
  void set_cycle_costs(const std::map<std::string, uint64_t>& overrides) override;

  void reset(uint32_t entry_pc) override;
  RunResult run(uint64_t max_cycles) override;
  RunResult step() override { return run(1); }
  void request_stop() override { stop_pending_ = true; }
  void stop_at(uint64_t cycle) override { limit_ = std::min(limit_, cycle); }
  void halt(const std::string& why) override;
  CoreState state() const override { return state_; }
  const std::string& halt_reason() const override { return halt_reason_; }

  // IrqLine::external = vector 0, IrqLine::timer = vector 1 (the owner routes its 16 lines).
  void set_irq(IrqLine line, bool level) override;
  void set_vector(unsigned vec, bool level);

  uint32_t read_gpr(unsigned idx) const override { return idx < 16 ? r_[idx] : 0; }
  void write_gpr(unsigned idx, uint32_t value) override {
    if (idx < 16) r_[idx] = value;
  }
  uint32_t read_pc() const override { return pc_; }
  void write_pc(uint32_t pc) override { pc_ = pc & 0xffff; }
  // sr = special register index ($sr0..$sr15); false: no such register
  bool read_csr(uint32_t sr, uint32_t& value) const;
  // $tstatus: the trapping pc (bits 0-19) and the trap reason (bits 20-23)
  TrapInfo last_trap() const override { return {tstatus_ & 0xfffff, (tstatus_ >> 20) & 0xf, 0}; }
  // An interrupt vector is raised and enabled ($flags ie0/ie1): a sleeping core wakes on run().
  bool wake_pending() const override { return (lines_ & (flags_ >> 16) & 3) != 0; }
  uint64_t instret() const override { return instret_; }
  uint64_t cycles() const override { return cycles_; }
  void invalidate_code(uint32_t addr, uint32_t len) override;
  void set_breakpoint(uint32_t addr) override;
  void clear_breakpoint(uint32_t addr) override;
  void clear_breakpoints() override;

  // Capabilities: code pages (the TLB), xfers, the disassembler (--trace).
  CodePaging* code_paging() override { return this; }
  const CodePaging* code_paging() const override { return this; }
  XferControl* xfer_control() override { return this; }
  const Disassembly* disassembly() const override { return this; }
  std::string disassemble_at(uint32_t pc) const override;  // disasm.cpp
  const RegisterView* register_view() const override { return this; }
  bool debug_register(unsigned index, uint32_t& value) const override;  // debug_regs.cpp

  // Falcon specifics
  void set_xfer(XferIf* x) override { xfer_ = x; }
  // With it on, run() ends before an iord/iowr that is not the burst's first instruction, so the
  // owner can bring its time up to the access first (I/O happens at its own time, whatever the quantum).
  void set_sync_io(bool on) { sync_io_ = on; }
  void write_sr(unsigned sr, uint32_t value);
  uint32_t flags() const { return flags_; }
  uint32_t sp() const { return r_[16]; }
  // Code TLB (docs/hw/falcon/vm.rst): entry of physical page i = flags (1 usable, 2 busy, 4 secret) + virt.
  void set_tlb(unsigned phys_page, uint32_t virt_page, uint32_t flags) override;
  uint32_t ptlb(uint32_t phys_page) const;
  uint32_t vtlb(uint32_t virt_addr) const override;
  void itlb(uint32_t phys_page);
  uint32_t code_size() const { return code_size_; }
  uint32_t data_size() const { return data_size_; }
  // Decode the instruction at bytes b[0..kInsnBytes-1] (tests, disassembler) as Falcon `version` (3 or
  // 5: the v5 encodings of decode_v5, the rest as v3).
  static constexpr unsigned kInsnBytes = 8;  // longest v5 form is 5 bytes; 8 for alignment
  static void decode(const uint8_t* b, Insn& out, unsigned version = 3);
  // Raw bytes at virtual pc (missing bytes read 0); false if pc is not mapped.
  bool fetch_bytes(uint32_t pc, uint8_t out[kInsnBytes]) const;
  // The ISA version the core executes: 3 (default) or 5 (GK208+ context controllers, fuc5).
  void set_version(unsigned v) {
    version_ = v >= 5 ? 5 : 3;
    invalidate_all();
  }
  unsigned version() const { return version_; }

 private:
  static bool decode_v5(const uint8_t* b, Insn& out);
  bool translate(uint32_t vpc, uint32_t& phys) const;
  void rebuild_vmap();
  void invalidate_all();
  void deliver_trap(uint32_t reason, uint32_t pc);
  void fatal(const std::string& why);
  bool push32(uint32_t v);
  bool pop32(uint32_t& v);
  uint32_t ld(unsigned sz, uint32_t addr, bool& ok);
  bool st(unsigned sz, uint32_t addr, uint32_t v);
  uint32_t read_sr(unsigned sr) const;

  uint32_t r_[17] = {};  // $r0..$r15, [16] = $sp
  uint32_t pc_ = 0, flags_ = 0, iv0_ = 0, iv1_ = 0, tv_ = 0, xcbase_ = 0, xdbase_ = 0, xtargets_ = 0, tstatus_ = 0;
  bool tv_written_ = false;
  bool sync_io_ = false;
  unsigned version_ = 3;
  uint32_t lines_ = 0;  // bit 0 = vector 0 line, bit 1 = vector 1 line
  uint64_t cycles_ = 0, instret_ = 0, limit_ = 0;
  CoreState state_ = CoreState::running;
  RunResult::Reason stop_reason_ = RunResult::Reason::budget;
  bool stop_pending_ = false;
  std::string halt_reason_;

  uint8_t* code_ = nullptr;
  uint32_t code_size_ = 0;
  uint8_t* data_ = nullptr;
  uint32_t data_size_ = 0, data_mask_ = 0;
  struct Tlb {
    uint32_t virt = 0;
    uint32_t flags = 0;
  };
  std::vector<Tlb> tlb_;
  std::vector<int32_t> vmap_;  // virtual page -> physical page, -1 no hit, -2 multi hit (256 pages)
  // Decode cache by virtual pc, in 256-entry pages made on a page's first execution (a core that
  // runs 3 KiB of code holds 12 pages, not 64 Ki entries); dpages_used_ lists the pages made.
  std::vector<std::unique_ptr<Insn[]>> dpages_;
  std::vector<uint32_t> dpages_used_;
  Insn* decode_page(uint32_t vpc);
  BusIf* bus_ = nullptr;
  XferIf* xfer_ = nullptr;
  CycleCosts costs_;
  std::set<uint32_t> breakpoints_;
  Insn tmp_;  // the instruction under a breakpoint (not cached)
};

}  // namespace hetvp::mcu::falcon
