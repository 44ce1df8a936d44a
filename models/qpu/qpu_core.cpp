// The QPU instruction-set simulator (qpu_core.h). Semantics: VideoCore IV 3D Architecture
// Reference Guide (2013), section 3 (ALU, load immediate, semaphore, branch instructions; pack and
// unpack; signals) and section 4 (register address map). Where the guide leaves a detail open,
// docs/qpu.md says what hetvp does.
#include "models/qpu/qpu_core.h"

#include <cmath>
#include <cstring>

namespace hetvp::qpu {

namespace {
inline float f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t u32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const int exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ff;
  if (exp == 0) {  // zero or subnormal
    float f = std::ldexp(float(man), -24);
    return sign ? -f : f;
  }
  if (exp == 31) return f32(sign | 0x7f800000u | (man << 13));
  return f32(sign | uint32_t(exp - 15 + 127) << 23 | man << 13);
}

uint16_t float_to_half(float f) {
  const uint32_t u = u32(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000);
  const int exp = int((u >> 23) & 0xff) - 127 + 15;
  uint32_t man = u & 0x7fffff;
  if (((u >> 23) & 0xff) == 0xff) return sign | 0x7c00 | (man ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    man |= 0x800000;
    const unsigned shift = unsigned(14 - exp);
    uint32_t h = man >> shift;
    if ((man >> (shift - 1)) & 1) ++h;  // round half up
    return uint16_t(sign | h);
  }
  uint32_t h = uint32_t(exp) << 10 | man >> 13;
  if (man & 0x1000) ++h;  // round half up (carries into the exponent correctly)
  return uint16_t(sign | h);
}

uint32_t unpack_value(unsigned mode, uint32_t v, bool float_in) {
  switch (mode) {
    case 1:
      return float_in ? u32(half_to_float(uint16_t(v))) : uint32_t(int32_t(int16_t(uint16_t(v))));
    case 2:
      return float_in ? u32(half_to_float(uint16_t(v >> 16))) : uint32_t(int32_t(int16_t(uint16_t(v >> 16))));
    case 3:
      return (v >> 24) * 0x01010101u;
    default: {
      const uint32_t byte = (v >> (8 * (mode - 4))) & 0xff;
      return float_in ? u32(float(byte) / 255.0f) : byte;
    }
  }
}

inline uint8_t sat_u8(int v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }
inline uint8_t unorm8(float f) {
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return 255;
  return uint8_t(std::lround(f * 255.0f));
}
}  // namespace

void QpuCore::reset(uint32_t pc) {
  std::memset(acc, 0, sizeof acc);
  std::memset(ra, 0, sizeof ra);
  std::memset(rb, 0, sizeof rb);
  std::memset(z, 0, sizeof z);
  std::memset(n, 0, sizeof n);
  std::memset(c, 0, sizeof c);
  pc_ = pc;
  running_ = true;
  branch_countdown_ = end_countdown_ = 0;
  prev_written_a_[0] = prev_written_a_[1] = prev_written_b_[0] = prev_written_b_[1] = 0xff;
  r4_pending_ = false;
  r4_ready_ = 0;
}

void QpuCore::cond_mask(unsigned cond, uint8_t* m) const {
  switch (cond) {
    case COND_NEVER:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = 0;
      break;
    case COND_ALWAYS:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = 1;
      break;
    case COND_ZS:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = z[i];
      break;
    case COND_ZC:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = !z[i];
      break;
    case COND_NS:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = n[i];
      break;
    case COND_NC:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = !n[i];
      break;
    case COND_CS:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = c[i];
      break;
    default:
      for (unsigned i = 0; i < kLanes; ++i) m[i] = !c[i];
      break;
  }
}

void QpuCore::check_raw(unsigned raddr, bool file_b) {
  const uint8_t* prev = file_b ? prev_written_b_ : prev_written_a_;
  if (raddr < 32 && (prev[0] == raddr || prev[1] == raddr))
    throw QpuFault(std::string("reads ") + (file_b ? "rb" : "ra") + std::to_string(raddr) +
                   " written by the previous instruction (a register-file write is readable only from the "
                   "second instruction after it)");
}

QpuCore::Status QpuCore::step() {
  if (!running_) throw QpuFault("step() on a QPU that is not running");
  const uint32_t off = pc_ - window_base_;
  const Instr& d = (off < window_len_ && !(off & 7)) ? window_[off >> 3] : io_.fetch(*this, pc_);
  if (d.kind == Kind::Semaphore) {
    if (!io_.semaphore(*this, d.sem, d.sem_down)) return Status::Blocked;
  } else if (d.kind == Kind::Alu && (d.raddr_a == R_MUTEX || (d.sig != SIG_SMALL_IMM && d.raddr_b == R_MUTEX))) {
    if (!io_.mutex_acquire(*this)) return Status::Blocked;
  }
  cur_written_a_[0] = cur_written_a_[1] = cur_written_b_[0] = cur_written_b_[1] = 0xff;
  switch (d.kind) {
    case Kind::Alu:
      exec_alu(d);
      break;
    case Kind::LoadImm:
    case Kind::Semaphore:
      exec_load_imm(d);
      break;
    case Kind::Branch:
      exec_branch(d);
      break;
    case Kind::Illegal: {
      char raw[24];
      snprintf(raw, sizeof raw, "0x%016llx", static_cast<unsigned long long>(d.raw));
      throw QpuFault(std::string("illegal instruction ") + raw + ": " + d.illegal);
    }
  }
  if (r4_pending_) {
    acc[4] = r4_next_;
    r4_pending_ = false;
  }
  ++instructions;
  cycle += 4;
  std::memcpy(prev_written_a_, cur_written_a_, 2);
  std::memcpy(prev_written_b_, cur_written_b_, 2);
  uint32_t next = pc_ + 8;
  if (branch_countdown_ > 0 && --branch_countdown_ == 0) next = branch_target_;
  if (end_countdown_ > 0 && --end_countdown_ == 0) {
    running_ = false;
    return Status::Ended;
  }
  pc_ = next;
  return Status::Ran;
}

void QpuCore::read_special(unsigned raddr, bool file_b, Vec& out) {
  switch (raddr) {
    case R_NOP:
      std::memset(out.v, 0, sizeof out.v);
      return;
    case R_UNIFORM: {
      const uint32_t u = io_.uniform(*this);
      for (unsigned i = 0; i < kLanes; ++i) out.v[i] = u;
      return;
    }
    case R_ELEM_QPU:
      for (unsigned i = 0; i < kLanes; ++i) out.v[i] = file_b ? index_ : i;
      return;
    case R_VPM:
      io_.vpm_read(*this, out);
      return;
    case R_VPM_BUSY: {
      const uint32_t b = io_.vpm_busy(*this, file_b);
      for (unsigned i = 0; i < kLanes; ++i) out.v[i] = b;
      return;
    }
    case R_VPM_WAIT:
      io_.vpm_wait(*this, file_b);
      std::memset(out.v, 0, sizeof out.v);
      return;
    case R_MUTEX:
      std::memset(out.v, 0, sizeof out.v);  // acquired in step()
      return;
    case R_VARYING:
    case R_XY_PIXEL:
    case R_MS_REV:
      throw QpuFault("reads " + raddr_name(raddr, file_b) + ": fragment shading inputs are not modelled");
    default:
      throw QpuFault("reads reserved " + std::string(file_b ? "regfile B" : "regfile A") + " address " +
                     std::to_string(raddr));
  }
}

void QpuCore::read_inputs(const Instr& d) {
  if (d.use_r4 && instructions < r4_ready_)
    throw QpuFault("reads r4 " + std::to_string(instructions + 3 - r4_ready_) +
                   " instruction(s) after an SFU write: the result is in r4 only from the third instruction on");
  const bool use_a = d.use_a, use_b = d.use_b;
  if (d.raddr_a < 32) {
    if (use_a) {
      check_raw(d.raddr_a, false);
      in_a_ptr_ = ra[d.raddr_a].v;
    }
  } else if (d.raddr_a != R_NOP || use_a) {
    read_special(d.raddr_a, false, in_a_);
    in_a_ptr_ = in_a_.v;
  }
  if (d.sig == SIG_SMALL_IMM) {
    const uint32_t v = small_imm_value(d.raddr_b);
    for (unsigned i = 0; i < kLanes; ++i) in_b_.v[i] = v;
    in_b_ptr_ = in_b_.v;
  } else if (d.raddr_b < 32) {
    if (use_b) {
      check_raw(d.raddr_b, true);
      in_b_ptr_ = rb[d.raddr_b].v;
    }
  } else if (d.raddr_b != R_NOP || use_b) {
    read_special(d.raddr_b, true, in_b_);
    in_b_ptr_ = in_b_.v;
  }
}

inline const uint32_t* QpuCore::operand(const Instr& d, unsigned mux, bool float_in, Vec& tmp) {
  if (mux == MUX_A) {
    if (d.pm == 0 && d.unpack && d.raddr_a < 32) {
      for (unsigned i = 0; i < kLanes; ++i) tmp.v[i] = unpack_value(d.unpack, in_a_ptr_[i], float_in);
      return tmp.v;
    }
    return in_a_ptr_;
  }
  if (mux == MUX_B) return in_b_ptr_;
  if (mux == MUX_R4 && d.pm == 1 && d.unpack) {
    for (unsigned i = 0; i < kLanes; ++i) tmp.v[i] = unpack_value(d.unpack, acc[4].v[i], float_in);
    return tmp.v;
  }
  return acc[mux].v;
}

void QpuCore::exec_alu(const Instr& d) {
  read_inputs(d);
  const unsigned op = d.op_add, mop = d.op_mul;
  Vec ta, tb, tma, tmb, ares, mres;
  // Add ALU.
  const bool add_active = op != A_NOP && d.cond_add != COND_NEVER;
  const bool mul_active = mop != M_NOP && d.cond_mul != COND_NEVER;
  if (op != A_NOP) {
    const bool fin = add_op_is_float_input(op);
    const uint32_t* __restrict a = operand(d, d.add_a, fin, ta);
    const uint32_t* __restrict b = operand(d, d.add_b, fin, tb);
    uint32_t* __restrict r = ares.v;
    switch (op) {
      case A_FADD:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = u32(f32(a[i]) + f32(b[i]));
        break;
      case A_FSUB:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = u32(f32(a[i]) - f32(b[i]));
        break;
      case A_FMIN:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = f32(a[i]) < f32(b[i]) ? a[i] : b[i];
        break;
      case A_FMAX:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = f32(a[i]) > f32(b[i]) ? a[i] : b[i];
        break;
      case A_FMINABS:
        for (unsigned i = 0; i < kLanes; ++i) {
          const uint32_t x = a[i] & 0x7fffffffu, y = b[i] & 0x7fffffffu;
          r[i] = f32(x) < f32(y) ? x : y;
        }
        break;
      case A_FMAXABS:
        for (unsigned i = 0; i < kLanes; ++i) {
          const uint32_t x = a[i] & 0x7fffffffu, y = b[i] & 0x7fffffffu;
          r[i] = f32(x) > f32(y) ? x : y;
        }
        break;
      case A_FTOI:
        for (unsigned i = 0; i < kLanes; ++i) {
          const float x = f32(a[i]);
          r[i] = (x > -2147483648.0f && x < 2147483648.0f) ? uint32_t(int32_t(x)) : 0;
        }
        break;
      case A_ITOF:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = u32(float(int32_t(a[i])));
        break;
      case A_ADD:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] + b[i];
        break;
      case A_SUB:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] - b[i];
        break;
      case A_SHR:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] >> (b[i] & 31);
        break;
      case A_ASR:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = uint32_t(int32_t(a[i]) >> (b[i] & 31));
        break;
      case A_ROR:
        for (unsigned i = 0; i < kLanes; ++i) {
          const unsigned s = b[i] & 31;
          r[i] = s ? (a[i] >> s) | (a[i] << (32 - s)) : a[i];
        }
        break;
      case A_SHL:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] << (b[i] & 31);
        break;
      case A_MIN:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = int32_t(a[i]) < int32_t(b[i]) ? a[i] : b[i];
        break;
      case A_MAX:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = int32_t(a[i]) > int32_t(b[i]) ? a[i] : b[i];
        break;
      case A_AND:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] & b[i];
        break;
      case A_OR:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] | b[i];
        break;
      case A_XOR:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] ^ b[i];
        break;
      case A_NOT:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = ~a[i];
        break;
      case A_CLZ:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = a[i] ? uint32_t(__builtin_clz(a[i])) : 32;
        break;
      case A_V8ADDS:
      case A_V8SUBS:
        for (unsigned i = 0; i < kLanes; ++i) {
          uint32_t out = 0;
          for (unsigned k = 0; k < 32; k += 8) {
            const int x = (a[i] >> k) & 0xff, y = (b[i] >> k) & 0xff;
            out |= uint32_t(sat_u8(op == A_V8ADDS ? x + y : x - y)) << k;
          }
          r[i] = out;
        }
        break;
    }
    if (d.sf && add_active) set_flags(ares, op, a, b);
    if (add_active && (op == A_FADD || op == A_FSUB))
      flops += d.cond_add == COND_ALWAYS ? kLanes : lanes_where(d.cond_add);
  }
  // Mul ALU (with the small-immediate vector rotation of its inputs).
  if (mop != M_NOP) {
    const bool fin = mop == M_FMUL;
    const uint32_t* a = operand(d, d.mul_a, fin, tma);
    const uint32_t* b = operand(d, d.mul_b, fin, tmb);
    if (d.sig == SIG_SMALL_IMM && d.raddr_b >= 48) {
      const unsigned rot = d.raddr_b == 48 ? (acc[5].v[0] & 15) : d.raddr_b - 48;
      Vec ra2, rb2;
      for (unsigned i = 0; i < kLanes; ++i) {
        ra2.v[i] = a[(i - rot) & 15];
        rb2.v[i] = b[(i - rot) & 15];
      }
      tma = ra2;
      tmb = rb2;
      a = tma.v;
      b = tmb.v;
    }
    uint32_t* __restrict r = mres.v;
    switch (mop) {
      case M_FMUL:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = u32(f32(a[i]) * f32(b[i]));
        break;
      case M_MUL24:
        for (unsigned i = 0; i < kLanes; ++i) r[i] = (a[i] & 0xffffffu) * (b[i] & 0xffffffu);
        break;
      default:
        for (unsigned i = 0; i < kLanes; ++i) {
          uint32_t out = 0;
          for (unsigned k = 0; k < 32; k += 8) {
            const int x = (a[i] >> k) & 0xff, y = (b[i] >> k) & 0xff;
            int v;
            switch (mop) {
              case M_V8MULD:
                v = (x * y + 127) / 255;
                break;
              case M_V8MIN:
                v = x < y ? x : y;
                break;
              case M_V8MAX:
                v = x > y ? x : y;
                break;
              case M_V8ADDS:
                v = x + y;
                break;
              default:
                v = x - y;
                break;
            }
            out |= uint32_t(sat_u8(v)) << k;
          }
          r[i] = out;
        }
        break;
    }
    if (d.sf && !add_active && mul_active) set_flags(mres, 64 + mop, a, b);
    if (mul_active && mop == M_FMUL) flops += d.cond_mul == COND_ALWAYS ? kLanes : lanes_where(d.cond_mul);
  }
  if (add_active || mul_active) ++alu_ops;
  // At most one closely coupled access is possible unless a write address is an SFU/TMU one or
  // the instruction loads the TMU (the common case returns here without a call).
  if (d.waddr_add >= W_SFU_RECIP || d.waddr_mul >= W_SFU_RECIP || d.sig == SIG_LOAD_TMU0 || d.sig == SIG_LOAD_TMU1)
    check_coupled_accesses(d);
  // Writes: add to regfile A (B with ws), mul to regfile B (A with ws). When both ALUs write the
  // same accumulator or I/O register, the add ALU's write is applied first and the mul ALU's
  // second, each per element under its own condition: complementary conditions merge the two
  // results, and where both conditions hold the mul ALU's value is the one that stays (an
  // assumption: the guide does not say which write wins; docs/qpu.md, "Rules").
  if (op != A_NOP)
    write(d, d.waddr_add, d.ws, ares, d.cond_add, false, add_op_is_float_input(op) && op != A_FTOI);
  else if (d.waddr_add != W_NOP && d.cond_add != COND_NEVER) {
    std::memset(ares.v, 0, sizeof ares.v);  // a nop's result is zero
    write(d, d.waddr_add, d.ws, ares, d.cond_add, false, false);
  }
  if (mop != M_NOP) write(d, d.waddr_mul, !d.ws, mres, d.cond_mul, true, mop == M_FMUL);
  if (d.sig != SIG_NONE && d.sig != SIG_SMALL_IMM) signal(d);
}

unsigned QpuCore::lanes_where(unsigned cond) const {
  if (cond == COND_ALWAYS) return kLanes;
  uint8_t m[kLanes];
  cond_mask(cond, m);
  unsigned n = 0;
  for (unsigned i = 0; i < kLanes; ++i) n += m[i];
  return n;
}

// The guide's "Summary of Instruction Restrictions": "A single instruction can only perform a
// maximum of one of the following closely coupled peripheral accesses: TMU write, TMU read, TLB
// write, TLB read, TLB combined colour read and write, SFU write, Mutex read or Semaphore access"
// (also checked by Mesa's vc4_qpu_validate.c). Two such accesses have no defined meaning.
void QpuCore::check_coupled_accesses(const Instr& d) {
  const char* what[4];
  unsigned n = 0;
  auto waddr = [&](unsigned w, bool active) {
    if (!active || w == W_NOP) return;
    if (w >= W_TMU0_S)
      what[n++] = "a TMU write";
    else if (w >= W_SFU_RECIP)
      what[n++] = "an SFU write";
  };
  waddr(d.waddr_add, d.cond_add != COND_NEVER);
  waddr(d.waddr_mul, d.cond_mul != COND_NEVER);
  if (d.sig == SIG_LOAD_TMU0 || d.sig == SIG_LOAD_TMU1) what[n++] = "a TMU read (ldtmu)";
  if (n < 4 && (d.raddr_a == R_MUTEX || (d.sig != SIG_SMALL_IMM && d.raddr_b == R_MUTEX))) what[n++] = "a mutex read";
  if (n <= 1) return;
  std::string list = what[0];
  for (unsigned i = 1; i < n; ++i) list += std::string(i + 1 == n ? " and " : ", ") + what[i];
  throw QpuFault("performs " + list +
                 " in one instruction: the guide allows one closely coupled peripheral access per instruction "
                 "(Summary of Instruction Restrictions)");
}

void QpuCore::set_flags(const Vec& r, unsigned kind, const uint32_t* a, const uint32_t* b) {
  const uint32_t* x = r.v;
  for (unsigned i = 0; i < kLanes; ++i) {
    z[i] = x[i] == 0 || ((kind <= A_FTOI || kind == 64 + M_FMUL) && (x[i] & 0x7fffffffu) == 0);
    n[i] = x[i] >> 31;
  }
  switch (kind) {
    case A_ADD:
      for (unsigned i = 0; i < kLanes; ++i) c[i] = x[i] < a[i];  // unsigned carry out
      break;
    case A_SUB:
      for (unsigned i = 0; i < kLanes; ++i) c[i] = a[i] < b[i];  // unsigned borrow
      break;
    case A_FADD:
    case A_FSUB:
    case A_FMIN:
    case A_FMAX:
    case A_FMINABS:
    case A_FMAXABS:
    case 64 + M_FMUL:
      for (unsigned i = 0; i < kLanes; ++i) c[i] = f32(x[i]) > 0.0f;
      break;
    case A_MIN:
    case A_MAX:
      for (unsigned i = 0; i < kLanes; ++i) c[i] = int32_t(a[i]) > int32_t(b[i]);
      break;
    default:
      for (unsigned i = 0; i < kLanes; ++i) c[i] = 0;
      break;
  }
}

void QpuCore::write(const Instr& d, unsigned w, bool file_b, const Vec& value, unsigned cond, bool is_mul,
                    bool float_op) {
  if (w == W_NOP || cond == COND_NEVER) return;
  if (cond == COND_ALWAYS && !d.pack) {  // the common case: a whole-vector write
    if (w < 32) {
      (file_b ? rb[w] : ra[w]) = value;
      (file_b ? cur_written_b_ : cur_written_a_)[is_mul] = uint8_t(w);
      return;
    }
    if (w <= W_ACC3) {
      acc[w - W_ACC0] = value;
      return;
    }
  }
  uint8_t m[kLanes];
  cond_mask(cond, m);
  Vec packed;
  const Vec* val = &value;
  Vec* dst = nullptr;
  bool partial = false;
  uint32_t keep = 0;                    // bits of the old value kept by a partial pack
  if (d.pm == 1 && is_mul && d.pack) {  // mul ALU colour pack: float [0,1] -> 8-bit
    for (unsigned i = 0; i < kLanes; ++i) {
      const uint32_t b8 = unorm8(f32(value.v[i]));
      packed.v[i] = d.pack == 3 ? b8 * 0x01010101u : b8 << (8 * (d.pack - 4));
    }
    val = &packed;
    partial = d.pack != 3;
    keep = partial ? ~(0xffu << (8 * (d.pack - 4))) : 0;
  } else if (d.pm == 0 && d.pack && !file_b && w < 32) {  // regfile A pack
    const unsigned p = d.pack;
    for (unsigned i = 0; i < kLanes; ++i) {
      const uint32_t x = value.v[i];
      const int32_t s = int32_t(x);
      uint32_t out = 0;
      switch (p) {
        case 1:
        case 2:
        case 9:
        case 10: {
          uint16_t h;
          if (float_op)
            h = float_to_half(f32(x));
          else if (p >= 9)
            h = uint16_t(int16_t(s < -32768 ? -32768 : s > 32767 ? 32767 : s));
          else
            h = uint16_t(x);
          out = (p == 1 || p == 9) ? h : uint32_t(h) << 16;
          break;
        }
        case 3:
          out = (x & 0xff) * 0x01010101u;
          break;
        case 11:
          out = uint32_t(sat_u8(s)) * 0x01010101u;
          break;
        case 8:
          out = x;
          break;  // 32-bit saturate: the 32-bit result is already in range
        default: {
          const unsigned k = (p & 7) - 4;
          const uint32_t b8 = p >= 12 ? sat_u8(s) : (x & 0xff);
          out = b8 << (8 * k);
          break;
        }
      }
      packed.v[i] = out;
    }
    val = &packed;
    partial = p == 1 || p == 2 || p == 9 || p == 10 || (p >= 4 && p <= 7) || p >= 12;
    if (p == 1 || p == 9)
      keep = 0xffff0000u;
    else if (p == 2 || p == 10)
      keep = 0x0000ffffu;
    else if (partial)
      keep = ~(0xffu << (8 * ((p & 7) - 4)));
  }
  if (w < 32) {
    dst = file_b ? &rb[w] : &ra[w];
    (file_b ? cur_written_b_ : cur_written_a_)[is_mul] = uint8_t(w);
  } else if (w <= W_ACC3) {
    dst = &acc[w - W_ACC0];
  }
  if (dst) {
    if (partial) {
      for (unsigned i = 0; i < kLanes; ++i) dst->v[i] = m[i] ? (dst->v[i] & keep) | val->v[i] : dst->v[i];
    } else {
      for (unsigned i = 0; i < kLanes; ++i) dst->v[i] = m[i] ? val->v[i] : dst->v[i];
    }
    return;
  }
  auto first_lane = [&]() -> int {
    for (unsigned i = 0; i < kLanes; ++i)
      if (m[i]) return int(i);
    return -1;
  };
  switch (w) {
    case W_ACC5:
      for (unsigned i = 0; i < kLanes; ++i) {
        const unsigned src = file_b ? 0 : (i & ~3u);  // B: replicate element 0; A: per quad
        if (m[src]) acc[5].v[i] = val->v[src];
      }
      return;
    case W_TMU_NOSWAP:
      return;
    case W_HOST_INT:
      if (first_lane() >= 0) io_.host_interrupt(*this);
      return;
    case W_UNIFORMS_ADDRESS: {
      const int l = first_lane();
      if (l >= 0) io_.uniforms_address(*this, val->v[l]);
      return;
    }
    case W_VPM:
      io_.vpm_write(*this, *val, m);
      return;
    case W_VPM_SETUP:
    case W_VPM_ADDR: {
      const int l = first_lane();
      if (l < 0) return;
      if (w == W_VPM_SETUP)
        io_.vpm_setup(*this, file_b, val->v[l]);
      else
        io_.vpm_dma(*this, file_b, val->v[l]);
      return;
    }
    case W_MUTEX_RELEASE:
      if (first_lane() >= 0) io_.mutex_release(*this);
      return;
    case W_SFU_RECIP:
    case W_SFU_RECIPSQRT:
    case W_SFU_EXP:
    case W_SFU_LOG:
      r4_next_ = acc[4];
      for (unsigned i = 0; i < kLanes; ++i) {
        if (!m[i]) continue;
        const float x = f32(val->v[i]);
        float y = w == W_SFU_RECIP       ? 1.0f / x
                  : w == W_SFU_RECIPSQRT ? 1.0f / std::sqrt(x)
                  : w == W_SFU_EXP       ? std::exp2(x)
                                         : std::log2(x);
        r4_next_.v[i] = u32(y);
      }
      r4_pending_ = true;
      r4_ready_ = instructions + 3;
      return;
    case W_TMU0_S:
    case W_TMU1_S:
      io_.tmu_request(*this, w == W_TMU1_S, *val, m);
      return;
    default:
      break;
  }
  if (w >= W_TMU0_T)
    throw QpuFault("writes " + waddr_name(w, file_b) + ": only direct-addressed TMU lookups (S) are modelled");
  throw QpuFault("writes " + waddr_name(w, file_b) + ": the tile buffer and fragment shading are not modelled");
}

void QpuCore::signal(const Instr& d) {
  switch (d.sig) {
    case SIG_NONE:
    case SIG_SMALL_IMM:
    case SIG_THREAD_SWITCH:  // one thread per QPU: nothing to switch to
    case SIG_LAST_THREAD_SWITCH:
    case SIG_WAIT_SCOREBOARD:  // no tile buffer to wait for
    case SIG_SCOREBOARD_UNLOCK:
      return;
    case SIG_PROG_END:
      if (end_countdown_ > 0) throw QpuFault("program end in the delay slots of a program end");
      end_countdown_ = 3;  // this instruction and its two delay slots
      return;
    case SIG_LOAD_TMU0:
    case SIG_LOAD_TMU1: {
      io_.tmu_load(*this, d.sig == SIG_LOAD_TMU1, r4_next_);
      r4_pending_ = true;
      return;
    }
    case SIG_BREAK:
      throw QpuFault("software breakpoint signal (an all-zero word decodes as one: did the program run off its code?)");
    default:
      throw QpuFault("signal " + std::to_string(d.sig) +
                     " (coverage/colour/alpha-mask loads): the tile buffer is not modelled");
  }
}

void QpuCore::exec_load_imm(const Instr& d) {
  Vec v;
  if (d.kind == Kind::Semaphore || d.li_type == LI_32) {
    for (unsigned i = 0; i < kLanes; ++i) v.v[i] = d.imm;
  } else {
    for (unsigned i = 0; i < kLanes; ++i) {
      const uint32_t ls = (d.imm >> i) & 1, ms = (d.imm >> (16 + i)) & 1;
      const uint32_t x = ms << 1 | ls;
      v.v[i] = d.li_type == LI_PER_ELEM_SIGNED && ms ? uint32_t(int32_t(x) - 4) : x;
    }
  }
  if (d.sf && (d.cond_add != COND_NEVER || d.cond_mul != COND_NEVER)) set_flags(v, 255, v.v, v.v);
  write(d, d.waddr_add, d.ws, v, d.cond_add, false, false);
  write(d, d.waddr_mul, !d.ws, v, d.cond_mul, true, false);
}

void QpuCore::exec_branch(const Instr& d) {
  if (branch_countdown_ > 0) throw QpuFault("branch in the delay slots of another branch");
  auto all = [](const uint8_t* f, bool set) {
    for (unsigned i = 0; i < kLanes; ++i)
      if (bool(f[i]) != set) return false;
    return true;
  };
  auto any = [](const uint8_t* f, bool set) {
    for (unsigned i = 0; i < kLanes; ++i)
      if (bool(f[i]) == set) return true;
    return false;
  };
  const uint8_t* f = d.br_cond < 4 ? z : d.br_cond < 8 ? n : c;
  const bool set = (d.br_cond & 1) == 0;
  const bool taken = d.br_cond == B_ALWAYS || ((d.br_cond & 2) ? any(f, set) : all(f, set));
  const uint32_t link = pc_ + 32;
  uint32_t target = d.imm + (d.br_rel ? link : 0);
  if (d.br_reg) {
    check_raw(d.raddr_a, false);
    target += ra[d.raddr_a].v[0];
  }
  if (taken) {
    branch_countdown_ = 4;  // the branch and its three delay slots, then the target
    branch_target_ = target;
  }
  Vec lv;
  for (unsigned i = 0; i < kLanes; ++i) lv.v[i] = link;
  write(d, d.waddr_add, d.ws, lv, COND_ALWAYS, false, false);
  write(d, d.waddr_mul, !d.ws, lv, COND_ALWAYS, true, false);
}

}  // namespace hetvp::qpu
