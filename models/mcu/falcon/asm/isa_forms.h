// hetvp — the Falcon instruction forms (mnemonic, operand shapes, fixed bits, length, ISA versions) as
// one data table, written from envytools docs/hw/falcon/isa.rst and checked against envyas' output on
// nouveau's firmware (docs/falcon.md "Assembler"). The assembler (assembler.cpp) picks, for each
// instruction, the first form in table order whose operands match and whose immediates fit — the
// order envyas uses, so that short/long immediates and branch forms come out as in nouveau's headers.
//
// Bit positions count from bit 0 of the first byte (the instruction read as a little-endian number):
// the register fields are 0-3 (low nibble of byte 0), 8-11 (byte 1 low), 12-15 (byte 1 high) and
// 20-23 (byte 2 high).
#pragma once

#include <cstdint>
#include <vector>

namespace hetvp::mcu::falcon::isa {

// ISA versions a form exists in (nouveau's .fuc0/.fuc3/.fuc4/.fuc5 sources).
enum Version : uint8_t { V0 = 1, V3 = 2, V4 = 4, V5 = 8 };
constexpr uint8_t kOld = V0 | V3 | V4;  // v0-v4 (v5 re-encoded these)
constexpr uint8_t kV3p = V3 | V4 | V5;
constexpr uint8_t kV4p = V4 | V5;
constexpr uint8_t kAll = V0 | V3 | V4 | V5;
// "fuc0" -> V0 ... "fuc5" -> V5; 0 for anything else.
uint8_t version_from_name(const char* name);

enum class Kind : uint8_t {
  Size,    // b8 / b16 / b32: bits 6-7
  Reg,     // $rN: 4 bits at pos
  SReg,    // a special register ($iv0 ... $tstatus): 4 bits at pos
  Imm,     // an expression: width bits at pos (flags: kSigned, kWrap; shift = low bits dropped)
  PcRel,   // a branch target, pc-relative to the instruction's first byte: width bits at pos, signed
  Cond,    // a branch condition ($pN, not $pN, e, ne, ...; none = always): 5 bits at pos
  Flag,    // a $flags bit ($pN, c, o, s, z, ie0, ...): 5 bits at pos
  Sp,      // the word $sp
  Flags,   // the word $flags
  Word,    // a literal word (`e` / `ne` in v5's compare-and-branch): word
  Mem,     // D[...] / I[...]: mem says which shape
  BitField,  // lo:hi, lo at pos (5 bits), hi-lo in the next width bits
};
enum Mem : uint8_t {
  D_RI,   // D[$rB + imm8*size]      base at pos, imm at 16
  D_R,    // D[$rB]                  base at pos
  D_SPI,  // D[$sp + imm8*size]      imm at 16
  D_SPR,  // D[$sp + $rX*size]       index at pos
  D_RR,   // D[$rB + $rX*size]       base at pos, index at pos2
  I_RI,   // I[$rB + imm8*4]         base at pos, imm at 16
  I_R,    // I[$rB]                  base at pos
  I_RR,   // I[$rB + $rX*4]          base at pos, index at pos2
};
constexpr uint8_t kSigned = 1, kWrap = 2;

struct Operand {
  Kind kind;
  uint8_t pos = 0;
  uint8_t width = 0;
  uint8_t flags = 0;
  uint8_t shift = 0;  // Imm: low bits the field drops (sethi: 16)
  uint8_t mem = 0;    // Mem: the shape
  uint8_t pos2 = 0;   // Mem D_RR / I_RR: the index register's field
  const char* word = nullptr;
};

struct Form {
  const char* mnemonic;
  uint8_t versions;
  uint8_t length;  // bytes
  uint64_t bits;   // the fixed bits (opcode, sub-opcode)
  std::vector<Operand> operands;
};

// Every form, in the order the assembler tries them.
const std::vector<Form>& forms();
// True when `word` is the mnemonic of some form.
bool is_mnemonic(const char* word);

// Names: the branch conditions (5-bit codes), the $flags bits, the special registers. Each returns -1
// for an unknown name or one `version` does not have.
int cond_code(const char* name, uint8_t version);
int flag_bit(const char* name, uint8_t version);
int sreg_index(const char* name, uint8_t version);

}  // namespace hetvp::mcu::falcon::isa
