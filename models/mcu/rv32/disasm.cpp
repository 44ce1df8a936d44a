// hetvp — RV32IMC + Zicsr disassembler (disasm.h), written from the RISC-V unprivileged
// specification's encoding tables (base, M, Zicsr, C).
#include "models/mcu/rv32/disasm.h"

#include <cstdarg>
#include <cstdio>

namespace hetvp::mcu::rv32 {

namespace {
const char* const kReg[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                              "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                              "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
uint32_t bits(uint32_t x, unsigned hi, unsigned lo) { return (x >> lo) & ((1u << (hi - lo + 1)) - 1); }
int32_t sext(uint32_t x, unsigned width) { return static_cast<int32_t>(x << (32 - width)) >> (32 - width); }
const char* r(uint32_t i) { return kReg[i & 31]; }
const char* rc(uint32_t i) { return kReg[8 + (i & 7)]; }  // the compressed forms' x8..x15

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char b[96];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(b, sizeof b, f, ap);
  va_end(ap);
  return b;
}

std::string csr_name(uint32_t c) {
  switch (c) {
    case 0x300: return "mstatus";
    case 0x301: return "misa";
    case 0x304: return "mie";
    case 0x305: return "mtvec";
    case 0x340: return "mscratch";
    case 0x341: return "mepc";
    case 0x342: return "mcause";
    case 0x343: return "mtval";
    case 0x344: return "mip";
    case 0xb00: return "mcycle";
    case 0xb02: return "minstret";
    case 0xc00: return "cycle";
    case 0xc01: return "time";
    case 0xc02: return "instret";
    case 0xf14: return "mhartid";
    default: return fmt("0x%03x", c);
  }
}

std::string word(uint32_t insn) { return fmt(".word 0x%08x", insn); }

std::string base(uint32_t in, uint32_t pc) {
  const uint32_t rd = bits(in, 11, 7), rs1 = bits(in, 19, 15), rs2 = bits(in, 24, 20), f3 = bits(in, 14, 12),
                 f7 = bits(in, 31, 25);
  const int32_t imm_i = sext(bits(in, 31, 20), 12);
  switch (in & 0x7f) {
    case 0x37: return fmt("lui %s,0x%x", r(rd), in >> 12);
    case 0x17: return fmt("auipc %s,0x%x", r(rd), in >> 12);
    case 0x6f: {
      const int32_t off = sext(bits(in, 31, 31) << 20 | bits(in, 19, 12) << 12 | bits(in, 20, 20) << 11 |
                                   bits(in, 30, 21) << 1,
                               21);
      return rd == 0 ? fmt("j 0x%x", pc + off) : fmt("jal %s,0x%x", r(rd), pc + off);
    }
    case 0x67:
      if (rd == 0 && rs1 == 1 && imm_i == 0) return "ret";
      return fmt("jalr %s,%d(%s)", r(rd), imm_i, r(rs1));
    case 0x63: {
      static const char* const n[8] = {"beq", "bne", nullptr, nullptr, "blt", "bge", "bltu", "bgeu"};
      if (!n[f3]) return word(in);
      const int32_t off =
          sext(bits(in, 31, 31) << 12 | bits(in, 7, 7) << 11 | bits(in, 30, 25) << 5 | bits(in, 11, 8) << 1, 13);
      return fmt("%s %s,%s,0x%x", n[f3], r(rs1), r(rs2), pc + off);
    }
    case 0x03: {
      static const char* const n[8] = {"lb", "lh", "lw", nullptr, "lbu", "lhu", nullptr, nullptr};
      return n[f3] ? fmt("%s %s,%d(%s)", n[f3], r(rd), imm_i, r(rs1)) : word(in);
    }
    case 0x23: {
      static const char* const n[8] = {"sb", "sh", "sw", nullptr, nullptr, nullptr, nullptr, nullptr};
      const int32_t off = sext(f7 << 5 | rd, 12);
      return n[f3] ? fmt("%s %s,%d(%s)", n[f3], r(rs2), off, r(rs1)) : word(in);
    }
    case 0x13: {
      if (f3 == 0 && rd == 0 && rs1 == 0 && imm_i == 0) return "nop";
      if (f3 == 0 && rs1 == 0) return fmt("li %s,%d", r(rd), imm_i);
      if (f3 == 0 && imm_i == 0) return fmt("mv %s,%s", r(rd), r(rs1));
      if (f3 == 1) return fmt("slli %s,%s,%u", r(rd), r(rs1), rs2);
      if (f3 == 5) return fmt("%s %s,%s,%u", f7 & 0x20 ? "srai" : "srli", r(rd), r(rs1), rs2);
      static const char* const n[8] = {"addi", nullptr, "slti", "sltiu", "xori", nullptr, "ori", "andi"};
      return fmt("%s %s,%s,%d", n[f3], r(rd), r(rs1), imm_i);
    }
    case 0x33: {
      static const char* const n0[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
      static const char* const nm[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
      const char* n = f7 == 1 ? nm[f3] : f7 == 0 ? n0[f3] : (f7 == 0x20 && f3 == 0) ? "sub"
                                                         : (f7 == 0x20 && f3 == 5) ? "sra" : nullptr;
      return n ? fmt("%s %s,%s,%s", n, r(rd), r(rs1), r(rs2)) : word(in);
    }
    case 0x0f: return f3 == 1 ? "fence.i" : "fence";
    case 0x73: {
      if (f3 == 0) {
        switch (in) {
          case 0x00000073: return "ecall";
          case 0x00100073: return "ebreak";
          case 0x30200073: return "mret";
          case 0x10500073: return "wfi";
          default: return word(in);
        }
      }
      static const char* const n[8] = {nullptr, "csrrw", "csrrs", "csrrc", nullptr, "csrrwi", "csrrsi", "csrrci"};
      if (!n[f3]) return word(in);
      const std::string c = csr_name(bits(in, 31, 20));
      if (f3 == 2 && rs1 == 0) return fmt("csrr %s,%s", r(rd), c.c_str());
      if (f3 >= 5) return fmt("%s %s,%s,%u", n[f3], r(rd), c.c_str(), rs1);
      return fmt("%s %s,%s,%s", n[f3], r(rd), c.c_str(), r(rs1));
    }
    default: return word(in);
  }
}

std::string compressed(uint32_t in, uint32_t pc) {
  const uint32_t f3 = bits(in, 15, 13), rd = bits(in, 11, 7), rs2 = bits(in, 6, 2);
  const int32_t imm6 = sext(bits(in, 12, 12) << 5 | bits(in, 6, 2), 6);
  auto half = [&] { return fmt(".half 0x%04x", in & 0xffff); };
  switch (in & 3) {
    case 0: {
      const uint32_t off = bits(in, 12, 10) << 3 | bits(in, 6, 6) << 2 | bits(in, 5, 5) << 6;
      if (f3 == 0) {
        const uint32_t nz = bits(in, 12, 11) << 4 | bits(in, 10, 7) << 6 | bits(in, 6, 6) << 2 | bits(in, 5, 5) << 3;
        return nz ? fmt("addi %s,sp,%u", rc(bits(in, 4, 2)), nz) : half();
      }
      if (f3 == 2) return fmt("lw %s,%u(%s)", rc(bits(in, 4, 2)), off, rc(bits(in, 9, 7)));
      if (f3 == 6) return fmt("sw %s,%u(%s)", rc(bits(in, 4, 2)), off, rc(bits(in, 9, 7)));
      return half();
    }
    case 1: {
      const int32_t joff = sext(bits(in, 12, 12) << 11 | bits(in, 11, 11) << 4 | bits(in, 10, 9) << 8 |
                                    bits(in, 8, 8) << 10 | bits(in, 7, 7) << 6 | bits(in, 6, 6) << 7 |
                                    bits(in, 5, 3) << 1 | bits(in, 2, 2) << 5,
                                12);
      const int32_t boff = sext(bits(in, 12, 12) << 8 | bits(in, 11, 10) << 3 | bits(in, 6, 5) << 6 |
                                    bits(in, 4, 3) << 1 | bits(in, 2, 2) << 5,
                                9);
      const uint32_t rdc = bits(in, 9, 7);
      switch (f3) {
        case 0: return rd == 0 ? std::string("nop") : fmt("addi %s,%s,%d", r(rd), r(rd), imm6);
        case 1: return fmt("jal 0x%x", pc + joff);
        case 2: return fmt("li %s,%d", r(rd), imm6);
        case 3:
          if (rd == 2) {
            const int32_t nz = sext(bits(in, 12, 12) << 9 | bits(in, 6, 6) << 4 | bits(in, 5, 5) << 6 |
                                        bits(in, 4, 3) << 7 | bits(in, 2, 2) << 5,
                                    10);
            return fmt("addi sp,sp,%d", nz);
          }
          return fmt("lui %s,0x%x", r(rd), static_cast<uint32_t>(imm6) & 0xfffff);
        case 4: {
          const uint32_t sh = bits(in, 12, 12) << 5 | bits(in, 6, 2);
          switch (bits(in, 11, 10)) {
            case 0: return fmt("srli %s,%s,%u", rc(rdc), rc(rdc), sh);
            case 1: return fmt("srai %s,%s,%u", rc(rdc), rc(rdc), sh);
            case 2: return fmt("andi %s,%s,%d", rc(rdc), rc(rdc), imm6);
            default: {
              if (bits(in, 12, 12)) return half();
              static const char* const n[4] = {"sub", "xor", "or", "and"};
              return fmt("%s %s,%s,%s", n[bits(in, 6, 5)], rc(rdc), rc(rdc), rc(bits(in, 4, 2)));
            }
          }
        }
        case 5: return fmt("j 0x%x", pc + joff);
        case 6: return fmt("beqz %s,0x%x", rc(rdc), pc + boff);
        default: return fmt("bnez %s,0x%x", rc(rdc), pc + boff);
      }
    }
    case 2: {
      switch (f3) {
        case 0: return fmt("slli %s,%s,%u", r(rd), r(rd), bits(in, 12, 12) << 5 | rs2);
        case 2: {
          const uint32_t off = bits(in, 12, 12) << 5 | bits(in, 6, 4) << 2 | bits(in, 3, 2) << 6;
          return fmt("lw %s,%u(sp)", r(rd), off);
        }
        case 4:
          if (!bits(in, 12, 12)) {
            if (rs2 == 0) return rd == 1 ? std::string("ret") : fmt("jr %s", r(rd));
            return fmt("mv %s,%s", r(rd), r(rs2));
          }
          if (rd == 0 && rs2 == 0) return "ebreak";
          if (rs2 == 0) return fmt("jalr %s", r(rd));
          return fmt("add %s,%s,%s", r(rd), r(rd), r(rs2));
        case 6: {
          const uint32_t off = bits(in, 12, 9) << 2 | bits(in, 8, 7) << 6;
          return fmt("sw %s,%u(sp)", r(rs2), off);
        }
        default: return half();
      }
    }
  }
  return half();
}
}  // namespace

std::string disassemble(uint32_t insn, uint32_t pc, unsigned& len) {
  if ((insn & 3) != 3) {
    len = 2;
    return compressed(insn & 0xffff, pc);
  }
  len = 4;
  return base(insn, pc);
}

}  // namespace hetvp::mcu::rv32
