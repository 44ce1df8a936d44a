// A QPU assembler: a builder API (the encoders below, one per instruction class) and a text
// format on top of it (one instruction per line, parts separated by ';'), the format the
// disassembler (models/qpu/qpu_isa.h) prints. docs/qpu.md describes the syntax; programs live in
// sw/qpu/programs/*.qasm and are assembled at build time by `qpu_as` into C++ arrays.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/qpu/qpu_isa.h"

namespace hetvp::qpu {

class AsmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// --- builder API ----------------------------------------------------------------------------
struct AluFields {
  uint8_t sig = SIG_NONE, unpack = 0, pm = 0, pack = 0, cond_add = COND_NEVER, cond_mul = COND_NEVER, sf = 0, ws = 0;
  uint8_t waddr_add = W_NOP, waddr_mul = W_NOP, op_add = A_NOP, op_mul = M_NOP, raddr_a = R_NOP, raddr_b = R_NOP;
  uint8_t add_a = 0, add_b = 0, mul_a = 0, mul_b = 0;
};
uint64_t encode_alu(const AluFields& f);
// Load immediate (type LI_32, LI_PER_ELEM_SIGNED, LI_PER_ELEM_UNSIGNED).
uint64_t encode_load_imm(uint32_t imm, uint8_t waddr_add, uint8_t waddr_mul = W_NOP, uint8_t type = LI_32,
                         uint8_t cond_add = COND_ALWAYS, uint8_t cond_mul = COND_ALWAYS, bool ws = false,
                         bool sf = false, uint8_t pack = 0, bool pm = false);
uint64_t encode_semaphore(unsigned sem, bool acquire, uint8_t waddr_add = W_NOP, uint8_t waddr_mul = W_NOP);
uint64_t encode_branch(uint8_t cond, bool rel, int32_t offset, uint8_t waddr_add = W_NOP, uint8_t waddr_mul = W_NOP,
                       bool reg = false, uint8_t raddr_a = 0, bool ws = false);
// The per-element immediate of 16 values (-2..1 signed, 0..3 unsigned).
uint32_t per_element_imm(const int (&values)[16]);
// Common instructions.
uint64_t nop();
uint64_t mov_acc(unsigned dst_acc, uint32_t imm);  // ldi r<dst>, imm

// --- text format ----------------------------------------------------------------------------
// Assembles a whole program; errors are AsmError("name:line: what (the line)").
// `.set NAME, TEXT` substitutes a word; `.rep N` ... `.endr` repeats lines; `:label` or `label:`
// names the next instruction; `.word 0x...` is a raw instruction word. `labels` (optional) receives every label's byte
// offset.
std::vector<uint64_t> assemble(const std::string& text, const std::string& name = "<text>",
                               std::map<std::string, uint32_t>* labels = nullptr);
// Assembles one line that has no labels (tests).
uint64_t assemble_line(const std::string& line);

}  // namespace hetvp::qpu
