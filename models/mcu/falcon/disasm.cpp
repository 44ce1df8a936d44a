// hetvp — Falcon v3/v5 disassembler. Uses the core's decoder for the operation and operands, and the raw
// opcode byte for the form (2 or 3 operands), so the text follows the operand order of the forms in
// envytools docs/hw/falcon/*.rst.
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/falcon/core.h"
#include "models/mcu/falcon/ops.h"

#include <cstdio>

namespace hetvp::mcu::falcon {

namespace {
std::string reg(unsigned r) { return r == 16 ? "$sp" : "$r" + std::to_string(r); }
std::string hx(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}
std::string shx(int32_t v) { return v < 0 ? "-" + hx(static_cast<uint32_t>(-static_cast<int64_t>(v))) : hx(v); }
const char* kSize[3] = {"b8", "b16", "b32"};
std::string flag_name(uint32_t bit) {
  bit &= 0x1f;
  if (bit < 8) return "$p" + std::to_string(bit);
  switch (bit) {
    case 8:
      return "c";
    case 9:
      return "o";
    case 0xa:
      return "s";
    case 0xb:
      return "z";
    case 0x10:
      return "ie0";
    case 0x11:
      return "ie1";
    case 0x14:
      return "is0";
    case 0x15:
      return "is1";
    case 0x18:
      return "ta";
    default:
      return "???";
  }
}
std::string sr_name(unsigned sr) {
  static const char* const n[16] = {"iv0",   "iv1", nullptr, "tv",       "sp",      "pc",    "xcbase", "xdbase",
                                    "flags", "cx",  "cauth", "xtargets", "tstatus", nullptr, nullptr,  nullptr};
  return n[sr & 15] ? std::string("$") + n[sr & 15] : "$s" + std::to_string(sr & 15);
}
std::string cond_name(unsigned cc) {
  if (cc < 8) return "$p" + std::to_string(cc);
  if (cc >= 0x10 && cc < 0x18) return "not $p" + std::to_string(cc - 0x10);
  static const char* const n[16] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                    "b",     "o",     "s",     "e",     "a",     "be",    "",      "???"};
  static const char* const m[8] = {"ae", "no", "ns", "ne", "g", "le", "l", "ge"};
  return cc < 0x10 ? n[cc] : m[cc - 0x18];
}
std::string mem(const char* space, const Insn& i, unsigned scale) {
  std::string s = std::string(space) + "[" + reg(i.b);
  if (i.imm_form) {
    if (i.imm) s += "+" + hx(i.imm * scale);
  } else {
    s += "+" + reg(i.c) + "*" + std::to_string(scale);
  }
  return s + "]";
}
}  // namespace

std::string disassemble(const uint8_t* b, uint32_t pc, unsigned& len, unsigned version) {
  Insn i;
  FalconCore::decode(b, i, version);
  len = i.len;
  const unsigned b0 = b[0];
  const bool sized = (b0 >> 6) != 3;
  const unsigned low6 = b0 & 0x3f;
  // two-operand forms: sized 30/31/36/37/38/3b/3d, unsized f0/f1/fd
  // (v5's 0x38 is a three-operand form; its other new forms print like their v3 equivalents)
  const bool two = sized ? (low6 == 0x36 || low6 == 0x37 || low6 == 0x3b) : (b0 == 0xf0 || b0 == 0xf1 || b0 == 0xfd);
  const std::string mn = op_mnemonic(i.op);
  const std::string sz = kSize[i.sz];
  const std::string src2 = i.imm_form ? hx(i.imm) : reg(i.c);
  const std::string ssrc2 = i.imm_form ? shx(static_cast<int32_t>(i.imm)) : reg(i.c);
  switch (i.op) {
    case OP_INVALID:
      return "???";
    case OP_ST:
      return mn + " " + sz + " " + mem("D", i, 1u << i.sz) + " " + reg(i.a);
    case OP_LD:
      return mn + " " + sz + " " + reg(i.a) + " " + mem("D", i, 1u << i.sz);
    case OP_CMPU:
      return mn + " " + sz + " " + reg(i.b) + " " + src2;
    case OP_CMPS:
    case OP_CMP:
      return mn + " " + sz + " " + reg(i.b) + " " + ssrc2;
    case OP_ADD:
    case OP_ADC:
    case OP_SUB:
    case OP_SBB:
    case OP_SHL:
    case OP_SHR:
    case OP_SAR:
    case OP_SHLC:
    case OP_SHRC:
      if (two) return mn + " " + sz + " " + reg(i.a) + " " + src2;
      return mn + " " + sz + " " + reg(i.a) + " " + reg(i.b) + " " + src2;
    case OP_NOT:
    case OP_NEG:
    case OP_MOVS:
    case OP_HSWAP:
      if (low6 == 0x3d) return mn + " " + sz + " " + reg(i.a);
      return mn + " " + sz + " " + reg(i.a) + " " + reg(i.b);
    case OP_NOP:
    case OP_CLEAR:
    case OP_SETF:
      return mn + " " + sz + " " + reg(i.a);
    case OP_MULS:
      if (two) return mn + " " + reg(i.a) + " " + ssrc2;
      return mn + " " + reg(i.a) + " " + reg(i.b) + " " + ssrc2;
    case OP_EXTR:
    case OP_EXTRS:
    case OP_INS:
      if (i.imm_form) {
        const uint32_t lo = i.imm & 0x1f, hi = lo + ((i.imm >> 5) & 0x1f);
        return mn + " " + reg(i.a) + " " + reg(i.b) + " " + hx(lo) + ":" + hx(hi);
      }
      return mn + " " + reg(i.a) + " " + reg(i.b) + " " + reg(i.c);
    case OP_MULU:
    case OP_SEXT:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_XBIT:
    case OP_DIV:
    case OP_MOD:
    case OP_BSET:
    case OP_BCLR:
    case OP_BTGL:
      if (two) return mn + " " + reg(i.a) + " " + src2;
      return mn + " " + reg(i.a) + " " + reg(i.b) + " " + src2;
    case OP_IORD:
    case OP_IORDS:
      return mn + " " + reg(i.a) + " " + mem("I", i, 4);
    case OP_IOWR:
    case OP_IOWRS:
      return mn + " " + mem("I", i, 4) + " " + reg(i.a);
    case OP_SETHI:
      return mn + " " + reg(i.a) + " " + hx(i.imm << 16);
    case OP_MOVI:
      return mn + " " + reg(i.a) + " " + shx(static_cast<int32_t>(i.imm));
    case OP_MOVI32:  // v5: a full 32-bit immediate, printed unsigned
      return mn + " " + reg(i.a) + " " + hx(i.imm);
    case OP_BRACMP:
      return mn + " " + sz + " " + reg(i.b) + " " + hx(i.imm & 0xffff) + (i.a ? " ne " : " e ") +
             hx((pc + static_cast<uint32_t>(static_cast<int32_t>(i.imm) >> 16)) & 0xffff);
    case OP_LBRA:
    case OP_LCALL:
      return mn + " " + hx(i.imm);
    case OP_XBITF:
      return mn + " " + reg(i.a) + " $flags " + (i.imm_form ? flag_name(i.imm) : reg(i.c));
    case OP_SETP:
      return i.imm_form ? mn + " " + flag_name(i.imm) + " " + reg(i.b) : mn + " " + reg(i.c) + " " + reg(i.b);
    case OP_BSETF:
    case OP_BCLRF:
    case OP_BTGLF:
      return mn + " $flags " + (i.imm_form ? flag_name(i.imm) : reg(i.c));
    case OP_BRA: {
      const std::string c = cond_name(i.a);
      return mn + " " + (c.empty() ? "" : c + " ") + hx((pc + i.imm) & 0xffff);
    }
    case OP_JMP:
      return std::string("bra ") + (i.imm_form ? hx(i.imm) : reg(i.c));
    case OP_CALL:
      return mn + " " + (i.imm_form ? hx(i.imm) : reg(i.c));
    case OP_SLEEP:
      return mn + " " + flag_name(i.imm);
    case OP_ADDSP:
      return mn + " $sp " + ssrc2;
    case OP_TRAP:
      return mn + " " + hx(i.imm);
    case OP_PUSH:
    case OP_POP:
      return mn + " " + reg(i.a);
    case OP_MOVTSR:
      return mn + " " + sr_name(i.a) + " " + reg(i.b);
    case OP_MOVFSR:
      return mn + " " + reg(i.a) + " " + sr_name(i.b);
    case OP_ITLB:
      return mn + " " + reg(i.b);
    case OP_PTLB:
    case OP_VTLB:
      return mn + " " + reg(i.a) + " " + reg(i.b);
    case OP_XCLD:
    case OP_XDLD:
    case OP_XDST:
      return mn + " " + reg(i.b) + " " + reg(i.c);
    default:
      return mn;
  }
}

// The instruction at the core's virtual pc, as the model's --trace prints it.
std::string FalconCore::disassemble_at(uint32_t pc) const {
  uint8_t b[kInsnBytes];
  fetch_bytes(pc, b);
  unsigned len = 0;
  return disassemble(b, pc, len, version());
}

}  // namespace hetvp::mcu::falcon
