// hetvp — RV32 decoded operation indices (internal to the ISS). The order must match the label
// table in core.cpp.
#pragma once

namespace hetvp::mcu::rv32 {

#define HETVP_RV32_OPS(X)                                                                                              \
  X(DECODE)                                                                                                            \
  X(ILLEGAL)                                                                                                           \
  X(FETCH_FAULT)                                                                                                       \
  X(BREAKPOINT) X(NOP) X(LI) X(AUIPC) X(JAL) X(JALR) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) X(LB) X(LH) X(LW)     \
      X(LBU) X(LHU) X(SB) X(SH) X(SW) X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) X(ADD)   \
          X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV)      \
              X(DIVU) X(REM) X(REMU) X(FENCE_I) X(ECALL) X(EBREAK) X(MRET) X(WFI) X(CSRRW) X(CSRRS) X(CSRRC) X(CSRRWI) \
                  X(CSRRSI) X(CSRRCI)

enum Op : unsigned char {
#define HETVP_RV32_ENUM(n) OP_##n,
  HETVP_RV32_OPS(HETVP_RV32_ENUM)
#undef HETVP_RV32_ENUM
      OP_COUNT
};

}  // namespace hetvp::mcu::rv32
