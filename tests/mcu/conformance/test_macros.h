/* hetvp — macros for the ISS conformance programs (tests/mcu/conformance/*.S).
 *
 * Every program is a list of numbered test cases. A case computes a value, compares it with the
 * value the RISC-V ISA manual defines and, on a mismatch, exits with the case number (2..199) as its
 * exit code through the HTIF `tohost` word; after the last case it exits with 0. A trap nobody
 * expected exits with 200 + mcause. `hetvp iss PROGRAM.elf` returns that exit code.
 *
 * Registers: gp (x3) holds the current case number; the macros use x1, x2 (operands), x14 (result),
 * t0-t2 (x5-x7). Unless a file says `.option rvc`, instructions are assembled uncompressed, so an RV32I
 * test exercises the 32-bit encoding even though the assembler targets rv32imc.
 *
 * Written for hetvp in the style of the standard RISC-V test suites (riscv-tests' TEST_* idea);
 * no code is taken from them. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_CONF_TEST_MACROS_H
#define HETVP_CONF_TEST_MACROS_H

#define TESTNUM gp

/* ---- program frame ---------------------------------------------------------------------------- */

#define RVTEST_CODE_BEGIN                                                                           \
    .option norvc;                                                                                  \
    .section .text.init, "ax", @progbits;                                                           \
    .globl _start;                                                                                  \
_start:                                                                                             \
    la t0, unexpected_trap;                                                                         \
    csrw mtvec, t0;                                                                                 \
    li TESTNUM, 0;

/* pass: tohost = 1 (exit 0); fail: tohost = (case << 1) | 1; unexpected trap: 200 + mcause */
#define RVTEST_CODE_END                                                                             \
    .option norvc;                                                                                  \
pass:                                                                                               \
    li a0, 1;                                                                                       \
    j write_tohost;                                                                                 \
fail:                                                                                               \
    mv a0, TESTNUM;                                                                                 \
    bnez a0, 1f;                                                                                    \
    li a0, 1;                                                                                       \
1:  slli a0, a0, 1;                                                                                 \
    ori a0, a0, 1;                                                                                  \
    j write_tohost;                                                                                 \
    .balign 4;                                                                                      \
unexpected_trap:                                                                                    \
    csrr a0, mcause;                                                                                \
    addi a0, a0, 200;                                                                               \
    slli a0, a0, 1;                                                                                 \
    ori a0, a0, 1;                                                                                  \
write_tohost:                                                                                       \
    la t0, tohost;                                                                                  \
    sw a0, 0(t0);                                                                                   \
1:  j 1b;                                                                                           \
    .pushsection .tohost, "aw", @progbits;                                                          \
    .balign 64;                                                                                     \
    .globl tohost;                                                                                  \
tohost: .word 0, 0;                                                                                 \
    .globl fromhost;                                                                                \
fromhost: .word 0, 0;                                                                               \
    .popsection;

#define RVTEST_DATA_BEGIN .data; .balign 16;
#define RVTEST_DATA_END

#define TEST_PASSFAIL j pass;

/* ---- generic case ------------------------------------------------------------------------------ */

/* run `code`, then compare register testreg with correctval */
#define TEST_CASE(n, testreg, correctval, code...)                                                   \
test_##n:                                                                                           \
    li TESTNUM, n;                                                                                  \
    code;                                                                                           \
    li t2, correctval;                                                                              \
    bne testreg, t2, fail;

/* ---- register-register and register-immediate ALU ops ------------------------------------------ */

#define TEST_RR_OP(n, inst, result, v1, v2) TEST_CASE(n, x14, result, li x1, v1; li x2, v2; inst x14, x1, x2)
#define TEST_RR_SRC1_EQ_DEST(n, inst, result, v1, v2) TEST_CASE(n, x1, result, li x1, v1; li x2, v2; inst x1, x1, x2)
#define TEST_RR_SRC2_EQ_DEST(n, inst, result, v1, v2) TEST_CASE(n, x2, result, li x1, v1; li x2, v2; inst x2, x1, x2)
#define TEST_RR_SRC12_EQ_DEST(n, inst, result, v1) TEST_CASE(n, x1, result, li x1, v1; inst x1, x1, x1)
#define TEST_RR_ZEROSRC1(n, inst, result, v2) TEST_CASE(n, x14, result, li x2, v2; inst x14, x0, x2)
#define TEST_RR_ZEROSRC2(n, inst, result, v1) TEST_CASE(n, x14, result, li x1, v1; inst x14, x1, x0)
/* writes to x0 are discarded */
#define TEST_RR_ZERODEST(n, inst, v1, v2) TEST_CASE(n, x0, 0, li x1, v1; li x2, v2; inst x0, x1, x2)

#define TEST_IMM_OP(n, inst, result, v1, imm) TEST_CASE(n, x14, result, li x1, v1; inst x14, x1, imm)
#define TEST_IMM_SRC1_EQ_DEST(n, inst, result, v1, imm) TEST_CASE(n, x1, result, li x1, v1; inst x1, x1, imm)
#define TEST_IMM_ZEROSRC1(n, inst, result, imm) TEST_CASE(n, x14, result, inst x14, x0, imm)
#define TEST_IMM_ZERODEST(n, inst, v1, imm) TEST_CASE(n, x0, 0, li x1, v1; inst x0, x1, imm)

/* ---- loads and stores (base is a label in .data) ----------------------------------------------- */

#define TEST_LD_OP(n, inst, result, offset, base) TEST_CASE(n, x14, result, la x1, base; inst x14, offset(x1))
/* load into the base register itself */
#define TEST_LD_DEST_EQ_BASE(n, inst, result, offset, base) TEST_CASE(n, x1, result, la x1, base; inst x1, offset(x1))
/* store `value`, then read the whole aligned word back with lw */
#define TEST_ST_WORD(n, st, word, value, offset, base)                                              \
    TEST_CASE(n, x14, word, la x1, base; li x2, value; st x2, offset(x1); lw x14, 0(x1))
/* store, then load with `ld` from the same address */
#define TEST_ST_OP(n, ld, st, result, value, offset, base)                                          \
    TEST_CASE(n, x14, result, la x1, base; li x2, value; st x2, offset(x1); ld x14, offset(x1))

/* ---- branches ---------------------------------------------------------------------------------- */

/* taken forwards, then taken backwards */
#define TEST_BR2_TAKEN(n, inst, v1, v2)                                                             \
test_##n:                                                                                           \
    li TESTNUM, n;                                                                                  \
    li x1, v1;                                                                                      \
    li x2, v2;                                                                                      \
    inst x1, x2, 2f;                                                                                \
    j fail;                                                                                         \
1:  j 3f;                                                                                           \
2:  inst x1, x2, 1b;                                                                                \
    j fail;                                                                                         \
3:

/* not taken forwards nor backwards */
#define TEST_BR2_NOTTAKEN(n, inst, v1, v2)                                                          \
test_##n:                                                                                           \
    li TESTNUM, n;                                                                                  \
    li x1, v1;                                                                                      \
    li x2, v2;                                                                                      \
    inst x1, x2, 1f;                                                                                \
    j 2f;                                                                                           \
1:  j fail;                                                                                         \
2:  inst x1, x2, 1b;                                                                                \
3:

/* ---- traps ------------------------------------------------------------------------------------- */

/* `code` must raise exception `cause` at the instruction labelled 7: (a numeric label inside code).
 * Checks mcause and mepc (= 7b), then continues after the case with the default handler back. */
#define TEST_TRAP(n, cause, code...)                                                                \
test_##n:                                                                                           \
    li TESTNUM, n;                                                                                  \
    la t0, 8f;                                                                                      \
    csrw mtvec, t0;                                                                                 \
    code;                                                                                           \
    j fail;                                                                                         \
    .balign 4;                                                                                      \
8:  csrr t1, mcause;                                                                                \
    li t2, cause;                                                                                   \
    bne t1, t2, fail;                                                                               \
    csrr t1, mepc;                                                                                  \
    la t2, 7b;                                                                                      \
    bne t1, t2, fail;                                                                               \
    la t0, unexpected_trap;                                                                         \
    csrw mtvec, t0;

/* as TEST_TRAP, and mtval must equal tval */
#define TEST_TRAP_TVAL(n, cause, tval, code...)                                                     \
    TEST_TRAP(n, cause, code)                                                                       \
    csrr t1, mtval;                                                                                 \
    li t2, tval;                                                                                    \
    bne t1, t2, fail;

#endif
