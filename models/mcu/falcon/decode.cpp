// hetvp — Falcon v3 instruction decoder, written from envytools docs/hw/falcon/isa.rst ("Sized" and
// "Unsized" opcode tables and the per-instruction "Forms"). Operand naming of the docs: R1 = low nibble
// of byte 1, R2 = high nibble of byte 1, R3 = high nibble of byte 2, I8 = byte 2, I16 = bytes 2-3.
#include "models/mcu/falcon/core.h"
#include "models/mcu/falcon/ops.h"

namespace hetvp::mcu::falcon {

const char* op_mnemonic(unsigned op) {
  static const char* const names[] = {"",
#define HETVP_FALCON_NAME(n, s) s,
                                      HETVP_FALCON_OPS(HETVP_FALCON_NAME)
#undef HETVP_FALCON_NAME
  };
  return op < OP_COUNT ? names[op] : "?";
}

namespace {
inline uint32_t sext8(uint32_t v) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v))); }
inline uint32_t sext16(uint32_t v) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v))); }
}  // namespace

// Falcon v5 (fuc5, GK208+): the encodings that differ from v3, as far as nouveau's fuc5 images use
// them. No document describes v5 (envytools docs/hw/falcon/intro.rst says only "redesigned ISA
// encoding" and leaves the rest unwritten); these forms were read off envydis's listing of hubgk208/gpcgk208 (-V fuc5) and are checked
// against it instruction for instruction (test_falcon_disasm.cpp). Operand naming as above: R1 = low
// nibble of byte 1, R2 = high nibble. Returns false for a byte pattern v5 encodes as v3 does.
bool FalconCore::decode_v5(const uint8_t* b, Insn& o) {
  const unsigned b0 = b[0], b1 = b[1];
  const unsigned r1 = b1 & 0xf, r2 = b1 >> 4;
  auto set = [&](unsigned op, unsigned len, unsigned a, unsigned bb, unsigned c, bool imm_form, uint32_t imm) {
    o.op = static_cast<uint8_t>(op);
    o.len = static_cast<uint8_t>(len);
    o.a = static_cast<uint8_t>(a);
    o.b = static_cast<uint8_t>(bb);
    o.c = static_cast<uint8_t>(c);
    o.imm_form = imm_form;
    o.imm = imm;
  };
  const uint32_t i16 = b[2] | static_cast<uint32_t>(b[3]) << 8;
  if (b0 == 0x3e || b0 == 0x7e) {  // lbra / lcall: absolute 24-bit target in bytes 1-3 (v4+)
    set(b0 == 0x7e ? OP_LCALL : OP_LBRA, 4, 0, 0, 0, true, b1 | static_cast<uint32_t>(b[2]) << 8 | static_cast<uint32_t>(b[3]) << 16);
    return true;
  }
  if ((b0 >> 4) == 0xd) {  // mov R0, imm32 (R0 = low nibble of byte 0), bytes 1-4; replaces v3's iowr d0/d1
    set(OP_MOVI32, 5, b0 & 0xf, 0, 0, true,
        b1 | static_cast<uint32_t>(b[2]) << 8 | static_cast<uint32_t>(b[3]) << 16 | static_cast<uint32_t>(b[4]) << 24);
    return true;
  }
  if (b0 == 0xf6 || b0 == 0xf7) {  // iowr / iowrs I[R2 + I8*4], R1 (v3's d0 / d1 forms)
    set(b0 == 0xf6 ? OP_IOWR : OP_IOWRS, 3, r1, r2, 0, true, b[2]);
    return true;
  }
  if ((b0 >> 6) == 3) return false;
  o.sz = static_cast<uint8_t>(b0 >> 6);
  const unsigned low6 = b0 & 0x3f;
  if (low6 < 0x10) {  // 0x/4x/8x: mov R0, sign-extended imm8 / imm16 / imm24 (replaces v3's sized st)
    const unsigned bytes = 1 + o.sz;
    uint32_t v = b1;
    if (bytes > 1) v |= static_cast<uint32_t>(b[2]) << 8;
    if (bytes > 2) v |= static_cast<uint32_t>(b[3]) << 16;
    const unsigned bits = 8 * bytes;
    v = (v ^ (1u << (bits - 1))) - (1u << (bits - 1));  // sign-extend from `bits`
    o.sz = 2;
    set(OP_MOVI, 1 + bytes, b0 & 0xf, 0, 0, true, v);
    return true;
  }
  switch (low6) {
    case 0x20:  // st D[R2], R1 (2 bytes)
      set(OP_ST, 2, r1, r2, 0, true, 0);
      return true;
    case 0x24:  // cmpu / cmps / cmp R2, R1 (2 bytes)
    case 0x25:
    case 0x26:
      set(low6 == 0x24 ? OP_CMPU : low6 == 0x25 ? OP_CMPS : OP_CMP, 2, 0, r2, r1, false, 0);
      return true;
    case 0x32:  // mov R1, R2 (sized, 2 bytes)
      set(OP_MOVS, 2, r1, r2, 0, false, 0);
      return true;
    case 0x33: {  // bra sz R2 == / != imm, pc-relative target: sub-opcode in R1 (byte 1 low nibble)
      // 0/4: imm8, rel8; 9/d: imm8, rel16; a/e: imm16, rel8; b/f: imm16, rel16 (0-3, 9-b: e; 4-7, d-f: ne).
      // Packed: imm bits 0-15 the compare value, 16-31 the signed offset; a = 1 for ne.
      static const signed char wide_imm[16] = {0, -1, -1, -1, 0, -1, -1, -1, -1, 0, 1, 1, -1, 0, 1, 1};
      static const signed char wide_rel[16] = {0, -1, -1, -1, 0, -1, -1, -1, -1, 1, 0, 1, -1, 1, 0, 1};
      if (wide_imm[r1] < 0) return true;  // invalid
      const unsigned ib = wide_imm[r1] ? 2 : 1, rb = wide_rel[r1] ? 2 : 1;
      const uint32_t cmp = ib == 2 ? i16 : b[2];
      const unsigned ro = 2 + ib;
      const uint32_t rel = rb == 2 ? static_cast<uint32_t>(static_cast<int16_t>(b[ro] | b[ro + 1] << 8))
                                   : static_cast<uint32_t>(static_cast<int8_t>(b[ro]));
      set(OP_BRACMP, ro + rb, (r1 & 4) ? 1 : 0, r2, 0, true, (cmp & 0xffff) | rel << 16);
      return true;
    }
    case 0x35:  // st D[R2 + I8*sz], R1 (v3's sized 0x00 form)
      set(OP_ST, 3, r1, r2, 0, true, b[2]);
      return true;
    case 0x38: {  // R1 = R2 op I16, op in byte 4 (add adc sub sbb); replaces v3's 0x38 group
      static const unsigned char t[4] = {OP_ADD, OP_ADC, OP_SUB, OP_SBB};
      if ((b[4] & 0xf) < 4) set(t[b[4] & 0xf], 5, r1, r2, 0, true, i16);
      return true;  // other sub-opcodes: invalid
    }
    case 0x3f:  // ld R1, D[R2] (2 bytes)
      set(OP_LD, 2, r1, r2, 0, true, 0);
      return true;
    default:
      return false;
  }
}

void FalconCore::decode(const uint8_t* b, Insn& o, unsigned version) {
  o = Insn{};
  if (version >= 5) {
    o.op = OP_INVALID;
    o.len = 1;
    if (decode_v5(b, o)) {
      if (o.op == OP_INVALID) o.len = 1;
      return;
    }
    o = Insn{};
  }
  o.op = OP_INVALID;
  o.len = 1;
  const unsigned b0 = b[0], b1 = b[1], b2 = b[2];
  const unsigned r1 = b1 & 0xf, r2 = b1 >> 4, r3 = b2 >> 4;
  const uint32_t i8 = b2, i16 = b2 | static_cast<uint32_t>(b[3]) << 8;
  auto set = [&](unsigned op, unsigned len, unsigned a, unsigned bb, unsigned c, bool imm_form, uint32_t imm) {
    o.op = static_cast<uint8_t>(op);
    o.len = static_cast<uint8_t>(len);
    o.a = static_cast<uint8_t>(a);
    o.b = static_cast<uint8_t>(bb);
    o.c = static_cast<uint8_t>(c);
    o.imm_form = imm_form;
    o.imm = imm;
  };
  if ((b0 >> 6) != 3) {  // sized
    o.sz = static_cast<uint8_t>(b0 >> 6);
    const unsigned low6 = b0 & 0x3f;
    static const unsigned char arith[16] = {OP_ADD, OP_ADC, OP_SUB, OP_SBB, OP_SHL,  OP_SHR,  0, OP_SAR,
                                            OP_LD,  0,      0,      0,      OP_SHLC, OP_SHRC, 0, 0};
    if (low6 < 0x10) {  // 0x: st D[R2 + I8*sz], R1
      if (low6 == 0) set(OP_ST, 3, r1, r2, 0, true, i8);
    } else if (low6 < 0x20) {  // 1x: R1 = R2 op I8 / ld R1, D[R2 + I8*sz]
      const unsigned op = arith[low6 & 0xf];
      if (op) set(op, 3, r1, r2, 0, true, i8);
    } else if (low6 < 0x30) {  // 2x: R1 = R2 op I16 (add/adc/sub/sbb)
      if ((low6 & 0xf) < 4) set(arith[low6 & 0xf], 4, r1, r2, 0, true, i16);
    } else {
      const unsigned s2 = b1 & 0xf, s3 = b2 & 0xf;
      switch (low6) {
        case 0x30:  // O2 R2 I8
          if (s2 == 1)
            set(OP_ST, 3, r2, 16, 0, true, i8);
          else if (s2 == 4)
            set(OP_CMPU, 3, 0, r2, 0, true, i8);
          else if (s2 == 5)
            set(OP_CMPS, 3, 0, r2, 0, true, sext8(i8));
          else if (s2 == 6)
            set(OP_CMP, 3, 0, r2, 0, true, sext8(i8));
          break;
        case 0x31:  // O2 R2 I16
          if (s2 == 4)
            set(OP_CMPU, 4, 0, r2, 0, true, i16);
          else if (s2 == 5)
            set(OP_CMPS, 4, 0, r2, 0, true, sext16(i16));
          else if (s2 == 6)
            set(OP_CMP, 4, 0, r2, 0, true, sext16(i16));
          break;
        case 0x34:  // ld R2, D[$sp + I8*sz]
          if (s2 == 0) set(OP_LD, 3, r2, 16, 0, true, i8);
          break;
        case 0x36:  // R2 op= I8
          if (arith[s2] && arith[s2] != OP_LD) set(arith[s2], 3, r2, r2, 0, true, i8);
          break;
        case 0x37:  // R2 op= I16 (add/adc/sub/sbb)
          if (s2 < 4) set(arith[s2], 4, r2, r2, 0, true, i16);
          break;
        case 0x38:  // O3
          if (s3 == 0)
            set(OP_ST, 3, r1, r2, 0, true, 0);  // st D[R2], R1
          else if (s3 == 1)
            set(OP_ST, 3, r2, 16, r1, false, 0);  // st D[$sp + R1*sz], R2
          else if (s3 == 4)
            set(OP_CMPU, 3, 0, r2, r1, false, 0);
          else if (s3 == 5)
            set(OP_CMPS, 3, 0, r2, r1, false, 0);
          else if (s3 == 6)
            set(OP_CMP, 3, 0, r2, r1, false, 0);
          break;
        case 0x39: {  // R1 = op R2
          static const unsigned char u[4] = {OP_NOT, OP_NEG, OP_MOVS, OP_HSWAP};
          if (s3 < 4) set(u[s3], 3, r1, r2, 0, false, 0);
          break;
        }
        case 0x3a:  // ld R2, D[$sp + R1*sz]
          if (s3 == 0) set(OP_LD, 3, r2, 16, r1, false, 0);
          break;
        case 0x3b:  // R2 op= R1
          if (arith[s3] && arith[s3] != OP_LD) set(arith[s3], 3, r2, r2, r1, false, 0);
          break;
        case 0x3c:  // R3 = R2 op R1 / ld R3, D[R2 + R1*sz]
          if (arith[s3]) set(arith[s3], 3, r3, r2, r1, false, 0);
          break;
        case 0x3d: {  // O2 R2
          static const unsigned char u[6] = {OP_NOT, OP_NEG, OP_NOP, OP_HSWAP, OP_CLEAR, OP_SETF};
          if (s2 < 6) set(u[s2], 2, r2, r2, 0, false, 0);
          break;
        }
        default:
          break;
      }
    }
    return;
  }
  o.sz = 2;
  const unsigned hi = b0 >> 4, sub = b0 & 0xf;
  if (hi == 0xc || hi == 0xe) {  // cx: R1 = R2 op I8, ex: R1 = R2 op I16
    const bool wide = hi == 0xe;
    const unsigned len = wide ? 4 : 3;
    const uint32_t imm = wide ? i16 : i8;
    static const unsigned char t[16] = {OP_MULU, OP_MULS, OP_SEXT, OP_EXTRS, OP_AND, OP_OR,  OP_XOR,   OP_EXTR,
                                        OP_XBIT, 0,       0,       OP_INS,   OP_DIV, OP_MOD, OP_IORDS, OP_IORD};
    unsigned op = t[sub];
    if (wide && (op == OP_SEXT || op == OP_XBIT || op == OP_IORD || op == OP_IORDS)) op = 0;
    if (!op) return;
    uint32_t v = imm;
    if (op == OP_MULS) v = wide ? sext16(imm) : sext8(imm);
    if (op == OP_IORD || op == OP_IORDS) {
      set(op, len, r1, r2, 0, true, v);  // R1 = I[R2 + I8*4]
    } else {
      set(op, len, r1, r2, 0, true, v);
    }
    return;
  }
  if (hi == 0xd) {  // iowr I[R2 + I8*4], R1
    if (sub == 0)
      set(OP_IOWR, 3, r1, r2, 0, true, i8);
    else if (sub == 1)
      set(OP_IOWRS, 3, r1, r2, 0, true, i8);
    return;
  }
  const unsigned s2 = b1 & 0xf, s3 = b2 & 0xf;
  switch (b0) {
    case 0xf0:
    case 0xf1: {  // R2 op= I8/I16
      const bool wide = b0 == 0xf1;
      const unsigned len = wide ? 4 : 3;
      const uint32_t imm = wide ? i16 : i8;
      const uint32_t simm = wide ? sext16(imm) : sext8(imm);
      switch (s2) {
        case 0x0:
          set(OP_MULU, len, r2, r2, 0, true, imm);
          break;
        case 0x1:
          set(OP_MULS, len, r2, r2, 0, true, simm);
          break;
        case 0x2:
          if (!wide) set(OP_SEXT, len, r2, r2, 0, true, imm);
          break;
        case 0x3:
          set(OP_SETHI, len, r2, r2, 0, true, imm);
          break;
        case 0x4:
          set(OP_AND, len, r2, r2, 0, true, imm);
          break;
        case 0x5:
          set(OP_OR, len, r2, r2, 0, true, imm);
          break;
        case 0x6:
          set(OP_XOR, len, r2, r2, 0, true, imm);
          break;
        case 0x7:
          set(OP_MOVI, len, r2, 0, 0, true, simm);
          break;
        case 0x9:
          if (!wide) set(OP_BSET, len, r2, r2, 0, true, imm);
          break;
        case 0xa:
          if (!wide) set(OP_BCLR, len, r2, r2, 0, true, imm);
          break;
        case 0xb:
          if (!wide) set(OP_BTGL, len, r2, r2, 0, true, imm);
          break;
        case 0xc:
          if (!wide) set(OP_XBITF, len, r2, 0, 0, true, imm);
          break;
        default:
          break;
      }
      return;
    }
    case 0xf2:  // setp I8, R2
      if (s2 == 8) set(OP_SETP, 3, 0, r2, 0, true, i8);
      return;
    case 0xf4:
    case 0xf5: {  // OL subopcode, I8/I16
      const bool wide = b0 == 0xf5;
      const unsigned len = wide ? 4 : 3;
      const uint32_t imm = wide ? i16 : i8;
      const uint32_t simm = wide ? sext16(imm) : sext8(imm);
      const unsigned ol = b1 & 0x3f;
      if (ol < 0x20)
        set(OP_BRA, len, ol, 0, 0, true, simm);
      else if (ol == 0x20)
        set(OP_JMP, len, 0, 0, 0, true, imm);
      else if (ol == 0x21)
        set(OP_CALL, len, 0, 0, 0, true, imm);
      else if (ol == 0x28 && !wide)
        set(OP_SLEEP, len, 0, 0, 0, true, imm);
      else if (ol == 0x30)
        set(OP_ADDSP, len, 0, 0, 0, true, simm);
      else if (ol == 0x31 && !wide)
        set(OP_BSETF, len, 0, 0, 0, true, imm);
      else if (ol == 0x32 && !wide)
        set(OP_BCLRF, len, 0, 0, 0, true, imm);
      else if (ol == 0x33 && !wide)
        set(OP_BTGLF, len, 0, 0, 0, true, imm);
      return;
    }
    case 0xf8:
      switch (s2) {
        case 0x0:
          set(OP_RET, 2, 0, 0, 0, false, 0);
          break;
        case 0x1:
          set(OP_IRET, 2, 0, 0, 0, false, 0);
          break;
        case 0x2:
          set(OP_EXIT, 2, 0, 0, 0, false, 0);
          break;
        case 0x3:
          set(OP_XDWAIT, 2, 0, 0, 0, false, 0);
          break;
        case 0x6:
          set(OP_XDFENCE, 2, 0, 0, 0, false, 0);
          break;
        case 0x7:
          set(OP_XCWAIT, 2, 0, 0, 0, false, 0);
          break;
        case 0x8:
        case 0x9:
        case 0xa:
        case 0xb:
          set(OP_TRAP, 2, 0, 0, 0, true, s2 & 3);
          break;
        default:
          break;
      }
      return;
    case 0xf9:
      switch (s2) {
        case 0x0:
          set(OP_PUSH, 2, r2, 0, 0, false, 0);
          break;
        case 0x1:
          set(OP_ADDSP, 2, 0, 0, r2, false, 0);
          break;
        case 0x4:
          set(OP_JMP, 2, 0, 0, r2, false, 0);
          break;
        case 0x5:
          set(OP_CALL, 2, 0, 0, r2, false, 0);
          break;
        case 0x8:
          set(OP_ITLB, 2, 0, r2, 0, false, 0);
          break;
        case 0x9:
          set(OP_BSETF, 2, 0, 0, r2, false, 0);
          break;
        case 0xa:
          set(OP_BCLRF, 2, 0, 0, r2, false, 0);
          break;
        case 0xb:
          set(OP_BTGLF, 2, 0, 0, r2, false, 0);
          break;
        default:
          break;
      }
      return;
    case 0xfa:
      switch (s3) {
        case 0x0:
          set(OP_IOWR, 3, r1, r2, 0, true, 0);
          break;  // iowr I[R2], R1
        case 0x1:
          set(OP_IOWRS, 3, r1, r2, 0, true, 0);
          break;
        case 0x4:
          set(OP_XCLD, 3, 0, r2, r1, false, 0);
          break;  // xcld R2, R1
        case 0x5:
          set(OP_XDLD, 3, 0, r2, r1, false, 0);
          break;
        case 0x6:
          set(OP_XDST, 3, 0, r2, r1, false, 0);
          break;
        case 0x8:
          set(OP_SETP, 3, 0, r2, r1, false, 0);
          break;  // $flags bit R1 = R2 & 1
        default:
          break;
      }
      return;
    case 0xfc:
      if (s2 == 0) set(OP_POP, 2, r2, 0, 0, false, 0);
      return;
    case 0xfd: {  // R2 op= R1
      static const unsigned char t[16] = {OP_MULU, OP_MULS, OP_SEXT, 0,       OP_AND, OP_OR, OP_XOR, 0,
                                          0,       OP_BSET, OP_BCLR, OP_BTGL, 0,      0,     0,      0};
      if (t[s3]) set(t[s3], 3, r2, r2, r1, false, 0);
      return;
    }
    case 0xfe:
      if (s3 == 0)
        set(OP_MOVTSR, 3, r1, r2, 0, false, 0);  // $sr[R1] = R2
      else if (s3 == 1)
        set(OP_MOVFSR, 3, r1, r2, 0, false, 0);  // R1 = $sr[R2]
      else if (s3 == 2)
        set(OP_PTLB, 3, r1, r2, 0, false, 0);
      else if (s3 == 3)
        set(OP_VTLB, 3, r1, r2, 0, false, 0);
      else if (s3 == 0xc)
        set(OP_XBITF, 3, r1, 0, r2, false, 0);  // R1 = $flags bit R2
      return;
    case 0xff: {  // R3 = R2 op R1
      static const unsigned char t[16] = {OP_MULU, OP_MULS, OP_SEXT, OP_EXTRS, OP_AND, OP_OR,  OP_XOR,   OP_EXTR,
                                          OP_XBIT, 0,       0,       0,        OP_DIV, OP_MOD, OP_IORDS, OP_IORD};
      if (t[s3]) set(t[s3], 3, r3, r2, r1, false, 0);
      return;
    }
    default:
      return;
  }
}

}  // namespace hetvp::mcu::falcon
