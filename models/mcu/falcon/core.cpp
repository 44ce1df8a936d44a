// hetvp — Falcon v3 core: state, code TLB, traps/interrupts and the computed-goto run loop.
// This file is longer than 800 lines on purpose: the computed-goto dispatch needs every instruction
// handler in run()'s one function (a label cannot be jumped to from another function).
// Semantics from envytools docs/hw/falcon/{arith,branch,data,io,intr,proc,vm,xfer}.rst.
#include "models/mcu/falcon/core.h"
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/falcon/ops.h"
#include "platform/format.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#define HETVP_LIKELY(x) __builtin_expect(!!(x), 1)
#define HETVP_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace hetvp::mcu::falcon {

namespace {
constexpr unsigned kVirtPages = 256;  // 64 KiB of virtual code space
constexpr uint32_t kMask[3] = {0xffu, 0xffffu, 0xffffffffu};
constexpr uint32_t kSign[3] = {0x80u, 0x8000u, 0x80000000u};
constexpr unsigned kBits[3] = {8, 16, 32};
// add/adc/sub/sbb (arith.rst): carry = carry out (add) or borrow (sub), overflow from the sign bits.
template <bool kSub, bool kCarryIn, unsigned sz>
inline void addsub_sz(uint32_t* __restrict r, const Insn& i, uint32_t src2, uint32_t& flags) {
  const uint32_t m = kMask[sz], sign = kSign[sz];
  const uint32_t a = r[i.b] & m, b = src2 & m;
  const uint32_t cin = kCarryIn ? ((flags >> 8) & 1) : 0;
  const uint64_t res = kSub ? uint64_t(a) - b - cin : uint64_t(a) + b + cin;
  const bool carry = (res >> kBits[sz]) & 1;
  const uint32_t v = static_cast<uint32_t>(res) & m;
  const bool sa = a & sign, sb = b & sign, sr = v & sign;
  const bool ovf = kSub ? (sa != sb && sa != sr) : (sa == sb && sa != sr);
  flags = (flags & ~(FL_C | FL_O | FL_S | FL_Z)) | (carry ? FL_C : 0) | (ovf ? FL_O : 0) | (sr ? FL_S : 0) |
          (v == 0 ? FL_Z : 0);
  r[i.a] = (r[i.a] & ~m) | v;
}
template <bool kSub, bool kCarryIn>
inline void addsub(uint32_t* __restrict r, const Insn& i, uint32_t src2, uint32_t& flags) {
  if (i.sz == 2)
    addsub_sz<kSub, kCarryIn, 2>(r, i, src2, flags);
  else if (i.sz == 1)
    addsub_sz<kSub, kCarryIn, 1>(r, i, src2, flags);
  else
    addsub_sz<kSub, kCarryIn, 0>(r, i, src2, flags);
}

// shl/shr/sar/shlc/shrc (arith.rst "Shifts"): K = 0 shl, 1 shr, 2 sar, 3 shlc, 4 shrc
template <int K, unsigned sz>
inline void shift_sz(uint32_t* __restrict r, const Insn& i, uint32_t src2, uint32_t& flags) {
  constexpr unsigned bits = kBits[sz];
  const uint32_t a = r[i.b] & kMask[sz];
  const unsigned n = src2 & (bits - 1);
  const uint32_t cin = (flags >> 8) & 1;
  uint32_t res;
  bool c = false;
  if (K == 0 || K == 3) {
    res = static_cast<uint32_t>(static_cast<uint64_t>(a) << n);
    if (n) {
      if (K == 3) res |= cin << (n - 1);
      c = (a >> (bits - n)) & 1;
    }
  } else {
    res = a >> n;
    if (n) {
      if (K == 4) res |= cin << (bits - n);
      if (K == 2 && (a & kSign[sz])) res |= static_cast<uint32_t>(~0ull << (bits - n));
      c = (a >> (n - 1)) & 1;
    }
  }
  res &= kMask[sz];
  flags =
      (flags & ~(FL_C | FL_O | FL_S | FL_Z)) | (c ? FL_C : 0) | ((res & kSign[sz]) ? FL_S : 0) | (res == 0 ? FL_Z : 0);
  r[i.a] = (r[i.a] & ~kMask[sz]) | res;
}
template <int K>
inline void shift(uint32_t* __restrict r, const Insn& i, uint32_t src2, uint32_t& flags) {
  if (i.sz == 2)
    shift_sz<K, 2>(r, i, src2, flags);
  else if (i.sz == 1)
    shift_sz<K, 1>(r, i, src2, flags);
  else
    shift_sz<K, 0>(r, i, src2, flags);
}
// and/or/xor (v3): c = o = 0, s and z from the result
inline void logic(uint32_t* __restrict r, const Insn& i, uint32_t v, uint32_t& flags) {
  r[i.a] = v;
  flags = (flags & ~(FL_C | FL_O | FL_S | FL_Z)) | ((v & 0x80000000u) ? FL_S : 0) | (v == 0 ? FL_Z : 0);
}

}  // namespace

const std::vector<std::string>& cycle_class_names() {
  static const std::vector<std::string> n = {"alu",  "load", "store", "branch", "branch_taken",
                                             "call", "ret",  "div",   "io",     "trap"};
  return n;
}

FalconCore::FalconCore() : vmap_(kVirtPages, -1), dpages_(kVirtPages) {}
FalconCore::~FalconCore() = default;

void FalconCore::add_region(const MemRegion& r) {
  if (!r.host || r.size == 0 || r.size % 0x100 != 0 || r.base != 0)
    throw std::invalid_argument(
        "falcon: a memory region must start at 0, be a non-zero multiple of 0x100 bytes "
        "and have a host buffer");
  if (r.executable) {
    if (code_) throw std::invalid_argument("falcon: code segment already set");
    if (r.size > kVirtPages * 0x100) throw std::invalid_argument("falcon: code segment larger than 64 KiB");
    code_ = r.host;
    code_size_ = r.size;
    tlb_.assign(r.size / 0x100, Tlb{});
    for (unsigned i = 0; i < tlb_.size(); ++i) tlb_[i] = Tlb{i, 1};  // identity, usable
    rebuild_vmap();
  } else {
    if (data_) throw std::invalid_argument("falcon: data segment already set");
    if (r.size & (r.size - 1)) throw std::invalid_argument("falcon: data segment size must be a power of two");
    data_ = r.host;
    data_size_ = r.size;
    data_mask_ = r.size - 1;
  }
}

void FalconCore::clear_regions() {
  code_ = data_ = nullptr;
  code_size_ = data_size_ = data_mask_ = 0;
  tlb_.clear();
  rebuild_vmap();
}

void FalconCore::set_cycle_costs(const std::map<std::string, uint64_t>& ov) {
  CycleCosts c = costs_;
  uint32_t* f[] = {&c.alu, &c.load, &c.store, &c.branch, &c.branch_taken, &c.call, &c.ret, &c.div, &c.io, &c.trap};
  const auto& names = cycle_class_names();
  for (const auto& [name, cost] : ov) {
    size_t k = 0;
    while (k < names.size() && names[k] != name) ++k;
    if (k == names.size()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw std::invalid_argument("unknown falcon cycle class '" + name + "' (valid: " + list + ")");
    }
    if (cost == 0 || cost > 255) throw std::invalid_argument("falcon cycle cost of '" + name + "' must be 1..255");
    *f[k] = static_cast<uint32_t>(cost);
  }
  costs_ = c;
  invalidate_all();
}

void FalconCore::reset(uint32_t entry_pc) {
  std::memset(r_, 0, sizeof(r_));
  pc_ = entry_pc & 0xffff;
  flags_ = iv0_ = iv1_ = tv_ = xcbase_ = xdbase_ = xtargets_ = tstatus_ = 0;
  tv_written_ = false;
  cycles_ = instret_ = 0;
  state_ = CoreState::running;
  halt_reason_.clear();
  stop_pending_ = false;
}

void FalconCore::halt(const std::string& why) {
  state_ = CoreState::halted;
  halt_reason_ = why;
  stop_pending_ = true;
  stop_reason_ = RunResult::Reason::halted;
}

void FalconCore::fatal(const std::string& why) {
  state_ = CoreState::fatal;
  halt_reason_ = why;
  stop_pending_ = true;
  stop_reason_ = RunResult::Reason::trapped_fatal;
}

void FalconCore::set_irq(IrqLine line, bool level) {
  if (line == IrqLine::external)
    set_vector(0, level);
  else if (line == IrqLine::timer)
    set_vector(1, level);
}

void FalconCore::set_vector(unsigned vec, bool level) {
  const uint32_t bit = 1u << (vec & 1);
  lines_ = level ? (lines_ | bit) : (lines_ & ~bit);
}

uint32_t FalconCore::read_sr(unsigned sr) const {
  switch (sr) {
    case SR_IV0:
      return iv0_;
    case SR_IV1:
      return iv1_;
    case SR_TV:
      return tv_;
    case SR_SP:
      return r_[16];
    case SR_PC:
      return pc_;
    case SR_XCBASE:
      return xcbase_;
    case SR_XDBASE:
      return xdbase_;
    case SR_FLAGS:
      return flags_;
    case SR_XTARGETS:
      return xtargets_;
    case SR_TSTATUS:
      return tstatus_;
    default:
      return 0;
  }
}

bool FalconCore::read_csr(uint32_t sr, uint32_t& value) const {
  if (sr > 15) return false;
  value = read_sr(sr);
  return true;
}

void FalconCore::write_sr(unsigned sr, uint32_t v) {
  switch (sr) {
    case SR_IV0:
      iv0_ = v;
      break;
    case SR_IV1:
      iv1_ = v;
      break;
    case SR_TV:
      tv_ = v;
      tv_written_ = true;
      break;
    case SR_SP:
      r_[16] = v & data_mask_ & ~3u;
      break;
    case SR_XCBASE:
      xcbase_ = v;
      break;
    case SR_XDBASE:
      xdbase_ = v;
      break;
    case SR_FLAGS:
      flags_ = v;
      break;
    case SR_XTARGETS:
      xtargets_ = v & 0x7707;
      break;
    case SR_TSTATUS:
      tstatus_ = v;
      break;
    default:
      break;  // $pc is read-only; no crypto registers on GF100 ctxctl
  }
}

// --- code TLB ---------------------------------------------------------------------------------

void FalconCore::rebuild_vmap() {
  std::fill(vmap_.begin(), vmap_.end(), -1);
  for (unsigned i = 0; i < tlb_.size(); ++i) {
    if (!(tlb_[i].flags & 1)) continue;
    const uint32_t v = tlb_[i].virt % kVirtPages;
    vmap_[v] = vmap_[v] == -1 ? static_cast<int32_t>(i) : -2;
  }
  invalidate_all();
}

void FalconCore::set_tlb(unsigned phys, uint32_t virt, uint32_t flags) {
  if (phys >= tlb_.size()) return;
  tlb_[phys] = Tlb{virt & 0xffff, flags & 7};
  rebuild_vmap();
}

uint32_t FalconCore::ptlb(uint32_t phys) const {
  phys &= 0xffffff;
  if (phys >= tlb_.size()) return 0;
  return tlb_[phys].flags << 24 | (tlb_[phys].virt & 0xffff) << 8;
}

uint32_t FalconCore::vtlb(uint32_t va) const {
  uint32_t phys = 0, fl = 0, matches = 0;
  for (unsigned i = 0; i < tlb_.size(); ++i)
    if (tlb_[i].flags && tlb_[i].virt == ((va >> 8) & (kVirtPages - 1))) {
      fl |= tlb_[i].flags;
      phys = i;
      ++matches;
    }
  uint32_t res = phys | fl << 24;
  if (matches == 0) res |= 0x80000000u;
  if (matches > 1) res |= 0x40000000u;
  return res;
}

void FalconCore::itlb(uint32_t phys) {
  phys &= 0xffffff;
  if (phys < tlb_.size() && !(tlb_[phys].flags & 4)) set_tlb(phys, 0, 0);
}

bool FalconCore::translate(uint32_t vpc, uint32_t& phys) const {
  const int32_t p = vmap_[(vpc >> 8) % kVirtPages];
  if (p < 0) return false;
  phys = static_cast<uint32_t>(p) << 8 | (vpc & 0xff);
  return true;
}

bool FalconCore::fetch_bytes(uint32_t pc, uint8_t out[kInsnBytes]) const {
  bool ok = true;
  for (unsigned k = 0; k < kInsnBytes; ++k) {
    uint32_t phys;
    if (translate((pc + k) & 0xffff, phys) && phys < code_size_) {
      out[k] = code_[phys];
    } else {
      out[k] = 0;
      if (k == 0) ok = false;
    }
  }
  return ok;
}

// Only the pages decoded so far exist: an invalidation clears those (a code upload before the first
// run, the usual case, finds none).
void FalconCore::invalidate_all() {
  for (uint32_t pg : dpages_used_) std::fill_n(dpages_[pg].get(), 0x100, Insn{});
}

Insn* FalconCore::decode_page(uint32_t vpc) {
  auto& pg = dpages_[(vpc >> 8) % kVirtPages];
  if (!pg) {
    pg.reset(new Insn[0x100]);
    dpages_used_.push_back((vpc >> 8) % kVirtPages);
  }
  return pg.get();
}

void FalconCore::invalidate_code(uint32_t, uint32_t) { invalidate_all(); }

void FalconCore::set_breakpoint(uint32_t addr) {
  breakpoints_.insert(addr & 0xffff);
  invalidate_all();
}
void FalconCore::clear_breakpoint(uint32_t addr) {
  breakpoints_.erase(addr & 0xffff);
  invalidate_all();
}
void FalconCore::clear_breakpoints() {
  breakpoints_.clear();
  invalidate_all();
}

// --- data space (docs/hw/falcon/data.rst LD/ST) --------------------------------------------------

uint32_t FalconCore::ld(unsigned sz, uint32_t addr, bool& ok) {
  if (HETVP_UNLIKELY(addr >= data_size_)) {
    fatal("data load from " + hex(addr, 8) + " outside the data segment (size " + hex(data_size_, 0) + ") at pc " +
          hex(pc_, 4));
    ok = false;
    return 0;
  }
  if (sz == 2) {
    uint32_t v;
    std::memcpy(&v, data_ + (addr & ~3u), 4);
    return v;
  }
  if (sz == 1) return data_[addr & ~1u] | static_cast<uint32_t>(data_[(addr & ~1u) + 1]) << 8;
  return data_[addr];
}

bool FalconCore::st(unsigned sz, uint32_t addr, uint32_t val) {
  if (HETVP_UNLIKELY(addr >= data_size_)) {
    fatal("data store to " + hex(addr, 8) + " outside the data segment (size " + hex(data_size_, 0) + ") at pc " +
          hex(pc_, 4));
    return false;
  }
  if (sz == 2) {
    if (addr & 1)
      val = (val & 0xff) << (addr & 3) * 8;
    else if (addr & 2)
      val = (val & 0xffff) << (addr & 3) * 8;
    std::memcpy(data_ + (addr & ~3u), &val, 4);
  } else if (sz == 1) {
    if (addr & 1) val = (val & 0xff) << 8;
    data_[addr & ~1u] = static_cast<uint8_t>(val);
    data_[(addr & ~1u) + 1] = static_cast<uint8_t>(val >> 8);
  } else {
    data_[addr] = static_cast<uint8_t>(val);
  }
  return true;
}

bool FalconCore::push32(uint32_t v) {
  r_[16] = (r_[16] - 4) & data_mask_ & ~3u;
  return st(2, r_[16], v);
}

bool FalconCore::pop32(uint32_t& v) {
  bool ok = true;
  v = ld(2, r_[16], ok);
  r_[16] = (r_[16] + 4) & data_mask_ & ~3u;
  return ok;
}

// --- traps (docs/hw/falcon/intr.rst "Trap delivery") -----------------------------------------------

void FalconCore::deliver_trap(uint32_t reason, uint32_t pc) {
  if (flags_ & FL_TA) {
    fatal("double trap (reason " + hex(reason, 0) + ") at pc " + hex(pc, 4));
    return;
  }
  flags_ |= FL_TA;
  tstatus_ = (pc & 0xfffff) | reason << 20;
  push32(pc);
  pc_ = tv_ & 0xffff;
  cycles_ += costs_.trap;
}

// --- run loop ------------------------------------------------------------------------------------

RunResult FalconCore::run(uint64_t max_cycles) {
  RunResult res;
  if (state_ == CoreState::halted) {
    res.reason = RunResult::Reason::halted;
    return res;
  }
  if (state_ == CoreState::fatal) {
    res.reason = RunResult::Reason::trapped_fatal;
    return res;
  }
  if (state_ == CoreState::sleeping) {
    if (!(lines_ & (flags_ >> 16) & 3)) {
      res.reason = RunResult::Reason::wfi;
      return res;
    }
    state_ = CoreState::running;
  }
  if (!code_ || !data_) {
    fatal("falcon core has no code or data segment");
    res.reason = RunResult::Reason::trapped_fatal;
    return res;
  }
  const uint64_t c0 = cycles_, i0 = instret_;
  limit_ = cycles_ + (max_cycles ? max_cycles : 1);
  stop_pending_ = false;
  stop_reason_ = RunResult::Reason::budget;
  bool first = true;

  static void* const labels[] = {&&l_NONE,
#define HETVP_FALCON_LABEL(n, s) &&l_##n,
                                 HETVP_FALCON_OPS(HETVP_FALCON_LABEL)
#undef HETVP_FALCON_LABEL
  };

  uint32_t* __restrict const r = r_;  // GPRs never alias pc_, flags_ or the decode cache
  const Insn* i = nullptr;
  uint32_t s2 = 0;

#define SRC2() (i->imm_form ? i->imm : r[i->c])
#define NEXT()                     \
  do {                             \
    pc_ = (pc_ + i->len) & 0xffff; \
    ++instret_;                    \
    goto dispatch;                 \
  } while (0)
#define FLAGS_SZ(res, sz)                                                                                        \
  do {                                                                                                           \
    flags_ = (flags_ & ~(FL_S | FL_Z)) | (((res)&kSign[sz]) ? FL_S : 0) | ((((res)&kMask[sz]) == 0) ? FL_Z : 0); \
  } while (0)
#define WRITE_SZ(d, v, sz) r[d] = (r[d] & ~kMask[sz]) | ((v)&kMask[sz])

dispatch:
  if (HETVP_UNLIKELY(cycles_ >= limit_ || stop_pending_)) goto out;
  if (HETVP_UNLIKELY(lines_ & (flags_ >> 16) & 3)) {
    const unsigned vec = (lines_ & (flags_ >> 16) & 1) ? 0 : 1;
    if (!push32(pc_)) goto out;
    flags_ = (flags_ & ~(FL_IS0 | FL_IS1)) | ((flags_ & (FL_IE0 | FL_IE1)) << 4);
    flags_ &= ~(FL_IE0 | FL_IE1);
    pc_ = (vec == 0 ? iv0_ : iv1_) & 0xffff;
    cycles_ += costs_.trap;
  }
  {
    // The decode cache: one 256-entry page per virtual code page, made on its first execution.
    Insn* pg = dpages_[pc_ >> 8].get();
    if (HETVP_UNLIKELY(!pg)) pg = decode_page(pc_);
    i = &pg[pc_ & 0xff];
  }
  if (HETVP_UNLIKELY(i->op == OP_NONE)) {
    uint8_t b[kInsnBytes];
    uint32_t phys;
    if (!translate(pc_, phys) || phys >= code_size_) {
      if (vmap_[(pc_ >> 8) % kVirtPages] == -2)
        deliver_trap(TRAP_VM_MULTI_HIT, pc_);
      else if (tv_written_)
        deliver_trap(TRAP_VM_NO_HIT, pc_);
      else
        fatal("code fetch at pc " + hex(pc_, 4) + ": no code page mapped there (TLB miss)");
      goto dispatch;
    }
    fetch_bytes(pc_, b);
    Insn d;
    decode(b, d, version_);
    switch (d.op) {
      case OP_LD:
      case OP_POP:
      case OP_RET:
      case OP_IRET:
        d.cost = static_cast<uint8_t>(costs_.load);
        break;
      case OP_ST:
      case OP_PUSH:
        d.cost = static_cast<uint8_t>(costs_.store);
        break;
      case OP_BRA:
      case OP_BRACMP:
        d.cost = static_cast<uint8_t>(costs_.branch);
        break;
      case OP_JMP:
      case OP_CALL:
      case OP_LBRA:
      case OP_LCALL:
        d.cost = static_cast<uint8_t>(costs_.call);
        break;
      case OP_DIV:
      case OP_MOD:
        d.cost = static_cast<uint8_t>(costs_.div);
        break;
      case OP_IORD:
      case OP_IORDS:
      case OP_IOWR:
      case OP_IOWRS:
        d.cost = static_cast<uint8_t>(costs_.io);
        break;
      default:
        d.cost = static_cast<uint8_t>(costs_.alu);
        break;
    }
    if (!breakpoints_.count(pc_)) dpages_[pc_ >> 8][pc_ & 0xff] = d;
    if (breakpoints_.count(pc_) && !first) {
      stop_reason_ = RunResult::Reason::breakpoint;
      goto out;
    }
    tmp_ = d;
    i = &tmp_;
  }
  first = false;
  cycles_ += i->cost;
  goto* labels[i->op];

l_NONE:
l_INVALID : {
  uint8_t b[kInsnBytes];
  fetch_bytes(pc_, b);
  char bytes[16];
  std::snprintf(bytes, sizeof bytes, "%02x %02x %02x %02x", b[0], b[1], b[2], b[3]);
  if (tv_written_ && !(flags_ & FL_TA)) {
    deliver_trap(TRAP_INVALID_OPCODE, pc_);
    goto dispatch;
  }
  fatal(std::string("illegal opcode (bytes ") + bytes + ") at pc " + hex(pc_, 4));
  goto out;
}

l_ST : {
  const uint32_t addr = r[i->b] + (SRC2() << i->sz);
  if (HETVP_LIKELY(i->sz == 2 && !(addr & 3) && addr < data_size_)) {
    std::memcpy(data_ + addr, &r[i->a], 4);
    NEXT();
  }
  if (!st(i->sz, addr, r[i->a])) goto out;
  NEXT();
}
l_LD : {
  if (HETVP_LIKELY(i->sz == 2)) {
    const uint32_t addr = r[i->b] + (SRC2() << 2);
    if (HETVP_LIKELY(addr < data_size_)) {
      std::memcpy(&r[i->a], data_ + (addr & ~3u), 4);
      NEXT();
    }
  }
  bool ok = true;
  const uint32_t v = ld(i->sz, r[i->b] + (SRC2() << i->sz), ok);
  if (!ok) goto out;
  WRITE_SZ(i->a, v, i->sz);
  NEXT();
}
l_CMPU:
l_CMPS:
l_CMP : {
  const unsigned sz = i->sz;
  const uint32_t a = r[i->b] & kMask[sz], b = SRC2() & kMask[sz];
  const uint32_t diff = (a - b) & kMask[sz];
  const bool sa = a & kSign[sz], sb = b & kSign[sz], sd = diff & kSign[sz];
  const bool ovf = sa != sb && sd != sa;
  uint32_t f = flags_ & ~(FL_C | FL_Z);
  if (diff == 0) f |= FL_Z;
  if (i->op == OP_CMPS) {
    if (ovf != sd) f |= FL_C;
  } else {
    if (a < b) f |= FL_C;
    if (i->op == OP_CMP) {
      f &= ~(FL_O | FL_S);
      if (ovf) f |= FL_O;
      if (sd) f |= FL_S;
    }
  }
  flags_ = f;
  NEXT();
}
l_ADD:
  addsub<false, false>(r, *i, SRC2(), flags_);
  NEXT();
l_ADC:
  addsub<false, true>(r, *i, SRC2(), flags_);
  NEXT();
l_SUB:
  addsub<true, false>(r, *i, SRC2(), flags_);
  NEXT();
l_SBB:
  addsub<true, true>(r, *i, SRC2(), flags_);
  NEXT();
l_SHL:
  shift<0>(r, *i, SRC2(), flags_);
  NEXT();
l_SHR:
  shift<1>(r, *i, SRC2(), flags_);
  NEXT();
l_SAR:
  shift<2>(r, *i, SRC2(), flags_);
  NEXT();
l_SHLC:
  shift<3>(r, *i, SRC2(), flags_);
  NEXT();
l_SHRC:
  shift<4>(r, *i, SRC2(), flags_);
  NEXT();
l_NOT:
l_NEG:
l_HSWAP : {
  const unsigned sz = i->sz, bits = kBits[sz];
  const uint32_t a = r[i->b] & kMask[sz];
  uint32_t v;
  bool o = false;
  if (i->op == OP_NOT)
    v = ~a;
  else if (i->op == OP_NEG) {
    v = (0u - a) & kMask[sz];
    o = v == kSign[sz];
  } else
    v = (a >> (bits / 2)) | (a << (bits / 2));
  v &= kMask[sz];
  flags_ = (flags_ & ~(FL_O | FL_S | FL_Z)) | (o ? FL_O : 0) | ((v & kSign[sz]) ? FL_S : 0) | (v == 0 ? FL_Z : 0);
  WRITE_SZ(i->a, v, sz);
  NEXT();
}
l_MOVS:
  WRITE_SZ(i->a, r[i->b], i->sz);
  NEXT();
l_NOP:
  NEXT();
l_CLEAR:
  WRITE_SZ(i->a, 0, i->sz);
  NEXT();
l_SETF : {
  const uint32_t v = r[i->a] & kMask[i->sz];
  flags_ = (flags_ & ~(FL_O | FL_S | FL_Z)) | ((v & kSign[i->sz]) ? FL_S : 0) | (v == 0 ? FL_Z : 0);
  NEXT();
}
l_MULU:
  r[i->a] = (r[i->b] & 0xffff) * (SRC2() & 0xffff);
  NEXT();
l_MULS : {
  const int32_t a = static_cast<int16_t>(r[i->b] & 0xffff), b = static_cast<int16_t>(SRC2() & 0xffff);
  r[i->a] = static_cast<uint32_t>(a * b);
  NEXT();
}
l_SEXT : {
  const unsigned bit = SRC2() & 0x1f;
  const uint32_t a = r[i->b];
  const uint32_t low = bit == 31 ? 0x7fffffffu : ((1u << bit) - 1);
  uint32_t v = a & low;
  if (a & (1u << bit)) v |= ~low;
  r[i->a] = v;
  FLAGS_SZ(v, 2);
  NEXT();
}
l_EXTR:
l_EXTRS : {
  const uint32_t p = SRC2();
  const unsigned low = p & 0x1f, sizem1 = (p >> 5) & 0x1f;
  const uint32_t m = sizem1 == 31 ? 0xffffffffu : ((2u << sizem1) - 1);
  uint32_t bf = (r[i->b] >> low) & m;
  bool fill = false;
  if (i->op == OP_EXTRS) fill = (r[i->b] >> ((low + sizem1) & 0x1f)) & 1;
  if (fill) bf |= ~m;
  r[i->a] = bf;
  flags_ = (flags_ & ~(FL_S | FL_Z)) | (fill ? FL_S : 0) | (bf == 0 ? FL_Z : 0);
  NEXT();
}
l_INS : {
  const uint32_t p = SRC2();
  const unsigned low = p & 0x1f, size = ((p >> 5) & 0x1f) + 1;
  if (low + size <= 32) {
    const uint32_t m = size == 32 ? 0xffffffffu : ((1u << size) - 1);
    r[i->a] = (r[i->a] & ~(m << low)) | ((r[i->b] & m) << low);
  }
  NEXT();
}
l_AND:
  logic(r, *i, r[i->b] & SRC2(), flags_);
  NEXT();
l_OR:
  logic(r, *i, r[i->b] | SRC2(), flags_);
  NEXT();
l_XOR:
  logic(r, *i, r[i->b] ^ SRC2(), flags_);
  NEXT();
l_XBIT : {
  const uint32_t v = (r[i->b] >> (SRC2() & 0x1f)) & 1;
  r[i->a] = v;
  flags_ = (flags_ & ~(FL_S | FL_Z)) | (v == 0 ? FL_Z : 0);
  NEXT();
}
l_XBITF : {
  const uint32_t v = (flags_ >> (SRC2() & 0x1f)) & 1;
  r[i->a] = v;
  flags_ = (flags_ & ~(FL_S | FL_Z)) | (v == 0 ? FL_Z : 0);
  NEXT();
}
l_DIV:
l_MOD : {
  const uint32_t a = r[i->b], b = SRC2();
  const uint32_t d = b == 0 ? 0xffffffffu : a / b;
  r[i->a] = i->op == OP_DIV ? d : a - d * b;
  NEXT();
}
l_IORD:
l_IORDS : {
  if (sync_io_ && cycles_ - c0 > i->cost) {  // act at the I/O's own time: end the burst before it
    cycles_ -= i->cost;
    goto out;
  }
  const uint32_t addr = r[i->b] + (SRC2() << 2);
  uint32_t v = 0;
  uint64_t extra = 0;
  if (!bus_ || !bus_->read(addr, 4, v, extra)) {
    if (state_ == CoreState::running) fatal("I/O read of " + hex(addr, 5) + " failed at pc " + hex(pc_, 4));
    goto out;
  }
  cycles_ += extra;
  if (HETVP_UNLIKELY(state_ != CoreState::running)) goto out;
  r[i->a] = v;
  NEXT();
}
l_IOWR:
l_IOWRS : {
  if (sync_io_ && cycles_ - c0 > i->cost) {  // act at the I/O's own time: end the burst before it
    cycles_ -= i->cost;
    goto out;
  }
  const uint32_t addr = r[i->b] + (i->imm << 2);
  uint64_t extra = 0;
  if (!bus_ || !bus_->write(addr, 4, r[i->a], extra)) {
    if (state_ == CoreState::running) fatal("I/O write of " + hex(addr, 5) + " failed at pc " + hex(pc_, 4));
    goto out;
  }
  cycles_ += extra;
  if (HETVP_UNLIKELY(state_ != CoreState::running)) {  // e.g. the owner halted the core
    pc_ = (pc_ + i->len) & 0xffff;
    ++instret_;
    goto out;
  }
  NEXT();
}
l_SETHI:
  r[i->a] = (r[i->a] & 0xffff) | (i->imm << 16);
  NEXT();
l_MOVI:
l_MOVI32:
  r[i->a] = i->imm;
  NEXT();
l_BSET:
  r[i->a] |= 1u << (SRC2() & 0x1f);
  NEXT();
l_BCLR:
  r[i->a] &= ~(1u << (SRC2() & 0x1f));
  NEXT();
l_BTGL:
  r[i->a] ^= 1u << (SRC2() & 0x1f);
  NEXT();
l_SETP : {
  const unsigned bit = SRC2() & 0x1f;
  flags_ = (flags_ & ~(1u << bit)) | ((r[i->b] & 1) << bit);
  NEXT();
}
l_BSETF:
  flags_ |= 1u << (SRC2() & 0x1f);
  NEXT();
l_BCLRF:
  flags_ &= ~(1u << (SRC2() & 0x1f));
  NEXT();
l_BTGLF:
  flags_ ^= 1u << (SRC2() & 0x1f);
  NEXT();
l_BRA : {
  const unsigned cc = i->a;
  const uint32_t f = flags_;
  const bool c = f & FL_C, o = f & FL_O, s = f & FL_S, z = f & FL_Z;
  bool t;
  switch (cc) {
    case 0x08:
      t = c;
      break;
    case 0x09:
      t = o;
      break;
    case 0x0a:
      t = s;
      break;
    case 0x0b:
      t = z;
      break;
    case 0x0c:
      t = !c && !z;
      break;
    case 0x0d:
      t = c || z;
      break;
    case 0x0e:
      t = true;
      break;
    case 0x0f:
      t = false;
      break;  // not listed in the documentation: treated as never
    case 0x18:
      t = !c;
      break;
    case 0x19:
      t = !o;
      break;
    case 0x1a:
      t = !s;
      break;
    case 0x1b:
      t = !z;
      break;
    case 0x1c:
      t = !(o ^ s) && !z;
      break;
    case 0x1d:
      t = (o ^ s) || z;
      break;
    case 0x1e:
      t = o ^ s;
      break;
    case 0x1f:
      t = !(o ^ s);
      break;
    default:
      t = cc < 8 ? ((f >> cc) & 1) : !((f >> (cc - 0x10)) & 1);
      break;
  }
  if (t) {
    pc_ = (pc_ + i->imm) & 0xffff;
    cycles_ += costs_.branch_taken - costs_.branch;
    ++instret_;
    goto dispatch;
  }
  NEXT();
}
// v5 compare-and-branch: the sized register against the immediate, equal (a = 0) or not (a = 1);
// pc-relative like bra. Whether it also sets $flags is not known: hetvp leaves them (assumption).
l_BRACMP : {
  const bool eq = (r[i->b] & kMask[i->sz]) == ((i->imm & 0xffff) & kMask[i->sz]);
  if (eq != (i->a != 0)) {
    pc_ = (pc_ + static_cast<uint32_t>(static_cast<int32_t>(i->imm) >> 16)) & 0xffff;
    cycles_ += costs_.branch_taken - costs_.branch;
    ++instret_;
    goto dispatch;
  }
  NEXT();
}
l_JMP:
l_LBRA:
  pc_ = SRC2() & 0xffff;
  ++instret_;
  goto dispatch;
l_CALL:
l_LCALL : {
  const uint32_t target = SRC2();
  if (!push32((pc_ + i->len) & 0xffff)) goto out;
  pc_ = target & 0xffff;
  ++instret_;
  goto dispatch;
}
l_RET:
l_IRET : {
  uint32_t v;
  if (!pop32(v)) goto out;
  if (i->op == OP_IRET) flags_ = (flags_ & ~(FL_IE0 | FL_IE1)) | ((flags_ >> 4) & (FL_IE0 | FL_IE1));
  pc_ = v & 0xffff;
  cycles_ += costs_.ret - 1;
  ++instret_;
  goto dispatch;
}
l_SLEEP:
  if ((flags_ >> (i->imm & 0x1f)) & 1) {
    ++instret_;  // pc stays at the sleep: re-executed after the interrupt returns
    if (!(lines_ & (flags_ >> 16) & 3)) {
      state_ = CoreState::sleeping;
      stop_reason_ = RunResult::Reason::wfi;
      goto out;
    }
    goto dispatch;
  }
  NEXT();
l_ADDSP:
  r[16] = (r[16] + SRC2()) & data_mask_ & ~3u;
  NEXT();
l_EXIT:
  ++instret_;
  state_ = CoreState::halted;
  halt_reason_ = "exit instruction at pc " + hex(pc_, 4);
  stop_reason_ = RunResult::Reason::halted;
  goto out;
l_XDWAIT:
l_XCWAIT:
l_XDFENCE:
  NEXT();  // xfers complete synchronously
l_TRAP:
  pc_ = (pc_ + i->len) & 0xffff;
  ++instret_;
  deliver_trap(TRAP_SW0 + i->imm, pc_);
  goto dispatch;
l_PUSH:
  if (!push32(r[i->a])) goto out;
  NEXT();
l_POP : {
  uint32_t v;
  if (!pop32(v)) goto out;
  r[i->a] = v;
  NEXT();
}
l_MOVTSR:
  if (i->a == SR_SP)
    r[16] = r[i->b] & data_mask_ & ~3u;
  else
    write_sr(i->a, r[i->b]);
  NEXT();
l_MOVFSR:
  r[i->a] = i->b == SR_SP ? r[16] : read_sr(i->b);
  NEXT();
l_ITLB:
  itlb(r[i->b]);
  pc_ = (pc_ + i->len) & 0xffff;
  ++instret_;
  goto dispatch;  // the decode cache was dropped
l_PTLB:
  r[i->a] = ptlb(r[i->b]);
  NEXT();
l_VTLB:
  r[i->a] = vtlb(r[i->b]);
  NEXT();
l_XCLD:
l_XDLD:
l_XDST : {
  XferRequest q;
  const uint32_t s2v = r[i->c];
  q.ext_offset = r[i->b];
  q.local = s2v & 0xffff;
  if (i->op == OP_XCLD) {
    q.mode = XferRequest::Mode::code_load;
    q.port = xtargets_ & 7;
    q.ext_base = xcbase_;
    q.bytes = 0x100;
  } else {
    q.mode = i->op == OP_XDLD ? XferRequest::Mode::data_load : XferRequest::Mode::data_store;
    q.port = i->op == OP_XDLD ? (xtargets_ >> 8) & 7 : (xtargets_ >> 12) & 7;
    q.ext_base = xdbase_;
    const unsigned size = (s2v >> 16) & 7;
    if (size > 6) {
      fatal("xfer size code 7 (reserved) at pc " + hex(pc_, 4));
      goto out;
    }
    q.bytes = 4u << size;
  }
  std::string err;
  if (!xfer_) {
    fatal(std::string(op_mnemonic(i->op)) + " at pc " + hex(pc_, 4) + ": no xfer port connected");
    goto out;
  }
  if (!xfer_->xfer(q, err)) {
    fatal(std::string(op_mnemonic(i->op)) + " at pc " + hex(pc_, 4) + ": " + err);
    goto out;
  }
  if (i->op == OP_XCLD) {
    const unsigned phys = q.local >> 8;
    if (phys < tlb_.size()) tlb_[phys] = Tlb{(q.ext_offset >> 8) & 0xffff, 1};
    rebuild_vmap();
    pc_ = (pc_ + i->len) & 0xffff;
    ++instret_;
    goto dispatch;
  }
  NEXT();
}

out:
  (void)s2;
#undef SRC2
#undef NEXT
#undef FLAGS_SZ
#undef WRITE_SZ
  res.cycles = cycles_ - c0;
  res.instructions = instret_ - i0;
  res.reason = stop_reason_;
  if (state_ == CoreState::halted) res.reason = RunResult::Reason::halted;
  if (state_ == CoreState::fatal) res.reason = RunResult::Reason::trapped_fatal;
  return res;
}

}  // namespace hetvp::mcu::falcon
