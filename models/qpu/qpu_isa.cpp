// Decoder and disassembler of the QPU instruction set (qpu_isa.h).
#include "models/qpu/qpu_isa.h"

#include <cstdio>
#include <cstring>

namespace hetvp::qpu {

namespace {
const char* const kAddOps[32] = {"nop",  "fadd",  "fsub",  "fmin",  "fmax",  "fminabs", "fmaxabs", "ftoi",
                                 "itof", nullptr, nullptr, nullptr, "add",   "sub",     "shr",     "asr",
                                 "ror",  "shl",   "min",   "max",   "and",   "or",      "xor",     "not",
                                 "clz",  nullptr, nullptr, nullptr, nullptr, nullptr,   "v8adds",  "v8subs"};
const char* const kMulOps[8] = {"nop", "fmul", "mul24", "v8muld", "v8min", "v8max", "v8adds", "v8subs"};
const char* const kConds[8] = {".never", "", ".ifz", ".ifnz", ".ifn", ".ifnn", ".ifc", ".ifnc"};
const char* const kBranchConds[16] = {".allz", ".allnz", ".anyz", ".anynz", ".alln", ".allnn", ".anyn", ".anynn",
                                      ".allc", ".allnc", ".anyc", ".anync", nullptr, nullptr,  nullptr, ""};
const char* const kUnpack[8] = {"", "16a", "16b", "8d_rep", "8a", "8b", "8c", "8d"};
const char* const kPackA[16] = {"",    "16a",  "16b",  "8888",  "8a",  "8b",  "8c",  "8d",
                                "32s", "16as", "16bs", "8888s", "8as", "8bs", "8cs", "8ds"};

std::string hex(uint32_t v) {
  char b[16];
  snprintf(b, sizeof b, "0x%08x", v);
  return b;
}
}  // namespace

const char* add_op_name(unsigned op) { return op < 32 ? kAddOps[op] : nullptr; }
const char* mul_op_name(unsigned op) { return op < 8 ? kMulOps[op] : nullptr; }

uint32_t small_imm_value(unsigned code) {
  if (code < 16) return code;
  if (code < 32) return uint32_t(int32_t(code) - 32);
  if (code < 48) {  // 32..39: 1.0 .. 128.0; 40..47: 1/256 .. 1/2 (powers of two)
    const int e = code < 40 ? int(code) - 32 : int(code) - 48;
    return uint32_t(127 + e) << 23;
  }
  return 0;
}

namespace {
bool shared_waddr(unsigned w) {
  return w == W_VPM || w == W_VPM_SETUP || w == W_VPM_ADDR || w == W_MUTEX_RELEASE || w >= W_TMU0_S;
}
bool shared_raddr(unsigned r) { return r == R_VPM || r == R_VPM_BUSY || r == R_VPM_WAIT || r == R_MUTEX; }
Instr decode_fields(uint64_t raw);
}  // namespace

Instr decode(uint64_t raw) {
  Instr d = decode_fields(raw);
  d.shared = d.kind == Kind::Semaphore || d.kind == Kind::Illegal || shared_waddr(d.waddr_add) ||
             shared_waddr(d.waddr_mul) ||
             (d.kind == Kind::Alu && (shared_raddr(d.raddr_a) || (d.sig != SIG_SMALL_IMM && shared_raddr(d.raddr_b))));
  return d;
}

namespace {
Instr decode_fields(uint64_t raw) {
  Instr d;
  d.raw = raw;
  auto f = [raw](unsigned shift, unsigned bits) { return uint8_t((raw >> shift) & ((1u << bits) - 1)); };
  d.sig = f(SIG_SHIFT, 4);
  d.pm = f(PM_SHIFT, 1);
  d.pack = f(PACK_SHIFT, 4);
  d.cond_add = f(COND_ADD_SHIFT, 3);
  d.cond_mul = f(COND_MUL_SHIFT, 3);
  d.sf = f(SF_SHIFT, 1);
  d.ws = f(WS_SHIFT, 1);
  d.waddr_add = f(WADDR_ADD_SHIFT, 6);
  d.waddr_mul = f(WADDR_MUL_SHIFT, 6);
  auto illegal = [&d](const char* why) {
    d.kind = Kind::Illegal;
    d.illegal = why;
    return d;
  };
  if (d.sig == SIG_BRANCH) {
    d.kind = Kind::Branch;
    d.br_cond = f(BRANCH_COND_SHIFT, 4);
    d.br_rel = f(BRANCH_REL_SHIFT, 1);
    d.br_reg = f(BRANCH_REG_SHIFT, 1);
    d.raddr_a = f(BRANCH_RADDR_A_SHIFT, 5);
    d.imm = uint32_t(raw);
    d.pm = d.pack = d.sf = 0;
    d.cond_add = d.cond_mul = COND_ALWAYS;
    if (!kBranchConds[d.br_cond]) return illegal("reserved branch condition (12..14)");
    return d;
  }
  if (d.sig == SIG_LOAD_IMM) {
    d.li_type = f(UNPACK_SHIFT, 3);
    d.imm = uint32_t(raw);
    if (d.li_type == LI_SEMAPHORE) {
      d.kind = Kind::Semaphore;
      d.sem = raw & 15;
      d.sem_down = (raw >> 4) & 1;
    } else if (d.li_type == LI_32 || d.li_type == LI_PER_ELEM_SIGNED || d.li_type == LI_PER_ELEM_UNSIGNED) {
      d.kind = Kind::LoadImm;
    } else {
      return illegal("reserved load-immediate type (2, 5, 6, 7)");
    }
  } else {
    d.kind = Kind::Alu;
    d.unpack = f(UNPACK_SHIFT, 3);
    d.op_mul = f(OP_MUL_SHIFT, 3);
    d.op_add = f(OP_ADD_SHIFT, 5);
    d.raddr_a = f(RADDR_A_SHIFT, 6);
    d.raddr_b = f(RADDR_B_SHIFT, 6);
    d.add_a = f(ADD_A_SHIFT, 3);
    d.add_b = f(ADD_B_SHIFT, 3);
    d.mul_a = f(MUL_A_SHIFT, 3);
    d.mul_b = f(MUL_B_SHIFT, 3);
    d.use_a = d.add_a == MUX_A || d.add_b == MUX_A || d.mul_a == MUX_A || d.mul_b == MUX_A;
    d.use_b = d.add_a == MUX_B || d.add_b == MUX_B || d.mul_a == MUX_B || d.mul_b == MUX_B;
    d.use_r4 = (d.op_add != A_NOP && (d.add_a == MUX_R4 || d.add_b == MUX_R4)) ||
               (d.op_mul != M_NOP && (d.mul_a == MUX_R4 || d.mul_b == MUX_R4));
    if (!kAddOps[d.op_add]) return illegal("reserved add opcode (9..11, 25..29)");
  }
  if (d.pm && d.pack != 0 && (d.pack < 3 || d.pack > 7))
    return illegal("reserved mul pack mode (pm=1, pack 1, 2, 8..15)");
  return d;
}
}  // namespace

std::string raddr_name(unsigned a, bool file_b) {
  if (a < 32) return std::string(file_b ? "rb" : "ra") + std::to_string(a);
  switch (a) {
    case R_UNIFORM:
      return "unif";
    case R_VARYING:
      return "vary";
    case R_ELEM_QPU:
      return file_b ? "qpu_num" : "elem_num";
    case R_NOP:
      return "-";
    case R_XY_PIXEL:
      return file_b ? "y_coord" : "x_coord";
    case R_MS_REV:
      return file_b ? "rev_flag" : "ms_flags";
    case R_VPM:
      return "vpm";
    case R_VPM_BUSY:
      return file_b ? "vw_busy" : "vr_busy";
    case R_VPM_WAIT:
      return file_b ? "vw_wait" : "vr_wait";
    case R_MUTEX:
      return "mutex_acq";
  }
  return std::string(file_b ? "rb" : "ra") + std::to_string(a);  // reserved I/O read
}

std::string waddr_name(unsigned w, bool file_b) {
  if (w < 32) return std::string(file_b ? "rb" : "ra") + std::to_string(w);
  static const char* const kIo[32] = {"r0",
                                      "r1",
                                      "r2",
                                      "r3",
                                      "tmu_noswap",
                                      "r5quad",
                                      "host_int",
                                      "-",
                                      "unif_addr",
                                      "quad_x",
                                      "ms_flags",
                                      "tlb_stencil",
                                      "tlb_z",
                                      "tlb_color_ms",
                                      "tlb_color_all",
                                      "tlb_alpha_mask",
                                      "vpm",
                                      "vr_setup",
                                      "vr_addr",
                                      "mutex_rel",
                                      "sfu_recip",
                                      "sfu_recipsqrt",
                                      "sfu_exp",
                                      "sfu_log",
                                      "tmu0_s",
                                      "tmu0_t",
                                      "tmu0_r",
                                      "tmu0_b",
                                      "tmu1_s",
                                      "tmu1_t",
                                      "tmu1_r",
                                      "tmu1_b"};
  if (file_b) {
    if (w == W_ACC5) return "r5rep";
    if (w == W_QUAD_XY) return "quad_y";
    if (w == W_MS_REV) return "rev_flag";
    if (w == W_VPM_SETUP) return "vw_setup";
    if (w == W_VPM_ADDR) return "vw_addr";
  }
  return kIo[w - 32];
}

namespace {
std::string mux_name(const Instr& d, unsigned mux) {
  if (mux < 6) return "r" + std::to_string(mux);
  if (mux == MUX_A) return raddr_name(d.raddr_a, false);
  if (d.sig == SIG_SMALL_IMM) {
    const unsigned c = d.raddr_b;
    if (c < 32) return std::to_string(int32_t(small_imm_value(c)));
    if (c < 48) {
      char b[24];
      float v;
      uint32_t u = small_imm_value(c);
      std::memcpy(&v, &u, 4);
      snprintf(b, sizeof b, "%g", double(v));
      std::string s = b;
      if (s.find('.') == std::string::npos) s += ".0";
      return s;
    }
    return "0";  // a rotation: the B input is zero
  }
  return raddr_name(d.raddr_b, true);
}

std::string modifiers(const Instr& d) {
  std::string m;
  if (d.kind == Kind::Alu) {
    if (d.sig == SIG_SMALL_IMM && d.raddr_b >= 48)
      m += d.raddr_b == 48 ? " ; rot r5" : " ; rot " + std::to_string(d.raddr_b - 48);
    if (d.unpack) m += std::string(" ; unpack ") + kUnpack[d.unpack];
  }
  if (d.pack) m += std::string(" ; pack ") + kPackA[d.pack];
  if (d.pm) m += " ; pm";
  if (d.ws) m += " ; ws";
  if (d.cond_mul != COND_ALWAYS && d.kind != Kind::Alu)
    m += std::string(" ; mcond ") + (kConds[d.cond_mul][0] ? kConds[d.cond_mul] + 1 : "always");
  return m;
}
}  // namespace

std::string disassemble(uint64_t raw, uint32_t pc) {
  const Instr d = decode(raw);
  const bool add_b = d.ws, mul_b = !d.ws;  // which file each ALU writes
  std::string s;
  switch (d.kind) {
    case Kind::Illegal:
      return "illegal " + hex(uint32_t(raw >> 32)) + hex(uint32_t(raw)).substr(2) + " (" + d.illegal + ")";
    case Kind::Branch: {
      s = std::string(d.br_rel ? "brr" : "bra") + kBranchConds[d.br_cond] + " " + waddr_name(d.waddr_add, add_b) +
          ", " + waddr_name(d.waddr_mul, mul_b) + ", ";
      if (d.br_reg) s += "ra" + std::to_string(d.raddr_a) + "+";
      s += std::to_string(int32_t(d.imm));
      if (d.br_rel && !d.br_reg) s += "  # -> " + hex(pc + 32 + d.imm);
      return s + modifiers(d);
    }
    case Kind::LoadImm:
    case Kind::Semaphore: {
      if (d.kind == Kind::Semaphore)
        s = std::string(d.sem_down ? "sacq" : "srel");
      else
        s = d.li_type == LI_32 ? "ldi" : d.li_type == LI_PER_ELEM_SIGNED ? "ldi.pes" : "ldi.peu";
      s += kConds[d.cond_add];
      if (d.sf) s += ".setf";
      s += " " + waddr_name(d.waddr_add, add_b) + ", " + waddr_name(d.waddr_mul, mul_b) + ", ";
      s += d.kind == Kind::Semaphore ? std::to_string(d.sem) : hex(d.imm);
      return s + modifiers(d);
    }
    case Kind::Alu:
      break;
  }
  const bool add_nop = d.op_add == A_NOP && d.waddr_add == W_NOP;
  const bool mul_nop = d.op_mul == M_NOP && d.waddr_mul == W_NOP;
  if (add_nop) {
    s = "nop";
    if (d.sf) s += ".setf";
  } else {
    s = std::string(kAddOps[d.op_add]) + kConds[d.cond_add] + (d.sf ? ".setf" : "") + " " +
        waddr_name(d.waddr_add, add_b) + ", " + mux_name(d, d.add_a) + ", " + mux_name(d, d.add_b);
  }
  if (!mul_nop)
    s += std::string(" ; ") + kMulOps[d.op_mul] + kConds[d.cond_mul] + " " + waddr_name(d.waddr_mul, mul_b) + ", " +
         mux_name(d, d.mul_a) + ", " + mux_name(d, d.mul_b);
  static const char* const kSig[16] = {"bkpt",  "",       "thrsw",  "thrend", "sbwait", "sbdone", "lthrsw", "loadcv",
                                       "loadc", "ldcend", "ldtmu0", "ldtmu1", "loadam", "",       "",       ""};
  if (kSig[d.sig][0]) s += std::string(" ; ") + kSig[d.sig];
  // Reads with side effects through a field no mux uses.
  const bool a_used = d.add_a == MUX_A || d.add_b == MUX_A || d.mul_a == MUX_A || d.mul_b == MUX_A;
  const bool b_used =
      d.sig != SIG_SMALL_IMM && (d.add_a == MUX_B || d.add_b == MUX_B || d.mul_a == MUX_B || d.mul_b == MUX_B);
  if (!a_used && d.raddr_a != R_NOP) s += " ; read " + raddr_name(d.raddr_a, false);
  if (!b_used && d.sig != SIG_SMALL_IMM && d.raddr_b != R_NOP) s += " ; read " + raddr_name(d.raddr_b, true);
  if (d.sig == SIG_SMALL_IMM && !(d.add_a == MUX_B || d.add_b == MUX_B || d.mul_a == MUX_B || d.mul_b == MUX_B) &&
      d.raddr_b < 48)
    s += " ; imm " + std::to_string(d.raddr_b);
  if (!a_used && d.raddr_a == R_NOP && add_nop && mul_nop && d.sig == SIG_NONE) {
    // plain nop; nothing more
  }
  // Mux values of an ALU that is a nop are kept for an exact round trip when not zero.
  if (add_nop && (d.add_a || d.add_b)) s += " ; amux " + std::to_string(d.add_a) + " " + std::to_string(d.add_b);
  if (mul_nop && (d.mul_a || d.mul_b)) s += " ; mmux " + std::to_string(d.mul_a) + " " + std::to_string(d.mul_b);
  if (add_nop && d.cond_add != COND_NEVER && d.cond_add != COND_ALWAYS)
    s += " ; acond " + std::string(kConds[d.cond_add] + 1);
  if (mul_nop && d.cond_mul != COND_NEVER && d.cond_mul != COND_ALWAYS)
    s += " ; mcond " + std::string(kConds[d.cond_mul] + 1);
  return s + modifiers(d);
}

}  // namespace hetvp::qpu
