// The executor's cvt: integer widening/narrowing (with .sat), integer <-> float with the rounding
// modes, float -> integer (saturating, NaN -> 0, as PTX specifies), f32 <-> f64, and float rounding
// to an integral value (.rni/.rzi/.rmi/.rpi), with .ftz and .sat.
#include <algorithm>
#include <cfenv>
#include <cmath>

#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx::detail {

namespace {

struct Value {  // a source value, widened
  bool is_float;
  double f;
  int64_t i;
  uint64_t u;
  bool is_signed;
};

Value read(uint64_t v, Ty t, bool ftz) {
  Value r{};
  switch (t) {
    case Ty::F32: {
      float f;
      uint32_t u = uint32_t(v);
      std::memcpy(&f, &u, 4);
      if (ftz && std::fpclassify(f) == FP_SUBNORMAL) f = std::copysign(0.f, f);
      r.is_float = true, r.f = f;
      return r;
    }
    case Ty::F64:
      r.is_float = true, std::memcpy(&r.f, &v, 8);
      return r;
    case Ty::S8: r.i = int8_t(v); break;
    case Ty::S16: r.i = int16_t(v); break;
    case Ty::S32: r.i = int32_t(v); break;
    case Ty::S64: r.i = int64_t(v); break;
    default: {
      unsigned b = ty_bytes(t);
      r.u = b == 8 ? v : v & ((uint64_t(1) << (8 * b)) - 1);
      return r;
    }
  }
  r.is_signed = true;
  return r;
}

double round_integral(double x, Rnd r) {
  switch (r) {
    case Rnd::Rni: return std::nearbyint(x);  // to nearest even (the default environment)
    case Rnd::Rmi: return std::floor(x);
    case Rnd::Rpi: return std::ceil(x);
    default: return std::trunc(x);
  }
}

uint64_t to_int(const Value& v, Ty t, Rnd r, bool sat) {
  const unsigned bits = ty_bytes(t) * 8;
  const bool sgn = ty_signed(t);
  const int64_t smin = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
  const int64_t smax = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
  const uint64_t umax = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  const uint64_t keep = umax;
  if (v.is_float) {  // always saturating
    if (std::isnan(v.f)) return 0;
    double x = round_integral(v.f, r);
    if (sgn) {
      if (x <= double(smin)) return uint64_t(smin) & keep;
      if (x >= double(smax)) return uint64_t(smax) & keep;
      return uint64_t(int64_t(x)) & keep;
    }
    if (x <= 0) return 0;
    if (x >= double(umax)) return umax;
    return uint64_t(x) & keep;
  }
  if (!sat) return (v.is_signed ? uint64_t(v.i) : v.u) & keep;
  if (v.is_signed) {
    if (sgn) return uint64_t(std::clamp(v.i, smin, smax)) & keep;
    return v.i < 0 ? 0 : std::min<uint64_t>(uint64_t(v.i), umax);
  }
  if (sgn) return std::min<uint64_t>(v.u, uint64_t(smax));
  return std::min(v.u, umax);
}

}  // namespace

void BlockState::cvt(const Instr& in, WarpCtx& W, uint32_t mask) {
  uint64_t tmp[kWarpLanes];
  const uint64_t* a = src(in.a, W, tmp);
  uint64_t* d = dst(in.d, W);
  const Ty dt = in.type, st = in.type2;
  const Rnd r = in.rnd;
  const bool float_rnd = r == Rnd::Rz || r == Rnd::Rm || r == Rnd::Rp;
  const int old = float_rnd ? std::fegetround() : 0;
  if (float_rnd) std::fesetround(r == Rnd::Rz ? FE_TOWARDZERO : r == Rnd::Rm ? FE_DOWNWARD : FE_UPWARD);
  HETVP_PTX_LANES(mask, {
    Value v = read(a[l], st, in.ftz);
    uint64_t out;
    if (dt == Ty::F32) {
      float f;
      if (v.is_float) {
        double x = (r >= Rnd::Rni) ? round_integral(v.f, r) : v.f;
        f = float(x);
      } else {
        f = v.is_signed ? float(v.i) : float(v.u);
      }
      if (in.ftz && std::fpclassify(f) == FP_SUBNORMAL) f = std::copysign(0.f, f);
      if (in.sat) f = std::isnan(f) ? 0.f : std::clamp(f, 0.f, 1.f);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      out = u;
    } else if (dt == Ty::F64) {
      double x = v.is_float ? ((r >= Rnd::Rni) ? round_integral(v.f, r) : v.f)
                            : (v.is_signed ? double(v.i) : double(v.u));
      if (in.sat) x = std::isnan(x) ? 0. : std::clamp(x, 0., 1.);
      std::memcpy(&out, &x, 8);
    } else {
      out = to_int(v, dt, r, in.sat);
      if (ty_signed(dt)) {  // keep signed values sign-extended like loads do
        unsigned bits = ty_bytes(dt) * 8;
        if (bits < 64) out = uint64_t(int64_t(out << (64 - bits)) >> (64 - bits));
      }
    }
    d[l] = out;
  });
  if (float_rnd) std::fesetround(old);
}

}  // namespace hetvp::gpu::ptx::detail
