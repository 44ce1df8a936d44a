// hetvp — RV32IMC + Zicsr ISS: state, memories, CSRs, traps and the computed-goto run loop.
// This file is longer than 800 lines on purpose: the computed-goto dispatch needs every instruction
// handler in run()'s one function (a label cannot be jumped to from another function).
#include "models/mcu/rv32/core.h"
#include "models/mcu/rv32/ops.h"
#include "platform/format.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#define HETVP_LIKELY(x) __builtin_expect(!!(x), 1)
#define HETVP_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hetvp::mcu::rv32 {

namespace {
const char* cause_name(uint32_t c) {
  switch (c) {
    case CAUSE_MISALIGNED_FETCH:
      return "instruction address misaligned";
    case CAUSE_FETCH_ACCESS:
      return "instruction access fault";
    case CAUSE_ILLEGAL:
      return "illegal instruction";
    case CAUSE_BREAKPOINT:
      return "breakpoint (ebreak)";
    case CAUSE_MISALIGNED_LOAD:
      return "load address misaligned";
    case CAUSE_LOAD_ACCESS:
      return "load access fault";
    case CAUSE_MISALIGNED_STORE:
      return "store address misaligned";
    case CAUSE_STORE_ACCESS:
      return "store access fault";
    case CAUSE_ECALL_M:
      return "ecall";
    default:
      return "exception";
  }
}
std::string describe(uint32_t cause, uint32_t tval, uint32_t pc) {
  switch (cause) {
    case CAUSE_ILLEGAL:
      return std::string("illegal instruction ") + hex(tval, 8) + " at pc " + hex(pc, 8);
    case CAUSE_MISALIGNED_LOAD:
    case CAUSE_LOAD_ACCESS:
    case CAUSE_MISALIGNED_STORE:
    case CAUSE_STORE_ACCESS:
    case CAUSE_MISALIGNED_FETCH:
    case CAUSE_FETCH_ACCESS:
      return std::string(cause_name(cause)) + " at address " + hex(tval, 8) + " (pc " + hex(pc, 8) + ")";
    default:
      return std::string(cause_name(cause)) + " at pc " + hex(pc, 8);
  }
}
}  // namespace

// ------------------------------------------------------------------------------------------------
// cycle costs

const std::vector<std::string>& cycle_class_names() {
  static const std::vector<std::string> names = {"alu", "load", "store", "branch", "branch_taken", "jump",
                                                 "mul", "div",  "csr",   "system", "trap"};
  return names;
}

void apply_cycle_overrides(CycleCosts& c, const std::map<std::string, uint64_t>& ov) {
  uint32_t* fields[] = {&c.alu, &c.load, &c.store, &c.branch, &c.branch_taken, &c.jump,
                        &c.mul, &c.div,  &c.csr,   &c.system, &c.trap};
  const auto& names = cycle_class_names();
  CycleCosts tmp = c;
  uint32_t* tfields[] = {&tmp.alu, &tmp.load, &tmp.store, &tmp.branch, &tmp.branch_taken, &tmp.jump,
                         &tmp.mul, &tmp.div,  &tmp.csr,   &tmp.system, &tmp.trap};
  (void)fields;
  for (const auto& [name, cost] : ov) {
    size_t k = 0;
    while (k < names.size() && names[k] != name) ++k;
    if (k == names.size()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw std::invalid_argument("unknown instruction class '" + name + "' in cycle cost table; valid: " + list);
    }
    if (cost < 1 || cost > 65535)
      throw std::invalid_argument("cycle cost for '" + name + "' must be 1..65535, got " + std::to_string(cost));
    *tfields[k] = static_cast<uint32_t>(cost);
  }
  c = tmp;
}

// ------------------------------------------------------------------------------------------------
// set-up

Rv32Core::Rv32Core() { reset(0); }
Rv32Core::~Rv32Core() = default;

void Rv32Core::add_region(const MemRegion& r) {
  if (r.size == 0 || (r.size & 3) || (r.base & 3) || !r.host)
    throw std::invalid_argument(
        "rv32: memory region at " + hex(r.base, 8) +
        " needs a host pointer, 4-byte aligned base and a size that is a non-zero multiple of 4");
  if (static_cast<uint64_t>(r.base) + r.size > (1ull << 32))
    throw std::invalid_argument("rv32: memory region at " + hex(r.base, 8) + " wraps past 4 GiB");
  for (const auto& o : regions_) {
    if (r.base < o->m.base + static_cast<uint64_t>(o->m.size) && o->m.base < r.base + static_cast<uint64_t>(r.size))
      throw std::invalid_argument("rv32: memory region at " + hex(r.base, 8) + " overlaps region at " +
                                  hex(o->m.base, 8));
  }
  auto reg = std::make_unique<Region>();
  reg->m = r;
  regions_.push_back(std::move(reg));
  reset_data_cache();
}

void Rv32Core::clear_regions() {
  regions_.clear();
  reset_data_cache();
}

void Rv32Core::set_dmi(bool enabled) {
  dmi_ = enabled;
  reset_data_cache();
}

void Rv32Core::reset_data_cache() {
  ld_base_ = st_base_ = 0;
  ld_size_ = st_size_ = -1;
  ld_host_ = st_host_ = nullptr;
}

void Rv32Core::set_cycle_costs(const std::map<std::string, uint64_t>& overrides) {
  CycleCosts c = costs_;
  apply_cycle_overrides(c, overrides);
  set_cycle_costs(c);
}

void Rv32Core::set_cycle_costs(const CycleCosts& c) {
  costs_ = c;
  invalidate_all();
}

void Rv32Core::set_compressed(bool on) {
  compressed_ = on;
  invalidate_all();
}

void Rv32Core::invalidate_all() {
  for (auto& r : regions_) {
    for (auto& e : r->dcache) e.op = OP_DECODE;
    if (r->any_block) {
      for (auto& b : r->blocks) b.reset();
      std::fill(r->jslots.begin(), r->jslots.end(), nullptr);
      std::fill(r->bpages.begin(), r->bpages.end(), 0);
      r->any_block = false;
    }
  }
}

// Drops every block of `r` that was decoded from a byte in [lo, hi). A block is at most
// kMaxBlockBytes long, so only blocks starting in [lo - kMaxBlockBytes, hi) can overlap, and the
// per-page flags skip pages where no block starts (a data store into an RWX region costs a few
// flag tests).
void Rv32Core::drop_blocks(Region& r, uint64_t lo, uint64_t hi) {
  if (!r.any_block) return;
  const uint64_t b = r.m.base, e = b + r.m.size;
  const uint64_t s = std::max(lo >= kMaxBlockBytes ? lo - kMaxBlockBytes : 0, b), t = std::min(hi, e);
  if (s >= t) return;
  for (uint64_t p = (s - b) >> kBlockPageShift; p <= (t - 1 - b) >> kBlockPageShift; ++p) {
    if (!r.bpages[p]) continue;
    const uint64_t ps = std::max(s, b + (p << kBlockPageShift));
    const uint64_t pt = std::min(t, b + ((p + 1) << kBlockPageShift));
    for (uint64_t k = (ps - b) >> 1; k < (pt - b + 1) >> 1; ++k) {
      const Block* blk = r.blocks[k].get();
      if (blk && blk->end > lo && blk->start < hi) {
        r.blocks[k].reset();
        r.jslots[k] = nullptr;  // unlinks every chain into it
      }
    }
  }
}

void Rv32Core::invalidate_code(uint32_t addr, uint32_t len) {
  if (len == 0) return;
  const uint64_t lo = addr >= 2 ? addr - 2 : 0;           // a 32-bit insn may start 2 bytes before
  const uint64_t hi = static_cast<uint64_t>(addr) + len;  // exclusive
  for (auto& r : regions_) {
    if (r->dcache.empty()) continue;
    const uint64_t b = r->m.base, e = b + r->m.size;
    const uint64_t s = std::max(lo, b), t = std::min(hi, e);
    if (s >= t) continue;
    for (uint64_t k = (s - b) / 2; k < (t - b + 1) / 2; ++k) r->dcache[k].op = OP_DECODE;
    drop_blocks(*r, addr, static_cast<uint64_t>(addr) + len);
  }
}

void Rv32Core::set_breakpoint(uint32_t addr) {
  breakpoints_.insert(addr & ~1u);
  invalidate_code(addr & ~1u, 2);
}
void Rv32Core::clear_breakpoint(uint32_t addr) {
  breakpoints_.erase(addr & ~1u);
  invalidate_code(addr & ~1u, 2);
}
void Rv32Core::clear_breakpoints() {
  breakpoints_.clear();
  invalidate_all();
}

void Rv32Core::reset(uint32_t entry_pc) {
  std::memset(x_, 0, sizeof x_);
  pc_ = entry_pc & ~1u;
  mstatus_ = MSTATUS_MPP;
  mie_ = 0;  // mip_ follows the interrupt lines and survives reset
  mtvec_ = mscratch_ = mepc_ = mcause_ = mtval_ = 0;
  mtvec_written_ = false;
  cycles_ = instret_ = 0;
  cycle_offset_ = instret_offset_ = 0;
  in_handler_ = false;
  wd_count_ = wd_cause_ = wd_epc_ = 0;
  wd_mret_seen_ = false;
  wd_mret_pc_ = 0;
  wd_mret_instret_ = 0;
  state_ = CoreState::running;
  stop_reason_ = RunResult::Reason::budget;
  stop_pending_ = false;
  halt_reason_.clear();
  limit_ = 0;
  csr_probe_trap_ = false;
  if (pmp_.active()) invalidate_all();  // decoded under locked entries that reset clears
  pmp_.reset();
  reset_data_cache();
}

void Rv32Core::set_irq(IrqLine line, bool level) {
  const uint32_t bit = 1u << static_cast<unsigned>(line);
  if (level)
    mip_ |= bit;
  else
    mip_ &= ~bit;
}

void Rv32Core::request_stop() {
  stop_pending_ = true;
  limit_ = 0;
}

void Rv32Core::halt(const std::string& why) {
  if (state_ == CoreState::fatal) return;
  state_ = CoreState::halted;
  halt_reason_ = why;
  stop_reason_ = RunResult::Reason::halted;
  limit_ = 0;
}

void Rv32Core::fatal(const std::string& why) {
  state_ = CoreState::fatal;
  halt_reason_ = why;
  stop_reason_ = RunResult::Reason::trapped_fatal;
  limit_ = 0;
}

// ------------------------------------------------------------------------------------------------
// memory

Rv32Core::Region* Rv32Core::find_region(uint32_t addr, uint32_t size) {
  for (auto& r : regions_)
    if (addr - r->m.base < r->m.size && r->m.size - (addr - r->m.base) >= size) return r.get();
  return nullptr;
}
const Rv32Core::Region* Rv32Core::find_region(uint32_t addr, uint32_t size) const {
  return const_cast<Rv32Core*>(this)->find_region(addr, size);
}

uint32_t Rv32Core::fetch_raw(uint32_t pc) const {
  const Region* r = find_region(pc, 2);
  if (!r) return 0;
  const uint32_t off = pc - r->m.base;
  uint16_t lo;
  std::memcpy(&lo, r->m.host + off, 2);
  if ((lo & 3) != 3) return lo;
  if (r->m.size - off < 4) return lo;
  uint32_t w;
  std::memcpy(&w, r->m.host + off, 4);
  return w;
}

void Rv32Core::decode_at(Region& r, uint32_t pc, Insn& out) const {
  const uint32_t off = pc - r.m.base;
  uint16_t lo;
  std::memcpy(&lo, r.m.host + off, 2);
  if ((lo & 3) == 3) {
    if (r.m.size - off < 4) {
      out = Insn{};
      out.op = OP_FETCH_FAULT;  // upper half lies outside code memory
      out.imm = 2;
      out.raw = lo;
      out.len = 4;
      out.cost = static_cast<uint16_t>(costs_.trap);
      return;
    }
    uint32_t w;
    std::memcpy(&w, r.m.host + off, 4);
    decode(w, out);
  } else {
    decode(lo, out);
  }
  // PMP: fetch permission is checked when the instruction is decoded; every PMP write drops the
  // decoded instructions, so the check holds until the next one.
  if (pmp_.active() && !pmp_.allows(pc, out.len, Pmp::kExec)) {
    const bool first_ok = out.len == 4 && pmp_.allows(pc, 2, Pmp::kExec);
    const uint32_t raw = out.raw;
    out = Insn{};
    out.op = OP_FETCH_FAULT;
    out.imm = first_ok ? 2 : 0;
    out.raw = raw;
    out.len = 4;
    out.cost = static_cast<uint16_t>(costs_.trap);
    return;
  }
  if (!breakpoints_.empty() && breakpoints_.count(pc)) {
    out.pad = out.op;
    out.op = OP_BREAKPOINT;
  }
}

// First fetch from a region: allocate its decode cache, and take the region out of the store cache
// (stores into decoded code must take the invalidating slow path). Out of line: keeps run() small.
__attribute__((noinline)) void Rv32Core::allocate_decode_cache(Region& r) {
  r.dcache.assign(r.m.size / 2, Insn{});
  r.blocks.clear();
  r.blocks.resize(r.m.size / 2);
  r.jslots.assign(r.m.size / 2, nullptr);
  r.bpages.assign((r.m.size + (1u << kBlockPageShift) - 1) >> kBlockPageShift, 0);
  r.any_block = false;
  reset_data_cache();
}

namespace {
bool is_control_transfer(uint8_t op) {
  return op == OP_JAL || op == OP_JALR || (op >= OP_BEQ && op <= OP_BGEU);
}

// The block handler of an op (see build_block), null when no block holds it. In a block the pc is
// known, so auipc runs as a load-immediate.
const void* block_handler(uint8_t op, const void* const* bl) { return op == OP_AUIPC ? bl[OP_LI] : bl[op]; }
}  // namespace

// Builds the block starting at pc (decoding what is not decoded yet) and files it under pc.
// blabels[op] is the block handler of each op, null for ops that end a block (they run on the
// per-instruction path); blabels[OP_COUNT] is the END handler. Returns null when the instruction at
// pc is such an op (nothing is filed: the caller interprets it).
__attribute__((noinline)) Block* Rv32Core::build_block(Region& r, uint32_t pc0, const void* const* bl) {
  // An op no block holds at pc0 (an I/O store that ends the burst, a CSR, wfi): nothing is built,
  // so nothing is allocated either — the dispatcher asks again at every visit (#31).
  if (const uint32_t off = pc0 - r.m.base; off < r.m.size) {
    Insn& in = r.dcache[off >> 1];
    if (in.op == OP_DECODE) decode_at(r, pc0, in);
    if (!block_handler(in.op, bl)) return nullptr;
  } else {
    return nullptr;  // outside the region: the loop below would take no instruction either
  }
  auto b = std::make_unique<Block>();
  b->start = pc0;
  uint32_t pc = pc0, cost = 0;
  bool transfer = false;
  while (b->n < kMaxBlockInsns) {
    const uint32_t off = pc - r.m.base;
    if (off >= r.m.size) break;  // falls off the region: the next fetch takes the slow path
    Insn& in = r.dcache[off >> 1];
    if (in.op == OP_DECODE) decode_at(r, pc, in);
    const bool auipc = in.op == OP_AUIPC;  // pc is known: auipc is a load-immediate here
    const void* h = block_handler(in.op, bl);
    if (!h || pc + in.len - pc0 > kMaxBlockBytes) break;
    BOp o;
    o.h = h;
    o.imm = auipc ? static_cast<int32_t>(pc + static_cast<uint32_t>(in.imm)) : in.imm;
    o.pc = pc;
    o.pcost = cost;
    o.idx = static_cast<uint16_t>(b->n);
    o.rd = in.rd;
    o.rs1 = in.rs1;
    o.rs2 = in.rs2;
    o.len = in.len;
    o.opc = auipc ? static_cast<uint8_t>(OP_LI) : in.op;
    if (in.op >= OP_BEQ && in.op <= OP_BGEU)
      o.tdelta = static_cast<int32_t>(costs_.branch_taken) - static_cast<int32_t>(in.cost);
    b->ops.push_back(o);
    b->cost_before_last = cost;
    cost += in.cost;
    ++b->n;
    pc += in.len;
    if (is_control_transfer(in.op)) {
      transfer = true;
      break;
    }
  }
  if (b->n == 0) return nullptr;
  b->cost = cost;
  b->end = pc;
  if (!transfer) {
    BOp e;
    e.h = bl[OP_COUNT];
    e.pc = pc;
    b->ops.push_back(e);
  }
  if (x86_translation_) {
    if (jitbuf_.ensure() && jitbuf_.room() < (64u << 10)) {
      // code memory full: start over (every block is rebuilt on its next execution)
      invalidate_all();
      jitbuf_.clear();
      ++translated_refills_;
    }
    b->code = jit_translate(*b, compressed_ ? 0u : 2u, JitSlots{r.jslots.data(), r.m.base, r.m.size}, jitbuf_);
    if (b->code) ++blocks_translated_;
  }
  const uint32_t off0 = pc0 - r.m.base;
  r.bpages[off0 >> kBlockPageShift] = 1;
  r.any_block = true;
  ++blocks_built_;
  r.jslots[off0 >> 1] = b->code;
  r.blocks[off0 >> 1] = std::move(b);
  return r.blocks[off0 >> 1].get();
}

bool Rv32Core::load_slow(uint32_t addr, uint32_t size, uint32_t& value) {
  if (addr & (size - 1)) {
    if (misaligned_emulate_) return load_misaligned(addr, size, value);
    take_trap(CAUSE_MISALIGNED_LOAD, addr, pc_);
    return false;
  }
  const bool checked = pmp_.active();  // then every access comes here: the fast-path caches stay empty
  if (HETVP_UNLIKELY(checked) && !pmp_.allows(addr, size, Pmp::kRead)) {
    take_trap(CAUSE_LOAD_ACCESS, addr, pc_);
    return false;
  }
  if (dmi_) {
    if (Region* r = find_region(addr, size)) {
      const uint32_t off = addr - r->m.base;
      value = 0;
      std::memcpy(&value, r->m.host + off, size);
      if (checked) return true;
      ld_base_ = r->m.base;
      ld_size_ = r->m.size;
      ld_host_ = r->m.host;
      return true;
    }
  }
  uint64_t extra = 0;
  uint32_t v = 0;
  if (!bus_ || !bus_->read(addr, size, v, extra)) {
    take_trap(CAUSE_LOAD_ACCESS, addr, pc_);
    return false;
  }
  if (size == 1)
    v &= 0xff;
  else if (size == 2)
    v &= 0xffff;
  value = v;
  cycles_ += extra;
  return true;
}

bool Rv32Core::store_slow(uint32_t addr, uint32_t size, uint32_t value) {
  if (addr & (size - 1)) {
    if (misaligned_emulate_) return store_misaligned(addr, size, value);
    take_trap(CAUSE_MISALIGNED_STORE, addr, pc_);
    return false;
  }
  const bool checked = pmp_.active();
  if (HETVP_UNLIKELY(checked) && !pmp_.allows(addr, size, Pmp::kWrite)) {
    take_trap(CAUSE_STORE_ACCESS, addr, pc_);
    return false;
  }
  if (dmi_) {
    if (Region* r = find_region(addr, size)) {
      if (!r->m.writable) {
        take_trap(CAUSE_STORE_ACCESS, addr, pc_);
        return false;
      }
      std::memcpy(r->m.host + (addr - r->m.base), &value, size);
      if (!r->dcache.empty()) {
        invalidate_code(addr, size);
      } else if (!checked) {
        st_base_ = r->m.base;
        st_size_ = r->m.size;
        st_host_ = r->m.host;
      }
      return true;
    }
  }
  uint64_t extra = 0;
  if (!bus_ || !bus_->write(addr, size, value, extra)) {
    take_trap(CAUSE_STORE_ACCESS, addr, pc_);
    return false;
  }
  cycles_ += extra;
  // DMI off: the bus may have written a code region; keep decoded code coherent.
  if (!dmi_) invalidate_code(addr, size);
  return true;
}

// Misaligned accesses done in hardware (set_misaligned_emulation): byte by byte, low address first,
// each byte through the aligned path (regions, bus, PMP). The access costs its class's cycles
// twice (as two aligned accesses would); the caller adds the first. A byte that faults traps with
// its own address in mtval; a store's earlier bytes stay written (the spec allows either).
bool Rv32Core::load_misaligned(uint32_t addr, uint32_t size, uint32_t& value) {
  uint32_t v = 0;
  for (uint32_t k = 0; k < size; ++k) {
    uint32_t b = 0;
    if (!load_slow(addr + k, 1, b)) return false;
    v |= (b & 0xffu) << (8 * k);
  }
  value = v;
  cycles_ += costs_.load;
  return true;
}

bool Rv32Core::store_misaligned(uint32_t addr, uint32_t size, uint32_t value) {
  for (uint32_t k = 0; k < size; ++k)
    if (!store_slow(addr + k, 1, (value >> (8 * k)) & 0xffu)) return false;
  cycles_ += costs_.store;
  return true;
}

// ------------------------------------------------------------------------------------------------
// traps and CSRs

void Rv32Core::take_trap(uint32_t cause, uint32_t tval, uint32_t epc) {
  const bool irq = cause & CAUSE_INTERRUPT;
  // Strict traps stop only on a fault: not on a CSR probe (an absent CSR is how software looks for
  // optional ones), nor on ecall/ebreak, which a program executes on purpose (riscv-tests' env/p
  // exits through ecall from inside its handler).
  const bool not_a_fault = csr_probe_trap_ || cause == CAUSE_ECALL_M || cause == CAUSE_BREAKPOINT;
  csr_probe_trap_ = false;
  if (!irq) {
    std::string why;
    if (!mtvec_written_) {
      why = describe(cause, tval, epc) + " (no trap handler: mtvec was never written)";
    } else if (strict_traps_ && in_handler_ && !not_a_fault) {
      why = "fault in trap handler: " + describe(cause, tval, epc) + " (handling mcause " + hex(mcause_, 8) +
            ", mepc " + hex(mepc_, 8) + "; strict traps)";
    } else if (wd_limit_) {
      // Trap-loop watchdog: count identical (cause, epc) traps with no progress in between.
      const bool progress = wd_count_ == 0 || cause != wd_cause_ || epc != wd_epc_ ||
                            (wd_mret_seen_ && (wd_mret_pc_ != epc || instret_ != wd_mret_instret_));
      wd_count_ = progress ? 1 : wd_count_ + 1;
      wd_cause_ = cause;
      wd_epc_ = epc;
      wd_mret_seen_ = false;
      if (wd_count_ >= wd_limit_)
        why = "trap loop: " + describe(cause, tval, epc) + " (mcause " + hex(cause, 8) + ") taken " +
              std::to_string(wd_count_) + " times in a row with no progress (trap watchdog)";
    }
    if (!why.empty()) {
      // record the trap in the CSRs too, so a debugger sees it
      mepc_ = epc;
      mcause_ = cause;
      mtval_ = tval;
      pc_ = epc;
      fatal(why);
      return;
    }
  }
  mepc_ = epc;
  mcause_ = cause;
  mtval_ = tval;
  mstatus_ = (mstatus_ & ~(MSTATUS_MIE | MSTATUS_MPIE)) | ((mstatus_ & MSTATUS_MIE) ? MSTATUS_MPIE : 0);
  in_handler_ = true;
  const uint32_t base = mtvec_ & ~3u;
  pc_ = (irq && (mtvec_ & 1)) ? base + 4 * (cause & 0x1f) : base;
  cycles_ += costs_.trap;
}

bool Rv32Core::take_interrupt_if_pending() {
  if (!(mstatus_ & MSTATUS_MIE) || state_ != CoreState::running) return false;
  const uint32_t p = mie_ & mip_;
  if (!p) return false;
  uint32_t code;
  if (p & (1u << 11))
    code = 11;
  else if (p & (1u << 3))
    code = 3;
  else
    code = 7;
  take_trap(CAUSE_INTERRUPT | code, 0, pc_);
  return true;
}

bool Rv32Core::read_csr(uint32_t csr, uint32_t& v) const {
  const uint64_t cyc = csr_cycles(), ins = csr_instret();
  switch (csr) {
    case CSR_MSTATUS:
      v = mstatus_ | MSTATUS_MPP;
      return true;
    case CSR_MISA:
      v = (1u << 30) | (1u << 8) | (1u << 12) | (compressed_ ? (1u << 2) : 0);
      return true;
    case CSR_MIE:
      v = mie_;
      return true;
    case CSR_MIP:
      v = mip_;
      return true;
    case CSR_MTVEC:
      v = mtvec_;
      return true;
    case CSR_MSCRATCH:
      v = mscratch_;
      return true;
    case CSR_MEPC:
      v = mepc_;
      return true;
    case CSR_MCAUSE:
      v = mcause_;
      return true;
    case CSR_MTVAL:
      v = mtval_;
      return true;
    case CSR_MCYCLE:
    case CSR_CYCLE:
    case CSR_TIME:
      v = static_cast<uint32_t>(cyc);
      return true;
    case CSR_MCYCLEH:
    case CSR_CYCLEH:
    case CSR_TIMEH:
      v = static_cast<uint32_t>(cyc >> 32);
      return true;
    case CSR_MINSTRET:
    case CSR_INSTRET:
      v = static_cast<uint32_t>(ins);
      return true;
    case CSR_MINSTRETH:
    case CSR_INSTRETH:
      v = static_cast<uint32_t>(ins >> 32);
      return true;
    case CSR_MVENDORID:
    case CSR_MARCHID:
    case CSR_MIMPID:
      v = 0;
      return true;
    case CSR_MHARTID:
      v = hartid_;
      return true;
    // No triggers (Sdtrig): tselect is a WARL 0 and tdata1 reads type 0, "no trigger at this
    // tselect", as the debug spec allows, so software probing for triggers (riscv-tests'
    // rv32mi breakpoint) finds none and skips instead of trapping. Writes are ignored.
    case CSR_TSELECT:
    case CSR_TDATA1:
    case CSR_TDATA2:
    case CSR_TDATA3:
      v = 0;
      return true;
    default:
      if (Pmp::is_csr(csr)) {
        v = pmp_.read(csr);
        return true;
      }
      return false;
  }
}

bool Rv32Core::csr_write(uint32_t csr, uint32_t v) {
  switch (csr) {
    case CSR_MSTATUS:
      mstatus_ = (v & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP;
      if (v & MSTATUS_MIE) in_handler_ = false;  // re-enabling interrupts leaves "handler" state
      return true;
    case CSR_MISA:
      return true;  // WARL, fixed
    case CSR_MIE:
      mie_ = v & 0x888u;
      return true;
    case CSR_MIP:
      return true;  // MEIP/MTIP/MSIP follow the input lines only
    case CSR_MTVEC:
      mtvec_ = v & ~2u;
      mtvec_written_ = true;
      return true;
    case CSR_MSCRATCH:
      mscratch_ = v;
      return true;
    case CSR_MEPC:
      mepc_ = v & (compressed_ ? ~1u : ~3u);
      return true;
    case CSR_MCAUSE:
      mcause_ = v;
      return true;
    case CSR_MTVAL:
      mtval_ = v;
      return true;
    case CSR_MCYCLE: {
      const uint64_t n = (csr_cycles() & ~0xffffffffull) | v;
      cycle_offset_ = n - cycles_;
      return true;
    }
    case CSR_MCYCLEH: {
      const uint64_t n = (csr_cycles() & 0xffffffffull) | (uint64_t(v) << 32);
      cycle_offset_ = n - cycles_;
      return true;
    }
    case CSR_MINSTRET: {
      const uint64_t n = (csr_instret() & ~0xffffffffull) | v;
      instret_offset_ = n - instret_;
      return true;
    }
    case CSR_MINSTRETH: {
      const uint64_t n = (csr_instret() & 0xffffffffull) | (uint64_t(v) << 32);
      instret_offset_ = n - instret_;
      return true;
    }
    default:
      if (Pmp::is_csr(csr)) {
        const bool was = pmp_.active();
        pmp_.write(csr, v);
        if (was || pmp_.active()) {  // the rules changed: refill caches and decoded code under them
          reset_data_cache();
          invalidate_all();
        }
        return true;
      }
      return false;
  }
}

// Returns false when the access trapped (illegal instruction).
bool Rv32Core::csr_access(const Insn& i, uint32_t operand, bool write, uint32_t& old) {
  const uint32_t csr = static_cast<uint32_t>(i.imm) & 0xfff;
  uint32_t cur = 0;
  if (!read_csr(csr, cur) || (write && (csr >> 10) == 3)) {
    // Strict traps do not call this a fault in a handler: touching an absent CSR is how software
    // probes for optional ones (riscv-tests' env/p start-up, conformance/csr_probe.S).
    csr_probe_trap_ = true;
    take_trap(CAUSE_ILLEGAL, i.raw, pc_);
    return false;
  }
  old = cur;
  if (write) {
    uint32_t n = operand;
    if (i.op == OP_CSRRS || i.op == OP_CSRRSI)
      n = cur | operand;
    else if (i.op == OP_CSRRC || i.op == OP_CSRRCI)
      n = cur & ~operand;
    csr_write(csr, n);
    // A write to a counter replaces this instruction's own increment (which the caller adds
    // when the instruction finishes): the next instruction reads the value written.
    if (csr == CSR_MCYCLE || csr == CSR_MCYCLEH)
      cycle_offset_ -= i.cost;
    else if (csr == CSR_MINSTRET || csr == CSR_MINSTRETH)
      instret_offset_ -= 1;
  }
  return true;
}

// ------------------------------------------------------------------------------------------------
// the run loop

RunResult Rv32Core::run(uint64_t max_cycles) {
  return threaded_blocks_ ? run_impl<true>(max_cycles) : run_impl<false>(max_cycles);
}

// kBlocks = false: the per-instruction interpreter. kBlocks = true: the same handlers, plus block
// handlers (B_*) that run pre-decoded straight-line blocks; every instruction a block cannot run
// (and every slow path: a load/store miss, a misaligned jump) falls back to the interpreter's
// handler for exactly that instruction, with pc and counters restored to its start, and the
// interpreter's DISPATCH comes back to block_dispatch. Cycle budgets stay exact: a block is entered
// only when every instruction but its last starts below the limit, as in the interpreter.
// The interpreter instantiation never takes the block handlers' addresses: their labels are unused there.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-label"
template <bool kBlocks>
RunResult Rv32Core::run_impl(uint64_t max_cycles) {
  RunResult res;
  switch (state_) {
    case CoreState::fatal:
      res.reason = RunResult::Reason::trapped_fatal;
      return res;
    case CoreState::halted:
      res.reason = RunResult::Reason::halted;
      return res;
    case CoreState::sleeping:
      if (!(mie_ & mip_)) {
        res.reason = RunResult::Reason::wfi;
        return res;
      }
      state_ = CoreState::running;
      break;
    case CoreState::running:
      break;
  }
  if (max_cycles == 0) return res;
  const uint64_t c0 = cycles_, i0 = instret_;
  stop_reason_ = RunResult::Reason::budget;
  stop_pending_ = false;
  limit_ = max_cycles > std::numeric_limits<uint64_t>::max() - cycles_ ? std::numeric_limits<uint64_t>::max()
                                                                       : cycles_ + max_cycles;
  take_interrupt_if_pending();

  static void* const labels[OP_COUNT] = {
#define HETVP_RV32_LABEL(n) &&L_##n,
      HETVP_RV32_OPS(HETVP_RV32_LABEL)
#undef HETVP_RV32_LABEL
  };

  // Block handlers by op (null: the op ends a block), [OP_COUNT] = END. Only taken in the block
  // instantiation, so the interpreter's code has no unreachable block handlers.
  const void* const* blabels = nullptr;
  if constexpr (kBlocks) {
    static const void* const table[OP_COUNT + 1] = {
        nullptr,   nullptr,   nullptr,    nullptr,    &&B_NOP,    &&B_LI,    nullptr /*AUIPC: built as LI*/,
        &&B_JAL,   &&B_JALR,  &&B_BEQ,    &&B_BNE,    &&B_BLT,    &&B_BGE,   &&B_BLTU,
        &&B_BGEU,  &&B_LB,    &&B_LH,     &&B_LW,     &&B_LBU,    &&B_LHU,   &&B_SB,
        &&B_SH,    &&B_SW,    &&B_ADDI,   &&B_SLTI,   &&B_SLTIU,  &&B_XORI,  &&B_ORI,
        &&B_ANDI,  &&B_SLLI,  &&B_SRLI,   &&B_SRAI,   &&B_ADD,    &&B_SUB,   &&B_SLL,
        &&B_SLT,   &&B_SLTU,  &&B_XOR,    &&B_SRL,    &&B_SRA,    &&B_OR,    &&B_AND,
        &&B_MUL,   &&B_MULH,  &&B_MULHSU, &&B_MULHU,  &&B_DIV,    &&B_DIVU,  &&B_REM,
        &&B_REMU,  nullptr,   nullptr,    nullptr,    nullptr,    nullptr,   nullptr,
        nullptr,   nullptr,   nullptr,    nullptr,    nullptr,    &&B_END};
    blabels = table;
  }
  (void)blabels;

  uint32_t* const x = x_;
  uint32_t pc;
  uint64_t cyc, ins, limit;
  // load/store fast-path region caches
  uint32_t lbase, sbase;
  int64_t llim4, llim2, llim1, slim4, slim2, slim1;
  uint8_t *lhost, *shost;
  // current code region
  Region* creg = nullptr;
  uint32_t cbase = 0, csize = 0;
  Insn* dc = nullptr;
  Insn* i = nullptr;
  std::unique_ptr<Block>* bidx = nullptr;  // creg's blocks
  const BOp* op = nullptr;                 // block mode: the op being executed
  uint64_t bcyc = 0, bins = 0;             // block mode: counters at the block's start
  (void)op;
  (void)bcyc;
  (void)bins;
  const uint32_t mmask = compressed_ ? 0u : 2u;
  uint32_t v = 0;

#define SYNC_OUT() (pc_ = pc, cycles_ = cyc, instret_ = ins)
#define SYNC_IN()         \
  do {                    \
    pc = pc_;             \
    cyc = cycles_;        \
    ins = instret_;       \
    limit = limit_;       \
    lbase = ld_base_;     \
    lhost = ld_host_;     \
    llim4 = ld_size_ - 4; \
    llim2 = ld_size_ - 2; \
    llim1 = ld_size_ - 1; \
    sbase = st_base_;     \
    shost = st_host_;     \
    slim4 = st_size_ - 4; \
    slim2 = st_size_ - 2; \
    slim1 = st_size_ - 1; \
    if constexpr (kBlocks) sync_jit_ctx();  \
  } while (0)
#define DISPATCH()                                        \
  do {                                                    \
    if constexpr (kBlocks) {                              \
      goto block_dispatch;                                \
    } else {                                              \
      if (HETVP_UNLIKELY(cyc >= limit)) goto out;         \
      const uint32_t off_ = pc - cbase;                   \
      if (HETVP_UNLIKELY(off_ >= csize)) goto fetch_slow; \
      i = dc + (off_ >> 1);                               \
      goto* labels[i->op];                                \
    }                                                     \
  } while (0)
// block mode: next op of the block
#define BNEXT()       \
  do {                \
    ++op;             \
    goto* op->h;      \
  } while (0)
// block mode: leave the block at this op and run it on the interpreter's handler (slow path)
#define DEOPT()                          \
  do {                                   \
    pc = op->pc;                         \
    cyc = bcyc + op->pcost;              \
    ins = bins + op->idx;                \
    i = dc + ((pc - cbase) >> 1);        \
    goto* labels[i->op];                 \
  } while (0)
#define NEXT()      \
  do {              \
    cyc += i->cost; \
    ++ins;          \
    pc += i->len;   \
    DISPATCH();     \
  } while (0)
#define RD x[i->rd]
#define RS1 x[i->rs1]
#define RS2 x[i->rs2]
// a synchronous trap at this instruction (take_trap may turn it fatal, which sets limit_=0)
#define TRAP(cause, tval)           \
  do {                              \
    SYNC_OUT();                     \
    take_trap((cause), (tval), pc); \
    SYNC_IN();                      \
    DISPATCH();                     \
  } while (0)
// finish an instruction that went through an out-of-line path (state may have changed)
#define FINISH_SLOW()   \
  do {                  \
    cycles_ += i->cost; \
    ++instret_;         \
    pc_ += i->len;      \
    goto check_irq;     \
  } while (0)

  SYNC_IN();
  DISPATCH();

fetch_slow : {
  // pc left the current code region
  Region* r = find_region(pc, 2);
  if (!r || !r->m.executable) TRAP(CAUSE_FETCH_ACCESS, pc);
  if (pc & mmask) TRAP(CAUSE_MISALIGNED_FETCH, pc);
  if (HETVP_UNLIKELY(r->dcache.empty())) {
    SYNC_OUT();
    allocate_decode_cache(*r);
    SYNC_IN();
  }
  creg = r;
  cbase = r->m.base;
  csize = r->m.size;
  dc = r->dcache.data();
  bidx = r->blocks.data();
  DISPATCH();
}

block_dispatch : {
  // Block mode only. Enter the block at pc if every instruction but its last starts below the
  // limit; otherwise (and for ops no block holds) run one instruction on the interpreter.
  const uint32_t off_ = pc - cbase;
  if (HETVP_UNLIKELY(off_ >= csize)) {
    if (cyc >= limit) goto out;
    goto fetch_slow;
  }
  Block* b_ = bidx[off_ >> 1].get();
  if (HETVP_UNLIKELY(!b_)) {
    if (cyc >= limit) goto out;
    // A decoded op no block holds (an I/O store, a CSR, wfi): straight to the interpreter, without
    // asking build_block, which would find the same (#31).
    if (const Insn* in_ = dc + (off_ >> 1); in_->op != OP_DECODE && !block_handler(in_->op, blabels)) {
      i = dc + (off_ >> 1);
      goto* labels[i->op];
    }
    b_ = build_block(*creg, pc, blabels);
    if (!b_) {
      i = dc + (off_ >> 1);
      goto* labels[i->op];
    }
  }
  if (HETVP_UNLIKELY(cyc + b_->cost_before_last >= limit)) {
    if (cyc >= limit) goto out;
    i = dc + (off_ >> 1);
    goto* labels[i->op];
  }
  if (b_->code) {  // translated: run it, then go on where it stopped
    jc_.cyc = cyc;
    jc_.ins = ins;
    const int k_ = b_->code(x, &jc_);  // may chain through further blocks (jit/x86_translator.h)
    if (k_ >= 0) {  // stopped before op k_ of block jc_.cur: the interpreter runs that instruction
      op = &jc_.cur->ops[static_cast<uint32_t>(k_)];
      bcyc = jc_.cyc;
      bins = jc_.ins;
      DEOPT();
    }
    pc = jc_.next_pc;
    cyc = jc_.cyc;
    ins = jc_.ins;
    goto block_dispatch;
  }
  bcyc = cyc;
  bins = ins;
  cyc += b_->cost;
  ins += b_->n;
  op = b_->ops.data();
  goto* op->h;
}

check_irq:  // state synced out; take a pending interrupt if enabled, then go on
  take_interrupt_if_pending();
  SYNC_IN();
  DISPATCH();

L_DECODE:
  decode_at(*creg, pc, *i);
  goto* labels[i->op];
L_ILLEGAL:
  TRAP(CAUSE_ILLEGAL, i->raw);
L_FETCH_FAULT:
  TRAP(CAUSE_FETCH_ACCESS, pc + static_cast<uint32_t>(i->imm));
L_BREAKPOINT:
  if (ins == i0 && i != &tmp_) {  // resuming from this breakpoint: execute the real instruction
    tmp_ = *i;
    tmp_.op = tmp_.pad;
    i = &tmp_;
    goto* labels[i->op];
  }
  SYNC_OUT();
  stop_reason_ = RunResult::Reason::breakpoint;
  goto out_synced;
L_NOP:
  NEXT();
L_LI:
  RD = static_cast<uint32_t>(i->imm);
  NEXT();
L_AUIPC:
  RD = pc + static_cast<uint32_t>(i->imm);
  NEXT();
L_JAL : {
  const uint32_t t = pc + static_cast<uint32_t>(i->imm);
  if (HETVP_UNLIKELY(t & mmask)) TRAP(CAUSE_MISALIGNED_FETCH, t);
  RD = pc + i->len;
  pc = t;
  cyc += i->cost;
  ++ins;
  DISPATCH();
}
L_JALR : {
  const uint32_t t = (RS1 + static_cast<uint32_t>(i->imm)) & ~1u;
  if (HETVP_UNLIKELY(t & mmask)) TRAP(CAUSE_MISALIGNED_FETCH, t);
  RD = pc + i->len;
  pc = t;
  cyc += i->cost;
  ++ins;
  DISPATCH();
}
#define BRANCH(cond)                                                  \
  do {                                                                \
    if (cond) {                                                       \
      const uint32_t t = pc + static_cast<uint32_t>(i->imm);          \
      if (HETVP_UNLIKELY(t & mmask)) TRAP(CAUSE_MISALIGNED_FETCH, t); \
      pc = t;                                                         \
      cyc += costs_.branch_taken;                                     \
      ++ins;                                                          \
      DISPATCH();                                                     \
    }                                                                 \
    NEXT();                                                           \
  } while (0)
L_BEQ:
  BRANCH(RS1 == RS2);
L_BNE:
  BRANCH(RS1 != RS2);
L_BLT:
  BRANCH(static_cast<int32_t>(RS1) < static_cast<int32_t>(RS2));
L_BGE:
  BRANCH(static_cast<int32_t>(RS1) >= static_cast<int32_t>(RS2));
L_BLTU:
  BRANCH(RS1 < RS2);
L_BGEU:
  BRANCH(RS1 >= RS2);

#define LOAD(sz, lim, T, conv)                                             \
  do {                                                                     \
    const uint32_t a = RS1 + static_cast<uint32_t>(i->imm);                \
    const uint32_t o = a - lbase;                                          \
    if (HETVP_LIKELY(static_cast<int64_t>(o) <= lim && !(o & (sz - 1)))) { \
      T t_;                                                                \
      std::memcpy(&t_, lhost + o, sz);                                     \
      RD = conv(t_);                                                       \
      NEXT();                                                              \
    }                                                                      \
    SYNC_OUT();                                                            \
    if (!load_slow(a, sz, v)) {                                            \
      SYNC_IN();                                                           \
      DISPATCH();                                                          \
    }                                                                      \
    {                                                                      \
      T t_ = static_cast<T>(v);                                            \
      RD = conv(t_);                                                       \
    }                                                                      \
    FINISH_SLOW();                                                         \
  } while (0)
#define CONV_S(t) static_cast<uint32_t>(static_cast<int32_t>(t))
#define CONV_U(t) static_cast<uint32_t>(t)
L_LB:
  LOAD(1, llim1, int8_t, CONV_S);
L_LH:
  LOAD(2, llim2, int16_t, CONV_S);
L_LW:
  LOAD(4, llim4, uint32_t, CONV_U);
L_LBU:
  LOAD(1, llim1, uint8_t, CONV_U);
L_LHU:
  LOAD(2, llim2, uint16_t, CONV_U);

#define STORE(sz, lim, T)                                                  \
  do {                                                                     \
    const uint32_t a = RS1 + static_cast<uint32_t>(i->imm);                \
    const uint32_t o = a - sbase;                                          \
    const T t_ = static_cast<T>(RS2);                                      \
    if (HETVP_LIKELY(static_cast<int64_t>(o) <= lim && !(o & (sz - 1)))) { \
      std::memcpy(shost + o, &t_, sz);                                     \
      NEXT();                                                              \
    }                                                                      \
    SYNC_OUT();                                                            \
    if (!store_slow(a, sz, t_)) {                                          \
      SYNC_IN();                                                           \
      DISPATCH();                                                          \
    }                                                                      \
    FINISH_SLOW();                                                         \
  } while (0)
L_SB:
  STORE(1, slim1, uint8_t);
L_SH:
  STORE(2, slim2, uint16_t);
L_SW:
  STORE(4, slim4, uint32_t);

// ALU and M ops: one body, two handlers (L_: interpreter, B_: block). c_ is the Insn or the BOp.
#define XD x[c_->rd]
#define XS1 x[c_->rs1]
#define XS2 x[c_->rs2]
#define UIMM static_cast<uint32_t>(c_->imm)
#define BOTH(name, ...)       \
  L_##name : {                \
    const auto* const c_ = i; \
    __VA_ARGS__;              \
    NEXT();                   \
  }                           \
  B_##name : {                \
    const auto* const c_ = op; \
    __VA_ARGS__;              \
    BNEXT();                  \
  }
  BOTH(ADDI, XD = XS1 + UIMM)
  BOTH(SLTI, XD = static_cast<int32_t>(XS1) < c_->imm)
  BOTH(SLTIU, XD = XS1 < UIMM)
  BOTH(XORI, XD = XS1 ^ UIMM)
  BOTH(ORI, XD = XS1 | UIMM)
  BOTH(ANDI, XD = XS1 & UIMM)
  BOTH(SLLI, XD = XS1 << c_->imm)
  BOTH(SRLI, XD = XS1 >> c_->imm)
  BOTH(SRAI, XD = static_cast<uint32_t>(static_cast<int32_t>(XS1) >> c_->imm))
  BOTH(ADD, XD = XS1 + XS2)
  BOTH(SUB, XD = XS1 - XS2)
  BOTH(SLL, XD = XS1 << (XS2 & 31))
  BOTH(SLT, XD = static_cast<int32_t>(XS1) < static_cast<int32_t>(XS2))
  BOTH(SLTU, XD = XS1 < XS2)
  BOTH(XOR, XD = XS1 ^ XS2)
  BOTH(SRL, XD = XS1 >> (XS2 & 31))
  BOTH(SRA, XD = static_cast<uint32_t>(static_cast<int32_t>(XS1) >> (XS2 & 31)))
  BOTH(OR, XD = XS1 | XS2)
  BOTH(AND, XD = XS1 & XS2)
  BOTH(MUL, XD = XS1 * XS2)
  BOTH(MULH, XD = static_cast<uint32_t>(
                 (static_cast<int64_t>(static_cast<int32_t>(XS1)) * static_cast<int64_t>(static_cast<int32_t>(XS2))) >>
                 32))
  BOTH(MULHSU,
       XD = static_cast<uint32_t>((static_cast<int64_t>(static_cast<int32_t>(XS1)) * static_cast<int64_t>(XS2)) >> 32))
  BOTH(MULHU, XD = static_cast<uint32_t>((static_cast<uint64_t>(XS1) * XS2) >> 32))
  BOTH(DIV, {
    const int32_t a = static_cast<int32_t>(XS1), b = static_cast<int32_t>(XS2);
    if (b == 0)
      XD = 0xffffffffu;
    else if (a == std::numeric_limits<int32_t>::min() && b == -1)
      XD = static_cast<uint32_t>(a);
    else
      XD = static_cast<uint32_t>(a / b);
  })
  BOTH(DIVU, {
    const uint32_t b = XS2;
    XD = b == 0 ? 0xffffffffu : XS1 / b;
  })
  BOTH(REM, {
    const int32_t a = static_cast<int32_t>(XS1), b = static_cast<int32_t>(XS2);
    if (b == 0)
      XD = static_cast<uint32_t>(a);
    else if (a == std::numeric_limits<int32_t>::min() && b == -1)
      XD = 0;
    else
      XD = static_cast<uint32_t>(a % b);
  })
  BOTH(REMU, {
    const uint32_t a = XS1, b = XS2;
    XD = b == 0 ? a : a % b;
  })

// Block-only handlers: control transfers end the block (misaligned targets fall back to the
// interpreter, which traps), loads/stores fall back on any miss of the fast path.
B_NOP:
  BNEXT();
B_LI:
  x[op->rd] = static_cast<uint32_t>(op->imm);
  BNEXT();
B_END:
  pc = op->pc;
  goto block_dispatch;
B_JAL : {
  const uint32_t t = op->pc + static_cast<uint32_t>(op->imm);
  if (HETVP_UNLIKELY(t & mmask)) DEOPT();
  x[op->rd] = op->pc + op->len;
  pc = t;
  goto block_dispatch;
}
B_JALR : {
  const uint32_t t = (x[op->rs1] + static_cast<uint32_t>(op->imm)) & ~1u;
  if (HETVP_UNLIKELY(t & mmask)) DEOPT();
  x[op->rd] = op->pc + op->len;
  pc = t;
  goto block_dispatch;
}
#define BBRANCH(cond)                                                  \
  do {                                                                 \
    if (cond) {                                                        \
      const uint32_t t = op->pc + static_cast<uint32_t>(op->imm);      \
      if (HETVP_UNLIKELY(t & mmask)) DEOPT();                          \
      cyc += static_cast<uint64_t>(static_cast<int64_t>(op->tdelta));  \
      pc = t;                                                          \
    } else {                                                           \
      pc = op->pc + op->len;                                           \
    }                                                                  \
    goto block_dispatch;                                               \
  } while (0)
B_BEQ:
  BBRANCH(x[op->rs1] == x[op->rs2]);
B_BNE:
  BBRANCH(x[op->rs1] != x[op->rs2]);
B_BLT:
  BBRANCH(static_cast<int32_t>(x[op->rs1]) < static_cast<int32_t>(x[op->rs2]));
B_BGE:
  BBRANCH(static_cast<int32_t>(x[op->rs1]) >= static_cast<int32_t>(x[op->rs2]));
B_BLTU:
  BBRANCH(x[op->rs1] < x[op->rs2]);
B_BGEU:
  BBRANCH(x[op->rs1] >= x[op->rs2]);
#define BLOAD(sz, lim, T, conv)                                            \
  do {                                                                     \
    const uint32_t a = x[op->rs1] + static_cast<uint32_t>(op->imm);        \
    const uint32_t o = a - lbase;                                          \
    if (HETVP_LIKELY(static_cast<int64_t>(o) <= lim && !(o & (sz - 1)))) { \
      T t_;                                                                \
      std::memcpy(&t_, lhost + o, sz);                                     \
      x[op->rd] = conv(t_);                                                \
      BNEXT();                                                             \
    }                                                                      \
    DEOPT();                                                               \
  } while (0)
B_LB:
  BLOAD(1, llim1, int8_t, CONV_S);
B_LH:
  BLOAD(2, llim2, int16_t, CONV_S);
B_LW:
  BLOAD(4, llim4, uint32_t, CONV_U);
B_LBU:
  BLOAD(1, llim1, uint8_t, CONV_U);
B_LHU:
  BLOAD(2, llim2, uint16_t, CONV_U);
#define BSTORE(sz, lim, T)                                                 \
  do {                                                                     \
    const uint32_t a = x[op->rs1] + static_cast<uint32_t>(op->imm);        \
    const uint32_t o = a - sbase;                                          \
    if (HETVP_LIKELY(static_cast<int64_t>(o) <= lim && !(o & (sz - 1)))) { \
      const T t_ = static_cast<T>(x[op->rs2]);                             \
      std::memcpy(shost + o, &t_, sz);                                     \
      BNEXT();                                                             \
    }                                                                      \
    DEOPT();                                                               \
  } while (0)
B_SB:
  BSTORE(1, slim1, uint8_t);
B_SH:
  BSTORE(2, slim2, uint16_t);
B_SW:
  BSTORE(4, slim4, uint32_t);

L_FENCE_I:
  SYNC_OUT();
  invalidate_all();  // i stays valid: only op fields are reset
  FINISH_SLOW();
L_ECALL:
  TRAP(CAUSE_ECALL_M, 0);
L_EBREAK:
  if (debug_ebreak_) {
    SYNC_OUT();
    stop_reason_ = RunResult::Reason::breakpoint;
    goto out_synced;
  }
  TRAP(CAUSE_BREAKPOINT, pc);
L_MRET:
  SYNC_OUT();
  mstatus_ = (mstatus_ & ~MSTATUS_MIE) | ((mstatus_ & MSTATUS_MPIE) ? MSTATUS_MIE : 0) | MSTATUS_MPIE;
  in_handler_ = false;
  cycles_ += i->cost;
  ++instret_;
  pc_ = mepc_;
  wd_mret_seen_ = true;
  wd_mret_pc_ = mepc_;
  wd_mret_instret_ = instret_;
  goto check_irq;
L_WFI:
  cyc += i->cost;
  ++ins;
  pc += i->len;
  if (mie_ & mip_) DISPATCH();  // an enabled interrupt is pending: wfi is a no-op
  SYNC_OUT();
  state_ = CoreState::sleeping;
  stop_reason_ = RunResult::Reason::wfi;
  goto out_synced;

#define CSROP(operand, write)                        \
  do {                                               \
    SYNC_OUT();                                      \
    uint32_t old_ = 0;                               \
    if (!csr_access(*i, (operand), (write), old_)) { \
      SYNC_IN();                                     \
      DISPATCH();                                    \
    }                                                \
    x[i->rd] = old_;                                 \
    FINISH_SLOW();                                   \
  } while (0)
L_CSRRW:
  CSROP(RS1, true);
L_CSRRS:
  CSROP(RS1, i->rs1 != 0);
L_CSRRC:
  CSROP(RS1, i->rs1 != 0);
L_CSRRWI:
  CSROP(static_cast<uint32_t>(i->rs1), true);
L_CSRRSI:
  CSROP(static_cast<uint32_t>(i->rs1), i->rs1 != 0);
L_CSRRCI:
  CSROP(static_cast<uint32_t>(i->rs1), i->rs1 != 0);

out:
  SYNC_OUT();
out_synced:
  x_[32] = 0;
  if (stop_pending_ && stop_reason_ == RunResult::Reason::budget) stop_pending_ = false;
  res.cycles = cycles_ - c0;
  res.instructions = instret_ - i0;
  res.reason = stop_reason_;
  return res;

#undef SYNC_OUT
#undef SYNC_IN
#undef DISPATCH
#undef NEXT
#undef RD
#undef RS1
#undef RS2
#undef TRAP
#undef FINISH_SLOW
#undef BRANCH
#undef LOAD
#undef STORE
#undef CSROP
#undef BNEXT
#undef DEOPT
#undef XD
#undef XS1
#undef XS2
#undef UIMM
#undef BOTH
#undef BBRANCH
#undef BLOAD
#undef BSTORE
#undef CONV_S
#undef CONV_U
}

#pragma GCC diagnostic pop

template RunResult Rv32Core::run_impl<false>(uint64_t);
template RunResult Rv32Core::run_impl<true>(uint64_t);

}  // namespace hetvp::mcu::rv32
