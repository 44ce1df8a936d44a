// hetvp — Falcon disassembler, driven by the assembler's table of instruction forms
// (asm/isa_forms.h: one table for both), printing envydis's syntax so listings compare with envydis:
// the first form, in table order, of the given Falcon version whose fixed bits match is the instruction
// (the assembler's choice among equal encodings is the same, e.g. `mov` before `movw`).
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/falcon/asm/isa_forms.h"
#include "models/mcu/falcon/core.h"

#include <cstdio>

namespace hetvp::mcu::falcon {

namespace {
using isa::Kind;

std::string reg(unsigned r) { return r == 16 ? "$sp" : "$r" + std::to_string(r); }
std::string hx(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
std::string shx(int64_t v) { return v < 0 ? "-" + hx(static_cast<uint64_t>(-v)) : hx(static_cast<uint64_t>(v)); }
const char* kSize[4] = {"b8", "b16", "b32", "b??"};
std::string flag_name(uint32_t bit) {
  bit &= 0x1f;
  if (bit < 8) return "$p" + std::to_string(bit);
  static const char* const n[0x20] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, "c",
                                      "o",     "s",     "z",     nullptr, nullptr, nullptr, nullptr, "ie0",   "ie1",
                                      nullptr, nullptr, "is0",   "is1",   nullptr, nullptr, "ta"};
  return n[bit] ? n[bit] : "???";
}
std::string sr_name(unsigned sr) {
  static const char* const n[16] = {"iv0",   "iv1", nullptr, "tv",       "sp",      "pc",    "xcbase", "xdbase",
                                    "flags", "cx",  "cauth", "xtargets", "tstatus", nullptr, nullptr,  nullptr};
  return n[sr & 15] ? std::string("$") + n[sr & 15] : "$s" + std::to_string(sr & 15);
}
std::string cond_name(unsigned cc) {
  if (cc < 8) return "$p" + std::to_string(cc);
  if (cc >= 0x10 && cc < 0x18) return "not $p" + std::to_string(cc - 0x10);
  static const char* const n[8] = {"b", "o", "s", "e", "a", "be", "", "???"};
  static const char* const m[8] = {"ae", "no", "ns", "ne", "g", "le", "l", "ge"};
  return cc < 0x10 ? n[cc - 8] : m[cc - 0x18];
}

uint64_t field(uint64_t w, unsigned pos, unsigned width) { return (w >> pos) & ((uint64_t{1} << width) - 1); }
int64_t sext(uint64_t v, unsigned width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}
uint64_t ones(unsigned pos, unsigned width) { return ((uint64_t{1} << width) - 1) << pos; }

// The bits a form fixes: everything inside its length that no operand occupies, less the bits the
// hardware ignores where envydis ignores them too (so a stray bit there decodes as envydis decodes it).
uint64_t fixed_mask(const isa::Form& f) {
  uint64_t m = f.length >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * f.length)) - 1;
  bool uses_20 = false;
  for (const isa::Operand& o : f.operands) {
    switch (o.kind) {
      case Kind::Size:
        m &= ~ones(6, 2);
        break;
      case Kind::Reg:
      case Kind::SReg:
        m &= ~ones(o.pos, 4);
        uses_20 |= o.pos == 20;
        break;
      case Kind::Imm:
      case Kind::PcRel:
        m &= ~ones(o.pos, o.width);
        uses_20 |= o.pos <= 20 && o.pos + o.width > 20;
        break;
      case Kind::Cond:
        m &= ~ones(o.pos, 5);
        break;
      case Kind::Flag:
        m &= ~ones(o.pos, 8);
        uses_20 = true;
        break;
      case Kind::BitField:
        m &= ~ones(16, 5 + o.width);
        uses_20 = true;
        break;
      case Kind::Mem:
        if (o.mem != isa::D_SPI) m &= ~ones(o.pos, 4);  // the base (D_SPR: the index)
        if (o.mem == isa::D_RR || o.mem == isa::I_RR) {
          m &= ~ones(o.pos2, 4);
          uses_20 |= o.pos2 == 20;
        }
        if (o.mem == isa::D_RI || o.mem == isa::I_RI || o.mem == isa::D_SPI) {
          m &= ~ones(16, 8);
          uses_20 = true;
        }
        break;
      default:
        break;
    }
  }
  const unsigned b0 = f.bits & 0xff;
  if (f.length == 3 && !uses_20) m &= ~ones(20, 4);  // a sub-opcode nibble at 16-19 leaves 20-23 free
  if (b0 == 0xf4 || b0 == 0xf5) m &= ~ones(14, 2);
  if (b0 == 0xf8) m &= ~ones(12, 4);
  if (f.length == 5 && (b0 & 0x3f) == 0x38) m &= ~ones(36, 4);
  return m;
}

std::string mem(const isa::Operand& o, uint64_t w, unsigned size_shift) {
  const bool io = o.mem >= isa::I_RI;
  const unsigned sh = io ? 2 : size_shift;
  std::string s = std::string(io ? "I[" : "D[");
  const bool sp = o.mem == isa::D_SPI || o.mem == isa::D_SPR;
  s += sp ? "$sp" : reg(static_cast<unsigned>(field(w, o.pos, 4)));
  switch (o.mem) {
    case isa::D_RI:
    case isa::I_RI:
    case isa::D_SPI:
      if (const uint64_t imm = field(w, 16, 8)) s += "+" + hx(imm << sh);
      break;
    case isa::D_SPR:
      s += "+" + reg(static_cast<unsigned>(field(w, o.pos, 4))) + "*" + std::to_string(1u << sh);
      break;
    case isa::D_RR:
    case isa::I_RR:
      s += "+" + reg(static_cast<unsigned>(field(w, o.pos2, 4))) + "*" + std::to_string(1u << sh);
      break;
    default:
      break;
  }
  return s + "]";
}

uint8_t version_bit(unsigned version) {
  return version >= 5 ? isa::V5 : version == 4 ? isa::V4 : version == 0 ? isa::V0 : isa::V3;
}
}  // namespace

std::string disassemble(const uint8_t* b, uint32_t pc, unsigned& len, unsigned version) {
  static const std::vector<uint64_t> masks = [] {
    std::vector<uint64_t> m;
    for (const isa::Form& f : isa::forms()) m.push_back(fixed_mask(f));
    return m;
  }();
  uint64_t w = 0;
  for (unsigned k = 0; k < FalconCore::kInsnBytes && k < 8; ++k) w |= static_cast<uint64_t>(b[k]) << (8 * k);
  const uint8_t v = version_bit(version);
  const std::vector<isa::Form>& forms = isa::forms();
  for (size_t n = 0; n < forms.size(); ++n) {
    const isa::Form& f = forms[n];
    if (!(f.versions & v) || (w & masks[n]) != (f.bits & masks[n])) continue;
    if (!f.operands.empty() && f.operands[0].kind == Kind::Size && field(w, 6, 2) == 3) continue;  // 3: unsized
    len = f.length;
    std::string s = f.mnemonic;
    unsigned size_shift = 0;
    for (const isa::Operand& o : f.operands) {
      std::string t;
      switch (o.kind) {
        case Kind::Size:
          size_shift = static_cast<unsigned>(field(w, 6, 2));
          t = kSize[size_shift];
          break;
        case Kind::Reg:
          t = reg(static_cast<unsigned>(field(w, o.pos, 4)));
          break;
        case Kind::SReg:
          t = sr_name(static_cast<unsigned>(field(w, o.pos, 4)));
          break;
        case Kind::Imm: {
          const uint64_t raw = field(w, o.pos, o.width);
          t = (o.flags & isa::kSigned) ? shx(sext(raw, o.width) * (int64_t{1} << o.shift)) : hx(raw << o.shift);
          break;
        }
        case Kind::PcRel:
          t = hx((pc + static_cast<uint64_t>(sext(field(w, o.pos, o.width), o.width))) & 0xffff);
          break;
        case Kind::Cond:
          t = cond_name(static_cast<unsigned>(field(w, o.pos, 5)));
          break;
        case Kind::Flag:
          t = flag_name(static_cast<uint32_t>(field(w, o.pos, 5)));
          break;
        case Kind::Sp:
          t = "$sp";
          break;
        case Kind::Flags:
          t = "$flags";
          break;
        case Kind::Word:
          t = o.word;
          break;
        case Kind::Mem:
          t = mem(o, w, size_shift);
          break;
        case Kind::BitField: {
          const uint64_t lo = field(w, 16, 5);
          t = hx(lo) + ":" + hx(lo + field(w, 21, o.width));
          break;
        }
      }
      if (!t.empty()) s += " " + t;
    }
    return s;
  }
  len = 1;
  return "???";
}

// The instruction at the core's virtual pc, as the model's --trace prints it.
std::string FalconCore::disassemble_at(uint32_t pc) const {
  uint8_t b[kInsnBytes];
  fetch_bytes(pc, b);
  unsigned len = 0;
  return disassemble(b, pc, len, version());
}

}  // namespace hetvp::mcu::falcon
