// hetvp — Falcon v3/v5 operation list (MOVI32, LBRA, LCALL: v4/v5 forms) (X-macro): name, mnemonic. Op 0 = not decoded.
#pragma once

/* clang-format off */
#define HETVP_FALCON_OPS(X) \
  X(INVALID, "???") \
  X(ST, "st") X(LD, "ld") X(CMPU, "cmpu") X(CMPS, "cmps") X(CMP, "cmp") \
  X(ADD, "add") X(ADC, "adc") X(SUB, "sub") X(SBB, "sbb") \
  X(SHL, "shl") X(SHR, "shr") X(SAR, "sar") X(SHLC, "shlc") X(SHRC, "shrc") \
  X(NOT, "not") X(NEG, "neg") X(MOVS, "mov") X(HSWAP, "hswap") X(CLEAR, "clear") X(SETF, "setf") \
  X(MULU, "mulu") X(MULS, "muls") X(SEXT, "sext") X(EXTRS, "extrs") X(AND, "and") X(OR, "or") X(XOR, "xor") \
  X(EXTR, "extr") X(XBIT, "xbit") X(INS, "ins") X(DIV, "div") X(MOD, "mod") \
  X(IORD, "iord") X(IORDS, "iords") X(IOWR, "iowr") X(IOWRS, "iowrs") \
  X(SETHI, "sethi") X(MOVI, "mov") X(BSET, "bset") X(BCLR, "bclr") X(BTGL, "btgl") X(XBITF, "xbit") \
  X(SETP, "setp") X(BSETF, "bset") X(BCLRF, "bclr") X(BTGLF, "btgl") \
  X(BRA, "bra") X(JMP, "jmp") X(CALL, "call") X(SLEEP, "sleep") X(ADDSP, "add") \
  X(RET, "ret") X(IRET, "iret") X(EXIT, "exit") X(XDWAIT, "xdwait") X(XCWAIT, "xcwait") X(XDFENCE, "xdfence") \
  X(TRAP, "trap") X(PUSH, "push") X(POP, "pop") X(MOVTSR, "mov") X(MOVFSR, "mov") \
  X(ITLB, "itlb") X(PTLB, "ptlb") X(VTLB, "vtlb") X(XCLD, "xcld") X(XDLD, "xdld") X(XDST, "xdst") \
  X(NOP, "mov") \
  X(MOVI32, "mov") X(LBRA, "lbra") X(LCALL, "lcall") X(BRACMP, "bra")
/* clang-format on */

namespace hetvp::mcu::falcon {
enum Op : unsigned char {
  OP_NONE = 0,
#define HETVP_FALCON_ENUM(n, s) OP_##n,
  HETVP_FALCON_OPS(HETVP_FALCON_ENUM)
#undef HETVP_FALCON_ENUM
      OP_COUNT
};
const char* op_mnemonic(unsigned op);
}  // namespace hetvp::mcu::falcon
