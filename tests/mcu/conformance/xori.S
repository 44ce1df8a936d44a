# xori: rs1 ^ sext(imm12)
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, xori, 0x00000000, 0x00000000, 0)
    TEST_IMM_OP(3, xori, 0x00000000, 0x00000001, 1)
    TEST_IMM_OP(4, xori, 0x00000004, 0x00000003, 7)
    TEST_IMM_OP(5, xori, 0xfffff800, 0x00000000, -2048)
    TEST_IMM_OP(6, xori, 0x80000000, 0x80000000, 0)
    TEST_IMM_OP(7, xori, 0x7ffff800, 0x80000000, -2048)
    TEST_IMM_OP(8, xori, 0x000007ff, 0x00000000, 2047)
    TEST_IMM_OP(9, xori, 0x7fffffff, 0x7fffffff, 0)
    TEST_IMM_OP(10, xori, 0x7ffff800, 0x7fffffff, 2047)
    TEST_IMM_OP(11, xori, 0x800007ff, 0x80000000, 2047)
    TEST_IMM_OP(12, xori, 0x800007ff, 0x7fffffff, -2048)
    TEST_IMM_OP(13, xori, 0xffffffff, 0x00000000, -1)
    TEST_IMM_OP(14, xori, 0xfffffffe, 0xffffffff, 1)
    TEST_IMM_OP(15, xori, 0x00000000, 0xffffffff, -1)
    TEST_IMM_OP(16, xori, 0x00ff000f, 0x00ff00ff, 240)
    TEST_IMM_OP(17, xori, 0x00ff000f, 0xff00ff00, -241)
    TEST_IMM_OP(18, xori, 0xfffff000, 0x00000fff, -1)
    TEST_IMM_OP(19, xori, 0x00000000, 0xfffff800, -2048)
    TEST_IMM_SRC1_EQ_DEST(20, xori, 0x80000000, 0x80000000, 0)
    TEST_IMM_ZEROSRC1(21, xori, 0xfffff801, -2047)
    TEST_IMM_ZERODEST(22, xori, 0x00000021, 33)

    TEST_PASSFAIL

RVTEST_CODE_END
