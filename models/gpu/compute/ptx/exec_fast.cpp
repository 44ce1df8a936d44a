// Specialised handlers for the executor's most frequent arithmetic (issue #40's speed: a kernel's
// loop body is a few integer adds, multiplies, compares and moves). fast_handler() picks, once per
// instruction when a block's state is built, a function for the instruction's exact operation, type
// and operand kinds (register or immediate), so executing it is one indirect call and a lane loop:
// no decoding, no switch on the type per lane, no operand materialisation. Every handler computes
// bit for bit what the general path (exec_alu.cpp) computes; anything else (special registers,
// symbols, negated predicates, .sat/.ftz/rounding modifiers, vectors …) keeps the general path.
#include <cmath>
#include <type_traits>

#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx::detail {

namespace {

// Operand access: a register's 32 lane values, or an immediate for every lane.
struct R {
  const uint64_t* p;
  R(const Operand& o, const WarpCtx& W) : p(W.regs + size_t(o.reg) * kWarpLanes) {}
  uint64_t operator[](unsigned l) const { return p[l]; }
};
struct I {
  uint64_t v;
  I(const Operand& o, const WarpCtx&) : v(uint64_t(o.imm)) {}
  uint64_t operator[](unsigned) const { return v; }
};

// Writes F(lane) to d for the lanes in `mask`. Registers are 32-lane blocks, so d and a source are
// the same block or disjoint: lane l reads only index l before writing it, and the whole-warp loop
// has no dependence between lanes (ivdep lets the compiler vectorise it without an overlap check).
template <class F>
[[gnu::always_inline]] inline void lanes_to(uint64_t* d, uint32_t mask, F f) {
  if (mask == 0xffffffffu) {
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpLanes; ++l) d[l] = f(l);
  } else {
    for (uint32_t r = mask; r; r &= r - 1) {
      const unsigned l = unsigned(__builtin_ctz(r));
      d[l] = f(l);
    }
  }
}

inline uint64_t* dst_of(const Instr& in, WarpCtx& W) { return W.regs + size_t(in.d.reg) * kWarpLanes; }

template <class Op, class A>
void un(BlockState&, const Instr& in, WarpCtx& W, uint32_t mask) {
  const A a(in.a, W);
  lanes_to(dst_of(in, W), mask, [&](unsigned l) { return Op::f(a[l]); });
}
template <class Op, class A, class B>
void bin(BlockState&, const Instr& in, WarpCtx& W, uint32_t mask) {
  const A a(in.a, W);
  const B b(in.b, W);
  lanes_to(dst_of(in, W), mask, [&](unsigned l) { return Op::f(a[l], b[l]); });
}
template <class Op, class A, class B, class C>
void tern(BlockState&, const Instr& in, WarpCtx& W, uint32_t mask) {
  const A a(in.a, W);
  const B b(in.b, W);
  const C c(in.c, W);
  lanes_to(dst_of(in, W), mask, [&](unsigned l) { return Op::f(a[l], b[l], c[l]); });
}
// setp without a boolean combination: d = the comparison (0/1), d2 (if any) its negation.
template <class Op, class A, class B>
void setp(BlockState&, const Instr& in, WarpCtx& W, uint32_t mask) {
  const A a(in.a, W);
  const B b(in.b, W);
  if (in.d2.kind != Operand::Reg) {
    lanes_to(dst_of(in, W), mask, [&](unsigned l) { return Op::f(a[l], b[l]); });
    return;
  }
  // Both outputs from the comparisons made before either is written, d first (the general path's order).
  uint64_t t[kWarpLanes];
  for (uint32_t r = mask; r; r &= r - 1) t[__builtin_ctz(r)] = Op::f(a[__builtin_ctz(r)], b[__builtin_ctz(r)]);
  lanes_to(dst_of(in, W), mask, [&](unsigned l) { return t[l]; });
  lanes_to(W.regs + size_t(in.d2.reg) * kWarpLanes, mask, [&](unsigned l) { return t[l] ^ 1; });
}

// ---- operations: the 64-bit slot value the general path writes (results zero-extended)
inline float f32(uint64_t v) {
  const uint32_t u = uint32_t(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline double f64(uint64_t v) {
  double f;
  std::memcpy(&f, &v, 8);
  return f;
}
inline uint64_t bits(double f) {
  uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}

struct Mov { static uint64_t f(uint64_t a) { return a; } };
struct MovPred { static uint64_t f(uint64_t a) { return a != 0; } };
struct Add32 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(a + b); } };
struct Sub32 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(a - b); } };
struct Add64 { static uint64_t f(uint64_t a, uint64_t b) { return a + b; } };
struct Sub64 { static uint64_t f(uint64_t a, uint64_t b) { return a - b; } };
struct MulLo32 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(uint32_t(a) * uint32_t(b)); } };
struct MulLo64 { static uint64_t f(uint64_t a, uint64_t b) { return a * b; } };
struct MulWideU32 { static uint64_t f(uint64_t a, uint64_t b) { return uint64_t(uint32_t(a)) * uint32_t(b); } };
struct MulWideS32 {
  static uint64_t f(uint64_t a, uint64_t b) { return uint64_t(int64_t(int32_t(uint32_t(a))) * int32_t(uint32_t(b))); }
};
struct MadLo32 {
  static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return uint32_t(uint32_t(a) * uint32_t(b) + uint32_t(c)); }
};
struct MadLo64 { static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return a * b + c; } };
struct MadWideU32 { static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return MulWideU32::f(a, b) + c; } };
struct MadWideS32 { static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return MulWideS32::f(a, b) + c; } };
template <uint64_t W>
struct And { static uint64_t f(uint64_t a, uint64_t b) { return (a & b) & W; } };
template <uint64_t W>
struct Or { static uint64_t f(uint64_t a, uint64_t b) { return (a | b) & W; } };
template <uint64_t W>
struct Xor { static uint64_t f(uint64_t a, uint64_t b) { return (a ^ b) & W; } };
struct Shl32 {
  static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(b) >= 32 ? 0 : uint32_t(uint32_t(a) << uint32_t(b)); }
};
struct Shl64 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(b) >= 64 ? 0 : a << uint32_t(b); } };
struct ShrU32 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(b) >= 32 ? 0 : uint32_t(a) >> uint32_t(b); } };
struct ShrU64 { static uint64_t f(uint64_t a, uint64_t b) { return uint32_t(b) >= 64 ? 0 : a >> uint32_t(b); } };
struct ShrS32 {
  static uint64_t f(uint64_t a, uint64_t b) {
    return uint32_t(int32_t(uint32_t(a)) >> std::min<uint32_t>(uint32_t(b), 31));
  }
};
struct ShrS64 {
  static uint64_t f(uint64_t a, uint64_t b) { return uint64_t(int64_t(a) >> std::min<uint32_t>(uint32_t(b), 63)); }
};
struct AddF32 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f32(a) + f32(b)); } };
struct SubF32 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f32(a) - f32(b)); } };
struct MulF32 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f32(a) * f32(b)); } };
struct FmaF32 { static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return bits(std::fma(f32(a), f32(b), f32(c))); } };
struct AddF64 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f64(a) + f64(b)); } };
struct SubF64 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f64(a) - f64(b)); } };
struct MulF64 { static uint64_t f(uint64_t a, uint64_t b) { return bits(f64(a) * f64(b)); } };
struct FmaF64 { static uint64_t f(uint64_t a, uint64_t b, uint64_t c) { return bits(std::fma(f64(a), f64(b), f64(c))); } };

// Integer comparisons of type T (exec_alu.cpp's compare(): signed types compare signed, lo/ls/hi/hs
// unsigned).
template <class T, Cmp C>
struct CmpInt {
  static uint64_t f(uint64_t x, uint64_t y) {
    using U = std::make_unsigned_t<T>;
    const T a = T(U(x)), b = T(U(y));
    switch (C) {
      case Cmp::Eq: return a == b;
      case Cmp::Ne: return a != b;
      case Cmp::Lt: return a < b;
      case Cmp::Le: return a <= b;
      case Cmp::Gt: return a > b;
      case Cmp::Ge: return a >= b;
      case Cmp::Lo: return U(a) < U(b);
      case Cmp::Ls: return U(a) <= U(b);
      case Cmp::Hi: return U(a) > U(b);
      case Cmp::Hs: return U(a) >= U(b);
      default: return 0;
    }
  }
};
// Float comparisons (ordered ones false on NaN, the u-forms true).
template <class T, Cmp C>
struct CmpFloat {
  static uint64_t f(uint64_t x, uint64_t y) {
    T a, b;
    if constexpr (std::is_same_v<T, float>) a = f32(x), b = f32(y);
    else a = f64(x), b = f64(y);
    const bool un = std::isnan(a) || std::isnan(b);
    switch (C) {
      case Cmp::Eq: return !un && a == b;
      case Cmp::Ne: return !un && a != b;
      case Cmp::Lt: return !un && a < b;
      case Cmp::Le: return !un && a <= b;
      case Cmp::Gt: return !un && a > b;
      case Cmp::Ge: return !un && a >= b;
      case Cmp::Equ: return un || a == b;
      case Cmp::Neu: return un || a != b;
      case Cmp::Ltu: return un || a < b;
      case Cmp::Leu: return un || a <= b;
      case Cmp::Gtu: return un || a > b;
      case Cmp::Geu: return un || a >= b;
      case Cmp::Num: return !un;
      case Cmp::Nan: return un;
      default: return 0;
    }
  }
};

// ---- selection by operand kinds
bool is_reg(const Operand& o) { return o.kind == Operand::Reg && !o.neg; }
bool is_imm(const Operand& o) { return o.kind == Operand::Imm; }
bool plain(const Operand& o) { return is_reg(o) || is_imm(o); }

template <class Op>
FastFn pick_un(const Instr& in) {
  return is_reg(in.a) ? &un<Op, R> : &un<Op, I>;
}
template <class Op>
FastFn pick_bin(const Instr& in) {
  if (is_reg(in.a)) return is_reg(in.b) ? &bin<Op, R, R> : &bin<Op, R, I>;
  return is_reg(in.b) ? &bin<Op, I, R> : &bin<Op, I, I>;
}
template <class Op>
FastFn pick_setp(const Instr& in) {
  if (is_reg(in.a)) return is_reg(in.b) ? &setp<Op, R, R> : &setp<Op, R, I>;
  return is_reg(in.b) ? &setp<Op, I, R> : &setp<Op, I, I>;
}
template <class Op, class A, class B>
FastFn pick_tern_c(const Instr& in) {
  return is_reg(in.c) ? &tern<Op, A, B, R> : &tern<Op, A, B, I>;
}
template <class Op, class A>
FastFn pick_tern_b(const Instr& in) {
  return is_reg(in.b) ? pick_tern_c<Op, A, R>(in) : pick_tern_c<Op, A, I>(in);
}
template <class Op>
FastFn pick_tern(const Instr& in) {
  return is_reg(in.a) ? pick_tern_b<Op, R>(in) : pick_tern_b<Op, I>(in);
}

enum class Width { W32, W64, Other };
Width width(Ty t) {
  switch (t) {
    case Ty::U32: case Ty::S32: case Ty::B32: return Width::W32;
    case Ty::U64: case Ty::S64: case Ty::B64: return Width::W64;
    default: return Width::Other;
  }
}

template <class T>
FastFn pick_cmp_int(const Instr& in) {
  switch (in.cmp) {
    case Cmp::Eq: return pick_setp<CmpInt<T, Cmp::Eq>>(in);
    case Cmp::Ne: return pick_setp<CmpInt<T, Cmp::Ne>>(in);
    case Cmp::Lt: return pick_setp<CmpInt<T, Cmp::Lt>>(in);
    case Cmp::Le: return pick_setp<CmpInt<T, Cmp::Le>>(in);
    case Cmp::Gt: return pick_setp<CmpInt<T, Cmp::Gt>>(in);
    case Cmp::Ge: return pick_setp<CmpInt<T, Cmp::Ge>>(in);
    case Cmp::Lo: return pick_setp<CmpInt<T, Cmp::Lo>>(in);
    case Cmp::Ls: return pick_setp<CmpInt<T, Cmp::Ls>>(in);
    case Cmp::Hi: return pick_setp<CmpInt<T, Cmp::Hi>>(in);
    case Cmp::Hs: return pick_setp<CmpInt<T, Cmp::Hs>>(in);
    default: return nullptr;
  }
}
template <class T>
FastFn pick_cmp_float(const Instr& in) {
  switch (in.cmp) {
    case Cmp::Eq: return pick_setp<CmpFloat<T, Cmp::Eq>>(in);
    case Cmp::Ne: return pick_setp<CmpFloat<T, Cmp::Ne>>(in);
    case Cmp::Lt: return pick_setp<CmpFloat<T, Cmp::Lt>>(in);
    case Cmp::Le: return pick_setp<CmpFloat<T, Cmp::Le>>(in);
    case Cmp::Gt: return pick_setp<CmpFloat<T, Cmp::Gt>>(in);
    case Cmp::Ge: return pick_setp<CmpFloat<T, Cmp::Ge>>(in);
    case Cmp::Equ: return pick_setp<CmpFloat<T, Cmp::Equ>>(in);
    case Cmp::Neu: return pick_setp<CmpFloat<T, Cmp::Neu>>(in);
    case Cmp::Ltu: return pick_setp<CmpFloat<T, Cmp::Ltu>>(in);
    case Cmp::Leu: return pick_setp<CmpFloat<T, Cmp::Leu>>(in);
    case Cmp::Gtu: return pick_setp<CmpFloat<T, Cmp::Gtu>>(in);
    case Cmp::Geu: return pick_setp<CmpFloat<T, Cmp::Geu>>(in);
    case Cmp::Num: return pick_setp<CmpFloat<T, Cmp::Num>>(in);
    case Cmp::Nan: return pick_setp<CmpFloat<T, Cmp::Nan>>(in);
    default: return nullptr;
  }
}

FastFn pick_setp_any(const Instr& in) {
  if (in.boolop != BoolOp::None || in.ftz) return nullptr;
  if (in.d2.kind != Operand::None && !is_reg(in.d2)) return nullptr;
  switch (in.type2) {
    case Ty::U32: case Ty::B32: return pick_cmp_int<uint32_t>(in);
    case Ty::S32: return pick_cmp_int<int32_t>(in);
    case Ty::U64: case Ty::B64: return pick_cmp_int<uint64_t>(in);
    case Ty::S64: return pick_cmp_int<int64_t>(in);
    case Ty::F32: return pick_cmp_float<float>(in);
    case Ty::F64: return pick_cmp_float<double>(in);
    default: return nullptr;
  }
}

// f32/f64 arithmetic the general path computes without a rounding-mode change or a flush.
bool plain_float(const Instr& in) { return !in.ftz && !in.sat && !in.approx && (in.rnd == Rnd::None || in.rnd == Rnd::Rn); }

}  // namespace

FastFn fast_handler(const Instr& in) {
  if (in.d.kind != Operand::Reg || !plain(in.a)) return nullptr;
  const bool two = in.b.kind != Operand::None, three = in.c.kind != Operand::None;
  if ((two && !plain(in.b)) || (three && !plain(in.c))) return nullptr;
  const Width w = width(in.type);
  switch (in.op) {
    case Op::Mov:
      if (two || in.d2.kind != Operand::None) return nullptr;
      return in.type == Ty::Pred ? pick_un<MovPred>(in) : pick_un<Mov>(in);
    case Op::Add: case Op::Sub: {
      if (!two || three) return nullptr;
      const bool sub = in.op == Op::Sub;
      if (in.type == Ty::F32) return plain_float(in) ? (sub ? pick_bin<SubF32>(in) : pick_bin<AddF32>(in)) : nullptr;
      if (in.type == Ty::F64) return plain_float(in) ? (sub ? pick_bin<SubF64>(in) : pick_bin<AddF64>(in)) : nullptr;
      if (in.sat) return nullptr;
      if (w == Width::W32) return sub ? pick_bin<Sub32>(in) : pick_bin<Add32>(in);
      if (w == Width::W64) return sub ? pick_bin<Sub64>(in) : pick_bin<Add64>(in);
      return nullptr;
    }
    case Op::Mul: case Op::Mad: {
      const bool mad = in.op == Op::Mad;
      if (!two || three != mad) return nullptr;
      if (in.type == Ty::F32)
        return plain_float(in) ? (mad ? pick_tern<FmaF32>(in) : pick_bin<MulF32>(in)) : nullptr;
      if (in.type == Ty::F64)
        return plain_float(in) ? (mad ? pick_tern<FmaF64>(in) : pick_bin<MulF64>(in)) : nullptr;
      const MulMode mm = MulMode(in.mode);
      const bool sgn = ty_signed(in.type);
      if (mm == MulMode::Lo && w == Width::W32) return mad ? pick_tern<MadLo32>(in) : pick_bin<MulLo32>(in);
      if (mm == MulMode::Lo && w == Width::W64) return mad ? pick_tern<MadLo64>(in) : pick_bin<MulLo64>(in);
      if (mm == MulMode::Wide && w == Width::W32) {
        if (sgn) return mad ? pick_tern<MadWideS32>(in) : pick_bin<MulWideS32>(in);
        return mad ? pick_tern<MadWideU32>(in) : pick_bin<MulWideU32>(in);
      }
      return nullptr;
    }
    case Op::Fma:
      if (!three || !plain_float(in)) return nullptr;
      if (in.type == Ty::F32) return pick_tern<FmaF32>(in);
      if (in.type == Ty::F64) return pick_tern<FmaF64>(in);
      return nullptr;
    case Op::And: case Op::Or: case Op::Xor: {
      if (!two || three) return nullptr;
      // exec_alu.cpp's width mask: b16 0xffff, b32 0xffffffff, pred 1, anything else all bits
#define HETVP_PICK_LOGIC(M)                                              \
  return in.op == Op::And ? pick_bin<And<M>>(in) : in.op == Op::Or ? pick_bin<Or<M>>(in) : pick_bin<Xor<M>>(in)
      switch (in.type) {
        case Ty::B16: HETVP_PICK_LOGIC(0xffffu);
        case Ty::B32: HETVP_PICK_LOGIC(0xffffffffu);
        case Ty::Pred: HETVP_PICK_LOGIC(1u);
        default: HETVP_PICK_LOGIC(~uint64_t(0));
      }
#undef HETVP_PICK_LOGIC
    }
    case Op::Shl: case Op::Shr: {
      if (!two || three) return nullptr;
      if (in.op == Op::Shl) {
        if (w == Width::W32) return pick_bin<Shl32>(in);
        if (w == Width::W64) return pick_bin<Shl64>(in);
        return nullptr;
      }
      const bool sgn = ty_signed(in.type);
      if (w == Width::W32) return sgn ? pick_bin<ShrS32>(in) : pick_bin<ShrU32>(in);
      if (w == Width::W64) return sgn ? pick_bin<ShrS64>(in) : pick_bin<ShrU64>(in);
      return nullptr;
    }
    case Op::Setp:
      if (!two || three) return nullptr;
      return pick_setp_any(in);
    default:
      return nullptr;
  }
}

}  // namespace hetvp::gpu::ptx::detail
