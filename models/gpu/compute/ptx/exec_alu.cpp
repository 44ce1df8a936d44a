// The executor's arithmetic: integer, f32/f64, comparisons, selects, moves, conversions, cvta,
// warp shuffles and votes. Values live in 64-bit register slots (floats as their bit patterns);
// an instruction reads its operands' low bytes as its type and writes its result zero-extended.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>
#include <type_traits>

#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx::detail {

namespace {

template <class T>
inline T get(uint64_t v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u = uint32_t(v);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double f;
    std::memcpy(&f, &v, 8);
    return f;
  } else {
    return T(std::make_unsigned_t<T>(v));
  }
}
template <class T>
inline uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else {
    return uint64_t(std::make_unsigned_t<T>(v));
  }
}

// Rounding modes other than to-nearest for one instruction.
class RoundGuard {
 public:
  explicit RoundGuard(Rnd r) {
    int mode = r == Rnd::Rz ? FE_TOWARDZERO : r == Rnd::Rm ? FE_DOWNWARD : r == Rnd::Rp ? FE_UPWARD : -1;
    if (mode >= 0) old_ = std::fegetround(), std::fesetround(mode);
  }
  ~RoundGuard() {
    if (old_ >= 0) std::fesetround(old_);
  }

 private:
  int old_ = -1;
};

inline float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.f, x) : x; }
inline float sat01(float x) { return std::isnan(x) ? 0.f : x < 0 ? 0.f : x > 1 ? 1.f : x; }
inline double sat01(double x) { return std::isnan(x) ? 0. : x < 0 ? 0. : x > 1 ? 1. : x; }

template <class T>
using Unsigned = std::conditional_t<sizeof(T) == 16, unsigned __int128, std::make_unsigned_t<std::conditional_t<sizeof(T) == 16, int, T>>>;

template <class T>
using Wide = std::conditional_t<sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
                                std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>,
                                                   std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>>;

template <class T>
bool compare(Cmp c, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool un = std::isnan(a) || std::isnan(b);
    switch (c) {
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
      default: return false;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (c) {
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
      default: return false;
    }
  }
}

struct Ops {
  BlockState& s;
  const Instr& in;
  WarpCtx& W;
  uint32_t mask;
  // Operand buffers, filled before they are read (not zeroed: 1 KiB per instruction).
  uint64_t ta[kWarpLanes], tb[kWarpLanes], tc[kWarpLanes], te[kWarpLanes];

  Ops(BlockState& s_, const Instr& in_, WarpCtx& W_, uint32_t mask_) : s(s_), in(in_), W(W_), mask(mask_) {}

  const uint64_t* A() { return s.src(in.a, W, ta); }
  const uint64_t* B() { return s.src(in.b, W, tb); }
  const uint64_t* C() { return s.src(in.c, W, tc); }
  uint64_t* D() { return s.dst(in.d, W); }

  template <class T, class F>
  void un(F f) {
    const uint64_t* a = A();
    uint64_t* d = D();
    HETVP_PTX_LANES(mask, d[l] = put(f(get<T>(a[l]))));
  }
  template <class T, class F>
  void bin(F f) {
    const uint64_t* a = A();
    const uint64_t* b = B();
    uint64_t* d = D();
    HETVP_PTX_LANES(mask, d[l] = put(f(get<T>(a[l]), get<T>(b[l]))));
  }
  template <class T, class F>
  void tern(F f) {
    const uint64_t* a = A();
    const uint64_t* b = B();
    const uint64_t* c = C();
    uint64_t* d = D();
    HETVP_PTX_LANES(mask, d[l] = put(f(get<T>(a[l]), get<T>(b[l]), get<T>(c[l]))));
  }

  // f32 with .ftz / .sat applied to inputs and result
  template <class F>
  void f32(unsigned nsrc, F f) {
    RoundGuard g(in.rnd);
    const bool z = in.ftz, sat = in.sat;
    auto post = [z, sat](float r) { return sat ? sat01(z ? ftz(r) : r) : z ? ftz(r) : r; };
    if (!z && !sat) {
      if (nsrc == 1) un<float>([&](float a) { return f(a, 0.f, 0.f); });
      else if (nsrc == 2) bin<float>([&](float a, float b) { return f(a, b, 0.f); });
      else tern<float>(f);
      return;
    }
    if (nsrc == 1) un<float>([&](float a) { return post(f(ftz(a), 0.f, 0.f)); });
    else if (nsrc == 2) bin<float>([&](float a, float b) { return post(f(ftz(a), ftz(b), 0.f)); });
    else tern<float>([&](float a, float b, float c) { return post(f(ftz(a), ftz(b), ftz(c))); });
  }
  template <class F>
  void f64(unsigned nsrc, F f) {
    RoundGuard g(in.rnd);
    if (nsrc == 1) un<double>([&](double a) { return in.sat ? sat01(f(a, 0., 0.)) : f(a, 0., 0.); });
    else if (nsrc == 2) bin<double>([&](double a, double b) { return in.sat ? sat01(f(a, b, 0.)) : f(a, b, 0.); });
    else tern<double>([&](double a, double b, double c) { return in.sat ? sat01(f(a, b, c)) : f(a, b, c); });
  }
};

#define HETVP_PTX_INTS(TY, X)                         \
  switch (TY) {                                       \
    case Ty::U16: case Ty::B16: X(uint16_t); break;   \
    case Ty::S16: X(int16_t); break;                  \
    case Ty::U32: case Ty::B32: X(uint32_t); break;   \
    case Ty::S32: X(int32_t); break;                  \
    case Ty::U64: case Ty::B64: X(uint64_t); break;   \
    case Ty::S64: X(int64_t); break;                  \
    default: break;                                   \
  }

template <unsigned bits>
constexpr uint64_t wide_mask() {
  if constexpr (bits >= 32) return ~uint64_t(0);
  else return (uint64_t(1) << (2 * bits)) - 1;
}

template <class T>
T brev(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i) r |= T((v >> i) & 1) << (sizeof(T) * 8 - 1 - i);
  return r;
}

template <class T>
T bfe(T a, uint32_t pos, uint32_t len) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned bits = sizeof(T) * 8;
  pos &= 0xff, len &= 0xff;
  if (len == 0) return 0;
  unsigned el = pos >= bits ? 0 : std::min<unsigned>(len, bits - pos);
  U x = pos >= bits ? 0 : U(U(a) >> pos);
  if (el < bits) x &= U((U(1) << el) - 1);
  if constexpr (std::is_signed_v<T>) {
    unsigned sb = std::min<unsigned>(pos + len - 1, bits - 1);
    if ((U(a) >> sb) & 1 && el < bits) x |= U(~((U(1) << el) - 1));
  }
  return T(x);
}

template <class T>
T bfi(T a, T b, uint32_t pos, uint32_t len) {
  constexpr unsigned bits = sizeof(T) * 8;
  pos &= 0xff, len &= 0xff;
  if (len == 0 || pos >= bits) return b;
  T m = len >= bits ? T(~T(0)) : T((T(1) << len) - 1);
  m = T(m << pos);
  return T((b & ~m) | (T(a << pos) & m));
}

}  // namespace

void BlockState::alu(const Instr& in, WarpCtx& W, uint32_t mask) {
  Ops o(*this, in, W, mask);
  const Ty t = in.type;
  switch (in.op) {
    case Op::Mov: {
      uint64_t* d = o.D();
      if (in.a.kind == Operand::Vec) {  // pack {lo, hi}
        unsigned n = unsigned(in.a.imm), eb = ty_bytes(t) * 8 / n;
        uint64_t em = eb == 64 ? ~uint64_t(0) : (uint64_t(1) << eb) - 1;
        HETVP_PTX_LANES(mask, {
          uint64_t v = 0;
          for (unsigned i = 0; i < n; ++i) v |= (W.regs[size_t(m.vec_regs[in.a.reg + i]) * kWarpLanes + l] & em) << (i * eb);
          o.te[l] = v;
        });
        HETVP_PTX_LANES(mask, d[l] = o.te[l]);
      } else if (in.d.kind == Operand::Vec) {  // unpack
        unsigned n = unsigned(in.d.imm), eb = ty_bytes(t) * 8 / n;
        uint64_t em = eb == 64 ? ~uint64_t(0) : (uint64_t(1) << eb) - 1;
        const uint64_t* a = o.A();
        HETVP_PTX_LANES(mask, o.te[l] = a[l]);
        for (unsigned i = 0; i < n; ++i) {
          uint64_t* di = W.regs + size_t(m.vec_regs[in.d.reg + i]) * kWarpLanes;
          HETVP_PTX_LANES(mask, di[l] = (o.te[l] >> (i * eb)) & em);
        }
      } else {
        const uint64_t* a = o.A();
        if (t == Ty::Pred) HETVP_PTX_LANES(mask, d[l] = a[l] != 0);
        else HETVP_PTX_LANES(mask, d[l] = a[l]);
      }
      return;
    }
    case Op::Add: case Op::Sub: {
      const bool sub = in.op == Op::Sub;
      if (t == Ty::F32) return o.f32(2, [sub](float a, float b, float) { return sub ? a - b : a + b; });
      if (t == Ty::F64) return o.f64(2, [sub](double a, double b, double) { return sub ? a - b : a + b; });
      if (in.sat && t == Ty::S32)
        return o.bin<int32_t>([sub](int32_t a, int32_t b) {
          int64_t r = sub ? int64_t(a) - b : int64_t(a) + b;
          return int32_t(std::clamp<int64_t>(r, INT32_MIN, INT32_MAX));
        });
#define X(T) o.bin<std::make_unsigned_t<T>>([sub](auto a, auto b) { return decltype(a)(sub ? a - b : a + b); })
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Mul: case Op::Mad: {
      const bool mad = in.op == Op::Mad;
      if (t == Ty::F32) return o.f32(mad ? 3 : 2, [mad](float a, float b, float c) { return mad ? std::fma(a, b, c) : a * b; });
      if (t == Ty::F64) return o.f64(mad ? 3 : 2, [mad](double a, double b, double c) { return mad ? std::fma(a, b, c) : a * b; });
      const MulMode mm = MulMode(in.mode);
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = mad ? o.C() : o.tc;
      if (!mad) std::fill(o.tc, o.tc + kWarpLanes, 0);
      uint64_t* d = o.D();
#define X(T)                                                                                        \
  {                                                                                                 \
    constexpr unsigned bits = sizeof(T) * 8;                                                        \
    using W2 = Wide<T>;                                                                             \
    HETVP_PTX_LANES(mask, {                                                                         \
      W2 p = W2(get<T>(a[l])) * W2(get<T>(b[l]));                                                  \
      if (mm == MulMode::Lo) d[l] = put(T(std::make_unsigned_t<T>(p) + std::make_unsigned_t<T>(c[l]))); \
      else if (mm == MulMode::Hi) d[l] = put(T(std::make_unsigned_t<T>(p >> bits) + std::make_unsigned_t<T>(c[l]))); \
      else d[l] = uint64_t(Unsigned<W2>(p) + c[l]) & wide_mask<bits>(); \
    });                                                                                             \
  }
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Mul24: case Op::Mad24: {
      const bool sgn = t == Ty::S32, hi = MulMode(in.mode) == MulMode::Hi, mad = in.op == Op::Mad24;
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = mad ? o.C() : nullptr;
      uint64_t* d = o.D();
      HETVP_PTX_LANES(mask, {
        int64_t x = sgn ? int64_t(int32_t(uint32_t(a[l]) << 8) >> 8) : int64_t(a[l] & 0xffffff);
        int64_t y = sgn ? int64_t(int32_t(uint32_t(b[l]) << 8) >> 8) : int64_t(b[l] & 0xffffff);
        uint64_t p = uint64_t(x * y);
        uint32_t r = hi ? uint32_t(p >> 16) : uint32_t(p);
        d[l] = uint32_t(r + (mad ? uint32_t(c[l]) : 0));
      });
      return;
    }
    case Op::Div: case Op::Rem: {
      const bool rem = in.op == Op::Rem;
      if (t == Ty::F32) {
        if (in.approx) return o.f32(2, [](float a, float b, float) { return a * (1.0f / b); });
        return o.f32(2, [](float a, float b, float) { return a / b; });
      }
      if (t == Ty::F64) return o.f64(2, [](double a, double b, double) { return a / b; });
      // Division by zero gives all ones (the remainder: the dividend); MIN / -1 wraps.
#define X(T)                                                                          \
  o.bin<T>([rem](T a, T b) -> T {                                                     \
    if (b == 0) return rem ? a : T(~T(0));                                            \
    if constexpr (std::is_signed_v<T>)                                                \
      if (b == T(-1)) return rem ? T(0) : T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a)); \
    return rem ? T(a % b) : T(a / b);                                                 \
  })
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Abs: case Op::Neg: {
      const bool neg = in.op == Op::Neg;
      if (t == Ty::F32) {
        const uint64_t* a = o.A();
        uint64_t* d = o.D();
        HETVP_PTX_LANES(mask, {
          uint32_t v = uint32_t(a[l]);
          v = neg ? v ^ 0x80000000u : v & 0x7fffffffu;
          d[l] = in.ftz ? put(ftz(get<float>(v))) : v;
        });
        return;
      }
      if (t == Ty::F64) {
        const uint64_t* a = o.A();
        uint64_t* d = o.D();
        HETVP_PTX_LANES(mask, d[l] = neg ? a[l] ^ (uint64_t(1) << 63) : a[l] & ~(uint64_t(1) << 63));
        return;
      }
#define X(T)                                                                                  \
  o.un<T>([neg](T a) {                                                                        \
    using U = std::make_unsigned_t<T>;                                                        \
    bool minus = neg;                                                                         \
    minus = minus || (std::is_signed_v<T> && (U(a) >> (sizeof(T) * 8 - 1)));                \
    return T(minus ? U(U(0) - U(a)) : U(a));                                                  \
  })
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Min: case Op::Max: {
      const bool mx = in.op == Op::Max;
      if (t == Ty::F32) return o.f32(2, [mx](float a, float b, float) { return mx ? std::fmax(a, b) : std::fmin(a, b); });
      if (t == Ty::F64) return o.f64(2, [mx](double a, double b, double) { return mx ? std::fmax(a, b) : std::fmin(a, b); });
#define X(T) o.bin<T>([mx](T a, T b) { return mx ? std::max(a, b) : std::min(a, b); })
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::And: case Op::Or: case Op::Xor: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      uint64_t* d = o.D();
      const uint64_t w = t == Ty::B16 ? 0xffff : t == Ty::B32 ? 0xffffffffu : t == Ty::Pred ? 1 : ~uint64_t(0);
      if (in.op == Op::And) HETVP_PTX_LANES(mask, d[l] = (a[l] & b[l]) & w);
      else if (in.op == Op::Or) HETVP_PTX_LANES(mask, d[l] = (a[l] | b[l]) & w);
      else HETVP_PTX_LANES(mask, d[l] = (a[l] ^ b[l]) & w);
      return;
    }
    case Op::Not: case Op::Cnot: {
      const uint64_t* a = o.A();
      uint64_t* d = o.D();
      const uint64_t w = t == Ty::B16 ? 0xffff : t == Ty::B32 ? 0xffffffffu : t == Ty::Pred ? 1 : ~uint64_t(0);
      if (in.op == Op::Cnot) HETVP_PTX_LANES(mask, d[l] = (a[l] & w) == 0);
      else HETVP_PTX_LANES(mask, d[l] = ~a[l] & w);
      return;
    }
    case Op::Shl: case Op::Shr: {
      const bool left = in.op == Op::Shl;
#define X(T)                                                                             \
  {                                                                                      \
    using U = std::make_unsigned_t<T>;                                                   \
    constexpr unsigned bits = sizeof(T) * 8;                                             \
    const uint64_t* a = o.A();                                                           \
    const uint64_t* b = o.B();                                                           \
    uint64_t* d = o.D();                                                                 \
    HETVP_PTX_LANES(mask, {                                                              \
      uint32_t n = uint32_t(b[l]);                                                       \
      T v = get<T>(a[l]);                                                                \
      T r;                                                                               \
      if (left) r = n >= bits ? T(0) : T(U(v) << n);                                     \
      else if (std::is_signed_v<T>) r = T(v >> std::min<uint32_t>(n, bits - 1));         \
      else r = n >= bits ? T(0) : T(U(v) >> n);                                          \
      d[l] = put(r);                                                                     \
    });                                                                                  \
  }
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Bfe: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = o.C();
      uint64_t* d = o.D();
#define X(T) HETVP_PTX_LANES(mask, d[l] = put(bfe<T>(get<T>(a[l]), uint32_t(b[l]), uint32_t(c[l]))))
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Bfi: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = o.C();
      const uint64_t* e = src(in.d2, W, o.te);
      uint64_t* d = o.D();
#define X(T) HETVP_PTX_LANES(mask, d[l] = put(bfi<T>(get<T>(a[l]), get<T>(b[l]), uint32_t(c[l]), uint32_t(e[l]))))
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Popc: case Op::Clz: case Op::Brev: {
      const uint64_t* a = o.A();
      uint64_t* d = o.D();
      const bool wide = t == Ty::B64;
      if (in.op == Op::Popc) HETVP_PTX_LANES(mask, d[l] = unsigned(__builtin_popcountll(wide ? a[l] : uint32_t(a[l]))));
      else if (in.op == Op::Clz)
        HETVP_PTX_LANES(mask, d[l] = wide ? (a[l] ? unsigned(__builtin_clzll(a[l])) : 64u)
                                          : (uint32_t(a[l]) ? unsigned(__builtin_clz(uint32_t(a[l]))) : 32u));
      else HETVP_PTX_LANES(mask, d[l] = wide ? brev<uint64_t>(a[l]) : brev<uint32_t>(uint32_t(a[l])));
      return;
    }
    case Op::Prmt: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = o.C();
      uint64_t* d = o.D();
      HETVP_PTX_LANES(mask, {
        uint64_t bytes = uint64_t(uint32_t(b[l])) << 32 | uint32_t(a[l]);
        uint32_t r = 0;
        for (unsigned i = 0; i < 4; ++i) {
          unsigned sel = (uint32_t(c[l]) >> (4 * i)) & 0xf;
          uint32_t byte = uint32_t(bytes >> (8 * (sel & 7))) & 0xff;
          if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
          r |= byte << (8 * i);
        }
        d[l] = r;
      });
      return;
    }
    case Op::Sad: {  // c + |a - b|
#define X(T)                                                                                   \
  o.tern<T>([](T a, T b, T c) {                                                                \
    using U = std::make_unsigned_t<T>;                                                         \
    return T(U(c) + (a < b ? U(U(b) - U(a)) : U(U(a) - U(b))));                                \
  })
      HETVP_PTX_INTS(t, X)
#undef X
      return;
    }
    case Op::Fma:
      if (t == Ty::F32) return o.f32(3, [](float a, float b, float c) { return std::fma(a, b, c); });
      return o.f64(3, [](double a, double b, double c) { return std::fma(a, b, c); });
    case Op::Sqrt:
      if (t == Ty::F32) return o.f32(1, [](float a, float, float) { return std::sqrt(a); });
      return o.f64(1, [](double a, double, double) { return std::sqrt(a); });
    case Op::Rcp:
      if (t == Ty::F32) return o.f32(1, [](float a, float, float) { return 1.0f / a; });
      return o.f64(1, [](double a, double, double) { return 1.0 / a; });
    case Op::Rsqrt:
      if (t == Ty::F32) return o.f32(1, [](float a, float, float) { return 1.0f / std::sqrt(a); });
      return o.f64(1, [](double a, double, double) { return 1.0 / std::sqrt(a); });
    case Op::Ex2: return o.f32(1, [](float a, float, float) { return std::exp2(a); });
    case Op::Lg2: return o.f32(1, [](float a, float, float) { return std::log2(a); });
    case Op::Sin: return o.f32(1, [](float a, float, float) { return std::sin(a); });
    case Op::Cos: return o.f32(1, [](float a, float, float) { return std::cos(a); });
    case Op::Copysign:
      if (t == Ty::F32) return o.bin<float>([](float a, float b) { return std::copysign(b, a); });
      return o.bin<double>([](double a, double b) { return std::copysign(b, a); });
    case Op::Setp: case Op::Set: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      uint32_t p = 0;
      const Cmp c = in.cmp;
      switch (in.type2) {
        case Ty::F32:
          if (in.ftz) HETVP_PTX_LANES(mask, p |= uint32_t(compare(c, ftz(get<float>(a[l])), ftz(get<float>(b[l])))) << l);
          else HETVP_PTX_LANES(mask, p |= uint32_t(compare(c, get<float>(a[l]), get<float>(b[l]))) << l);
          break;
        case Ty::F64: HETVP_PTX_LANES(mask, p |= uint32_t(compare(c, get<double>(a[l]), get<double>(b[l]))) << l); break;
#define X(T) HETVP_PTX_LANES(mask, p |= uint32_t(compare(c, get<T>(a[l]), get<T>(b[l]))) << l)
        default: HETVP_PTX_INTS(in.type2, X)
#undef X
      }
      uint32_t q = ~p;
      if (in.boolop != BoolOp::None) {
        uint32_t cm = pred_mask(in.c.reg, in.c.neg, W);
        if (in.boolop == BoolOp::And) p &= cm, q &= cm;
        else if (in.boolop == BoolOp::Or) p |= cm, q |= cm;
        else p ^= cm, q ^= cm;
      }
      uint64_t* d = o.D();
      if (in.op == Op::Setp) {
        HETVP_PTX_LANES(mask, d[l] = p >> l & 1);
        if (in.d2.kind == Operand::Reg) {
          uint64_t* d2 = dst(in.d2, W);
          HETVP_PTX_LANES(mask, d2[l] = q >> l & 1);
        }
      } else {
        uint64_t one = t == Ty::F32 ? 0x3f800000u : t == Ty::U32 || t == Ty::S32 || t == Ty::B32 ? 0xffffffffu : 1;
        HETVP_PTX_LANES(mask, d[l] = (p >> l & 1) ? one : 0);
      }
      return;
    }
    case Op::Selp: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint32_t c = pred_mask(in.c.reg, in.c.neg, W);
      uint64_t* d = o.D();
      HETVP_PTX_LANES(mask, d[l] = (c >> l & 1) ? a[l] : b[l]);
      return;
    }
    case Op::Cvta: {
      uint64_t base = in.space == Space::Shared ? launch.generic_shared_base
                      : in.space == Space::Local ? launch.generic_local_base
                      : in.space == Space::Const ? launch.generic_const_base
                                                 : 0;
      const uint64_t* a = o.A();
      uint64_t* d = o.D();
      if (in.mode) HETVP_PTX_LANES(mask, d[l] = a[l] - base);  // cvta.to.<space>: generic -> space
      else HETVP_PTX_LANES(mask, d[l] = a[l] + base);
      return;
    }
    case Op::Shfl: {
      const uint64_t* a = o.A();
      const uint64_t* b = o.B();
      const uint64_t* c = o.C();
      uint64_t v[kWarpLanes];
      std::memcpy(v, a, sizeof v);
      uint32_t pv = 0;
      uint64_t* d = o.D();
      HETVP_PTX_LANES(mask, {
        uint32_t bval = uint32_t(b[l]) & 31, cval = uint32_t(c[l]);
        uint32_t clamp = cval & 31, seg = (cval >> 8) & 31;
        uint32_t maxl = (l & seg) | (clamp & ~seg), minl = l & seg;
        int32_t j = int32_t(l);
        bool ok;
        switch (ShflMode(in.mode)) {
          case ShflMode::Up: j = int32_t(l) - int32_t(bval); ok = j >= int32_t(maxl); break;
          case ShflMode::Down: j = int32_t(l + bval); ok = j <= int32_t(maxl); break;
          case ShflMode::Bfly: j = int32_t(l ^ bval); ok = j <= int32_t(maxl); break;
          default: j = int32_t(minl | (bval & ~seg)); ok = j <= int32_t(maxl); break;
        }
        if (!ok) j = int32_t(l);
        d[l] = uint32_t(v[j]);
        pv |= uint32_t(ok) << l;
      });
      if (in.d2.kind == Operand::Reg) {
        uint64_t* p = dst(in.d2, W);
        HETVP_PTX_LANES(mask, p[l] = pv >> l & 1);
      }
      return;
    }
    case Op::Vote: {
      uint32_t pm = pred_mask(in.a.reg, in.a.neg, W) & mask;
      uint64_t* d = o.D();
      uint64_t r;
      switch (VoteMode(in.mode)) {
        case VoteMode::All: r = pm == mask; break;
        case VoteMode::Any: r = pm != 0; break;
        case VoteMode::Uni: r = pm == 0 || pm == mask; break;
        default: r = pm; break;
      }
      HETVP_PTX_LANES(mask, d[l] = r);
      return;
    }
    default:
      fail(in, mask, "internal: instruction not executable");
  }
}

}  // namespace hetvp::gpu::ptx::detail
