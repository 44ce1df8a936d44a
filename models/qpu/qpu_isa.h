// VideoCore IV QPU instruction set: field positions, opcodes and register addresses as Broadcom's
// "VideoCore IV 3D Architecture Reference Guide" (2013) sections 3 and 4 number them, a decoded
// form the ISS executes, and the disassembler (traces, the debug output, the assembler's tests).
#pragma once

#include <cstdint>
#include <string>

namespace hetvp::qpu {

// Signalling bits 63:60.
enum Sig : uint8_t {
  SIG_BREAK = 0,
  SIG_NONE = 1,
  SIG_THREAD_SWITCH = 2,
  SIG_PROG_END = 3,
  SIG_WAIT_SCOREBOARD = 4,
  SIG_SCOREBOARD_UNLOCK = 5,
  SIG_LAST_THREAD_SWITCH = 6,
  SIG_COVERAGE_LOAD = 7,
  SIG_COLOR_LOAD = 8,
  SIG_COLOR_LOAD_END = 9,
  SIG_LOAD_TMU0 = 10,
  SIG_LOAD_TMU1 = 11,
  SIG_ALPHA_MASK_LOAD = 12,
  SIG_SMALL_IMM = 13,
  SIG_LOAD_IMM = 14,
  SIG_BRANCH = 15
};
// Add ALU opcodes (bits 28:24); 9..11 and 25..29 are reserved.
enum AddOp : uint8_t {
  A_NOP = 0,
  A_FADD = 1,
  A_FSUB = 2,
  A_FMIN = 3,
  A_FMAX = 4,
  A_FMINABS = 5,
  A_FMAXABS = 6,
  A_FTOI = 7,
  A_ITOF = 8,
  A_ADD = 12,
  A_SUB = 13,
  A_SHR = 14,
  A_ASR = 15,
  A_ROR = 16,
  A_SHL = 17,
  A_MIN = 18,
  A_MAX = 19,
  A_AND = 20,
  A_OR = 21,
  A_XOR = 22,
  A_NOT = 23,
  A_CLZ = 24,
  A_V8ADDS = 30,
  A_V8SUBS = 31
};
// Mul ALU opcodes (bits 31:29).
enum MulOp : uint8_t {
  M_NOP = 0,
  M_FMUL = 1,
  M_MUL24 = 2,
  M_V8MULD = 3,
  M_V8MIN = 4,
  M_V8MAX = 5,
  M_V8ADDS = 6,
  M_V8SUBS = 7
};
// Input mux values.
enum Mux : uint8_t { MUX_R0 = 0, MUX_R1, MUX_R2, MUX_R3, MUX_R4, MUX_R5, MUX_A, MUX_B };
// Condition codes (write conditions).
enum Cond : uint8_t { COND_NEVER = 0, COND_ALWAYS, COND_ZS, COND_ZC, COND_NS, COND_NC, COND_CS, COND_CC };
// Read addresses 32..63 (0..31 are the register files).
enum RAddr : uint8_t {
  R_UNIFORM = 32,
  R_VARYING = 35,
  R_ELEM_QPU = 38,
  R_NOP = 39,
  R_XY_PIXEL = 41,
  R_MS_REV = 42,
  R_VPM = 48,
  R_VPM_BUSY = 49,
  R_VPM_WAIT = 50,
  R_MUTEX = 51
};
// Write addresses 32..63.
enum WAddr : uint8_t {
  W_ACC0 = 32,
  W_ACC1,
  W_ACC2,
  W_ACC3,
  W_TMU_NOSWAP,
  W_ACC5,
  W_HOST_INT,
  W_NOP,
  W_UNIFORMS_ADDRESS,
  W_QUAD_XY,
  W_MS_REV = 42,
  W_TLB_STENCIL = 43,
  W_TLB_Z,
  W_TLB_COLOR_MS,
  W_TLB_COLOR_ALL,
  W_TLB_ALPHA_MASK,
  W_VPM,
  W_VPM_SETUP,
  W_VPM_ADDR,
  W_MUTEX_RELEASE,
  W_SFU_RECIP,
  W_SFU_RECIPSQRT,
  W_SFU_EXP,
  W_SFU_LOG,
  W_TMU0_S,
  W_TMU0_T,
  W_TMU0_R,
  W_TMU0_B,
  W_TMU1_S,
  W_TMU1_T,
  W_TMU1_R,
  W_TMU1_B
};
// Load-immediate types (bits 59:57 when sig = 14).
enum LoadImmType : uint8_t { LI_32 = 0, LI_PER_ELEM_SIGNED = 1, LI_PER_ELEM_UNSIGNED = 3, LI_SEMAPHORE = 4 };
// Branch conditions (bits 55:52).
enum BranchCond : uint8_t {
  B_ALL_ZS = 0,
  B_ALL_ZC,
  B_ANY_ZS,
  B_ANY_ZC,
  B_ALL_NS,
  B_ALL_NC,
  B_ANY_NS,
  B_ANY_NC,
  B_ALL_CS,
  B_ALL_CC,
  B_ANY_CS,
  B_ANY_CC,
  B_ALWAYS = 15
};

// Field positions.
constexpr unsigned SIG_SHIFT = 60, UNPACK_SHIFT = 57, PM_SHIFT = 56, PACK_SHIFT = 52, COND_ADD_SHIFT = 49,
                   COND_MUL_SHIFT = 46, SF_SHIFT = 45, WS_SHIFT = 44, WADDR_ADD_SHIFT = 38, WADDR_MUL_SHIFT = 32,
                   OP_MUL_SHIFT = 29, OP_ADD_SHIFT = 24, RADDR_A_SHIFT = 18, RADDR_B_SHIFT = 12, ADD_A_SHIFT = 9,
                   ADD_B_SHIFT = 6, MUL_A_SHIFT = 3, MUL_B_SHIFT = 0, BRANCH_COND_SHIFT = 52, BRANCH_REL_SHIFT = 51,
                   BRANCH_REG_SHIFT = 50, BRANCH_RADDR_A_SHIFT = 45;

enum class Kind : uint8_t { Alu, LoadImm, Semaphore, Branch, Illegal };

// One instruction, decoded once (the ISS caches these per code address).
struct Instr {
  uint64_t raw = 0;
  Kind kind = Kind::Illegal;
  uint8_t sig = 0, unpack = 0, pm = 0, pack = 0, cond_add = 0, cond_mul = 0, sf = 0, ws = 0;
  uint8_t waddr_add = W_NOP, waddr_mul = W_NOP, op_add = 0, op_mul = 0, raddr_a = R_NOP, raddr_b = R_NOP;
  uint8_t add_a = 0, add_b = 0, mul_a = 0, mul_b = 0;
  uint8_t li_type = 0;                          // load immediate / semaphore
  uint8_t sem = 0, sem_down = 0;                // semaphore number, 1 = acquire (decrement)
  uint8_t br_cond = 0, br_rel = 0, br_reg = 0;  // branch
  uint32_t imm = 0;                             // load immediate value / branch offset
  uint8_t use_a = 0, use_b = 0;                 // an ALU input mux selects regfile A / B (ALU instructions)
  uint8_t use_r4 = 0;                           // an ALU input mux selects r4 (for the SFU timing rule)
  // Touches state other QPUs share (VPM, its DMA, TMUs, semaphores, the mutex): a scheduler runs
  // such instructions in time order across QPUs; others a QPU may run ahead.
  uint8_t shared = 0;
  const char* illegal = nullptr;  // why the encoding is illegal (Kind::Illegal)
};

Instr decode(uint64_t raw);
// One line of assembly, e.g. "fadd r0, r1, r2 ; fmul ra1, r3, r4 ; ldtmu0"; `pc` (bytes) resolves
// relative branch targets.
std::string disassemble(uint64_t raw, uint32_t pc = 0);

// Register names as the disassembler prints them (file_b: regfile B's meaning of the address).
std::string waddr_name(unsigned waddr, bool file_b);
std::string raddr_name(unsigned raddr, bool file_b);

const char* add_op_name(unsigned op);  // nullptr when reserved
const char* mul_op_name(unsigned op);
// fadd..ftoi read floats (unpack converts to float).
inline bool add_op_is_float_input(unsigned op) { return op >= 1 && op <= 7; }

// Small immediates (raddr_b field when sig = 13): the 32-bit value of codes 0..47; 48..63 are
// vector rotations of the mul ALU inputs (48 = by r5, 49..63 = by 1..15).
uint32_t small_imm_value(unsigned code);

}  // namespace hetvp::qpu
