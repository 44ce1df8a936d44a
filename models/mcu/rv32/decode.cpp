// hetvp — RV32IMC + Zicsr decoder: raw instruction bits -> Insn (op index, operands, cost).
#include "models/mcu/rv32/core.h"
#include "models/mcu/rv32/ops.h"

namespace hetvp::mcu::rv32 {

namespace {

inline int32_t sext(uint32_t v, unsigned bits) {
  const uint32_t m = 1u << (bits - 1);
  return static_cast<int32_t>((v ^ m) - m);
}
inline uint8_t rdmap(uint32_t r) { return r == 0 ? 32 : static_cast<uint8_t>(r); }

struct D {
  Insn& o;
  const CycleCosts& c;
  void set(Op op, uint32_t rd, uint32_t rs1, uint32_t rs2, int32_t imm, uint32_t cost) {
    o.op = op;
    o.rd = rdmap(rd);
    o.rs1 = static_cast<uint8_t>(rs1);
    o.rs2 = static_cast<uint8_t>(rs2);
    o.imm = imm;
    o.cost = static_cast<uint16_t>(cost);
  }
  void illegal() { set(OP_ILLEGAL, 0, 0, 0, 0, c.trap); }
};

void decode32(uint32_t raw, D& d) {
  const CycleCosts& c = d.c;
  const uint32_t opc = raw & 0x7f, rd = (raw >> 7) & 31, f3 = (raw >> 12) & 7;
  const uint32_t rs1 = (raw >> 15) & 31, rs2 = (raw >> 20) & 31, f7 = raw >> 25;
  const int32_t immI = static_cast<int32_t>(raw) >> 20;
  const int32_t immS = sext(((raw >> 25) << 5) | ((raw >> 7) & 31), 12);
  const int32_t immB = sext(
      ((raw >> 31) << 12) | (((raw >> 7) & 1) << 11) | (((raw >> 25) & 0x3f) << 5) | (((raw >> 8) & 0xf) << 1), 13);
  const int32_t immU = static_cast<int32_t>(raw & 0xfffff000u);
  const int32_t immJ =
      sext(((raw >> 31) << 20) | (raw & 0xff000u) | (((raw >> 20) & 1) << 11) | (((raw >> 21) & 0x3ff) << 1), 21);
  switch (opc) {
    case 0x37:
      d.set(OP_LI, rd, 0, 0, immU, c.alu);
      return;
    case 0x17:
      d.set(OP_AUIPC, rd, 0, 0, immU, c.alu);
      return;
    case 0x6f:
      d.set(OP_JAL, rd, 0, 0, immJ, c.jump);
      return;
    case 0x67:
      if (f3 != 0) break;
      d.set(OP_JALR, rd, rs1, 0, immI, c.jump);
      return;
    case 0x63: {
      static const Op ops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU};
      if (ops[f3] == OP_ILLEGAL) break;
      d.set(ops[f3], 0, rs1, rs2, immB, c.branch);
      return;
    }
    case 0x03: {
      static const Op ops[8] = {OP_LB, OP_LH, OP_LW, OP_ILLEGAL, OP_LBU, OP_LHU, OP_ILLEGAL, OP_ILLEGAL};
      if (ops[f3] == OP_ILLEGAL) break;
      d.set(ops[f3], rd, rs1, 0, immI, c.load);
      return;
    }
    case 0x23: {
      static const Op ops[8] = {OP_SB, OP_SH, OP_SW, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
      if (ops[f3] == OP_ILLEGAL) break;
      d.set(ops[f3], 0, rs1, rs2, immS, c.store);
      return;
    }
    case 0x13:
      switch (f3) {
        case 0:
          d.set(rs1 == 0 ? OP_LI : OP_ADDI, rd, rs1, 0, immI, c.alu);
          return;
        case 2:
          d.set(OP_SLTI, rd, rs1, 0, immI, c.alu);
          return;
        case 3:
          d.set(OP_SLTIU, rd, rs1, 0, immI, c.alu);
          return;
        case 4:
          d.set(OP_XORI, rd, rs1, 0, immI, c.alu);
          return;
        case 6:
          d.set(OP_ORI, rd, rs1, 0, immI, c.alu);
          return;
        case 7:
          d.set(OP_ANDI, rd, rs1, 0, immI, c.alu);
          return;
        case 1:
          if (f7 != 0) break;
          d.set(OP_SLLI, rd, rs1, 0, static_cast<int32_t>(rs2), c.alu);
          return;
        case 5:
          if (f7 == 0) {
            d.set(OP_SRLI, rd, rs1, 0, static_cast<int32_t>(rs2), c.alu);
            return;
          }
          if (f7 == 0x20) {
            d.set(OP_SRAI, rd, rs1, 0, static_cast<int32_t>(rs2), c.alu);
            return;
          }
          break;
      }
      break;
    case 0x33:
      if (f7 == 0) {
        static const Op ops[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND};
        d.set(ops[f3], rd, rs1, rs2, 0, c.alu);
        return;
      }
      if (f7 == 0x20) {
        if (f3 == 0) {
          d.set(OP_SUB, rd, rs1, rs2, 0, c.alu);
          return;
        }
        if (f3 == 5) {
          d.set(OP_SRA, rd, rs1, rs2, 0, c.alu);
          return;
        }
        break;
      }
      if (f7 == 1) {
        static const Op ops[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU};
        d.set(ops[f3], rd, rs1, rs2, 0, f3 < 4 ? c.mul : c.div);
        return;
      }
      break;
    case 0x0f:
      if (f3 == 0) {
        d.set(OP_NOP, 0, 0, 0, 0, c.alu);
        return;
      }  // fence (single hart: no-op)
      if (f3 == 1) {
        d.set(OP_FENCE_I, 0, 0, 0, 0, c.system);
        return;
      }
      break;
    case 0x73:
      if (f3 == 0) {
        if (raw == 0x00000073u) {
          d.set(OP_ECALL, 0, 0, 0, 0, c.system);
          return;
        }
        if (raw == 0x00100073u) {
          d.set(OP_EBREAK, 0, 0, 0, 0, c.system);
          return;
        }
        if (raw == 0x30200073u) {
          d.set(OP_MRET, 0, 0, 0, 0, c.system);
          return;
        }
        if (raw == 0x10500073u) {
          d.set(OP_WFI, 0, 0, 0, 0, c.system);
          return;
        }
        break;
      }
      if (f3 == 4) break;
      {
        static const Op ops[8] = {OP_ILLEGAL, OP_CSRRW,  OP_CSRRS,  OP_CSRRC,
                                  OP_ILLEGAL, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI};
        // rs1 holds the register number or the 5-bit immediate; imm = csr number
        d.set(ops[f3], rd, rs1, 0, static_cast<int32_t>(raw >> 20), c.csr);
        return;
      }
    default:
      break;
  }
  d.illegal();
}

void decode16(uint32_t raw, D& d) {
  const CycleCosts& c = d.c;
  const uint32_t q = raw & 3, f3 = (raw >> 13) & 7;
  const uint32_t rdf = (raw >> 7) & 31, rs2f = (raw >> 2) & 31;
  const uint32_t rdp = 8 + ((raw >> 2) & 7), rs1p = 8 + ((raw >> 7) & 7);
  const int32_t imm6 = sext((((raw >> 12) & 1) << 5) | ((raw >> 2) & 31), 6);
  if (q == 0) {
    switch (f3) {
      case 0: {
        const uint32_t nz =
            (((raw >> 7) & 0xf) << 6) | (((raw >> 11) & 3) << 4) | (((raw >> 5) & 1) << 3) | (((raw >> 6) & 1) << 2);
        if (nz == 0) break;  // includes the all-zero illegal instruction
        d.set(OP_ADDI, rdp, 2, 0, static_cast<int32_t>(nz), c.alu);
        return;
      }
      case 2:
      case 6: {
        const uint32_t off = (((raw >> 10) & 7) << 3) | (((raw >> 6) & 1) << 2) | (((raw >> 5) & 1) << 6);
        if (f3 == 2)
          d.set(OP_LW, rdp, rs1p, 0, static_cast<int32_t>(off), c.load);
        else
          d.set(OP_SW, 0, rs1p, rdp, static_cast<int32_t>(off), c.store);
        return;
      }
      default:
        break;  // c.fld/c.flw/c.fsd/c.fsw and reserved
    }
  } else if (q == 1) {
    switch (f3) {
      case 0:
        d.set(rdf == 0 ? OP_NOP : OP_ADDI, rdf, rdf, 0, imm6, c.alu);
        return;  // c.nop / c.addi
      case 1:
      case 5: {  // c.jal / c.j
        const uint32_t j = (((raw >> 12) & 1) << 11) | (((raw >> 11) & 1) << 4) | (((raw >> 9) & 3) << 8) |
                           (((raw >> 8) & 1) << 10) | (((raw >> 7) & 1) << 6) | (((raw >> 6) & 1) << 7) |
                           (((raw >> 3) & 7) << 1) | (((raw >> 2) & 1) << 5);
        d.set(OP_JAL, f3 == 1 ? 1 : 0, 0, 0, sext(j, 12), c.jump);
        return;
      }
      case 2:
        d.set(OP_LI, rdf, 0, 0, imm6, c.alu);
        return;  // c.li
      case 3:
        if (rdf == 2) {  // c.addi16sp
          const uint32_t v = (((raw >> 12) & 1) << 9) | (((raw >> 6) & 1) << 4) | (((raw >> 5) & 1) << 6) |
                             (((raw >> 3) & 3) << 7) | (((raw >> 2) & 1) << 5);
          if (v == 0) break;
          d.set(OP_ADDI, 2, 2, 0, sext(v, 10), c.alu);
          return;
        }
        if (imm6 == 0) break;  // c.lui with 0 is reserved
        d.set(OP_LI, rdf, 0, 0, static_cast<int32_t>(static_cast<uint32_t>(imm6) << 12), c.alu);
        return;
      case 4: {
        const uint32_t f2 = (raw >> 10) & 3;
        if (f2 == 0 || f2 == 1) {
          if (raw & (1u << 12)) break;  // shamt[5] must be 0 on RV32
          d.set(f2 == 0 ? OP_SRLI : OP_SRAI, rs1p, rs1p, 0, static_cast<int32_t>(rs2f), c.alu);
          return;
        }
        if (f2 == 2) {
          d.set(OP_ANDI, rs1p, rs1p, 0, imm6, c.alu);
          return;
        }
        if (raw & (1u << 12)) break;  // c.subw/c.addw: RV64 only
        static const Op ops[4] = {OP_SUB, OP_XOR, OP_OR, OP_AND};
        d.set(ops[(raw >> 5) & 3], rs1p, rs1p, rdp, 0, c.alu);
        return;
      }
      case 6:
      case 7: {
        const uint32_t b = (((raw >> 12) & 1) << 8) | (((raw >> 10) & 3) << 3) | (((raw >> 5) & 3) << 6) |
                           (((raw >> 3) & 3) << 1) | (((raw >> 2) & 1) << 5);
        d.set(f3 == 6 ? OP_BEQ : OP_BNE, 0, rs1p, 0, sext(b, 9), c.branch);
        return;
      }
    }
  } else {  // q == 2
    switch (f3) {
      case 0:
        if (raw & (1u << 12)) break;
        d.set(OP_SLLI, rdf, rdf, 0, static_cast<int32_t>(rs2f), c.alu);
        return;
      case 2: {
        if (rdf == 0) break;
        const uint32_t off = (((raw >> 12) & 1) << 5) | (((raw >> 4) & 7) << 2) | (((raw >> 2) & 3) << 6);
        d.set(OP_LW, rdf, 2, 0, static_cast<int32_t>(off), c.load);
        return;
      }
      case 4:
        if (!(raw & (1u << 12))) {
          if (rs2f == 0) {
            if (rdf == 0) break;
            d.set(OP_JALR, 0, rdf, 0, 0, c.jump);  // c.jr
          } else {
            d.set(OP_ADD, rdf, 0, rs2f, 0, c.alu);  // c.mv
          }
          return;
        }
        if (rs2f == 0) {
          if (rdf == 0) {
            d.set(OP_EBREAK, 0, 0, 0, 0, c.system);
            return;
          }
          d.set(OP_JALR, 1, rdf, 0, 0, c.jump);  // c.jalr
          return;
        }
        d.set(OP_ADD, rdf, rdf, rs2f, 0, c.alu);  // c.add
        return;
      case 6: {
        const uint32_t off = (((raw >> 9) & 0xf) << 2) | (((raw >> 7) & 3) << 6);
        d.set(OP_SW, 0, 2, rs2f, static_cast<int32_t>(off), c.store);
        return;
      }
      default:
        break;
    }
  }
  d.illegal();
}

}  // namespace

void Rv32Core::decode(uint32_t raw, Insn& out) const {
  out = Insn{};
  D d{out, costs_};
  if ((raw & 3) == 3) {
    out.len = 4;
    out.raw = raw;
    decode32(raw, d);
  } else {
    out.len = 2;
    out.raw = raw & 0xffff;
    if (compressed_)
      decode16(out.raw, d);
    else
      d.illegal();
  }
}

}  // namespace hetvp::mcu::rv32
