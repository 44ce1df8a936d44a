# andi: rs1 & sext(imm12)
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, andi, 0x00000000, 0x00000000, 0)
    TEST_IMM_OP(3, andi, 0x00000001, 0x00000001, 1)
    TEST_IMM_OP(4, andi, 0x00000003, 0x00000003, 7)
    TEST_IMM_OP(5, andi, 0x00000000, 0x00000000, -2048)
    TEST_IMM_OP(6, andi, 0x00000000, 0x80000000, 0)
    TEST_IMM_OP(7, andi, 0x80000000, 0x80000000, -2048)
    TEST_IMM_OP(8, andi, 0x00000000, 0x00000000, 2047)
    TEST_IMM_OP(9, andi, 0x00000000, 0x7fffffff, 0)
    TEST_IMM_OP(10, andi, 0x000007ff, 0x7fffffff, 2047)
    TEST_IMM_OP(11, andi, 0x00000000, 0x80000000, 2047)
    TEST_IMM_OP(12, andi, 0x7ffff800, 0x7fffffff, -2048)
    TEST_IMM_OP(13, andi, 0x00000000, 0x00000000, -1)
    TEST_IMM_OP(14, andi, 0x00000001, 0xffffffff, 1)
    TEST_IMM_OP(15, andi, 0xffffffff, 0xffffffff, -1)
    TEST_IMM_OP(16, andi, 0x000000f0, 0x00ff00ff, 240)
    TEST_IMM_OP(17, andi, 0xff00ff00, 0xff00ff00, -241)
    TEST_IMM_OP(18, andi, 0x00000fff, 0x00000fff, -1)
    TEST_IMM_OP(19, andi, 0xfffff800, 0xfffff800, -2048)
    TEST_IMM_SRC1_EQ_DEST(20, andi, 0x00000000, 0x80000000, 0)
    TEST_IMM_ZEROSRC1(21, andi, 0x00000000, -2047)
    TEST_IMM_ZERODEST(22, andi, 0x00000021, 33)

    TEST_PASSFAIL

RVTEST_CODE_END
