# ori: rs1 | sext(imm12)
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, ori, 0x00000000, 0x00000000, 0)
    TEST_IMM_OP(3, ori, 0x00000001, 0x00000001, 1)
    TEST_IMM_OP(4, ori, 0x00000007, 0x00000003, 7)
    TEST_IMM_OP(5, ori, 0xfffff800, 0x00000000, -2048)
    TEST_IMM_OP(6, ori, 0x80000000, 0x80000000, 0)
    TEST_IMM_OP(7, ori, 0xfffff800, 0x80000000, -2048)
    TEST_IMM_OP(8, ori, 0x000007ff, 0x00000000, 2047)
    TEST_IMM_OP(9, ori, 0x7fffffff, 0x7fffffff, 0)
    TEST_IMM_OP(10, ori, 0x7fffffff, 0x7fffffff, 2047)
    TEST_IMM_OP(11, ori, 0x800007ff, 0x80000000, 2047)
    TEST_IMM_OP(12, ori, 0xffffffff, 0x7fffffff, -2048)
    TEST_IMM_OP(13, ori, 0xffffffff, 0x00000000, -1)
    TEST_IMM_OP(14, ori, 0xffffffff, 0xffffffff, 1)
    TEST_IMM_OP(15, ori, 0xffffffff, 0xffffffff, -1)
    TEST_IMM_OP(16, ori, 0x00ff00ff, 0x00ff00ff, 240)
    TEST_IMM_OP(17, ori, 0xffffff0f, 0xff00ff00, -241)
    TEST_IMM_OP(18, ori, 0xffffffff, 0x00000fff, -1)
    TEST_IMM_OP(19, ori, 0xfffff800, 0xfffff800, -2048)
    TEST_IMM_SRC1_EQ_DEST(20, ori, 0x80000000, 0x80000000, 0)
    TEST_IMM_ZEROSRC1(21, ori, 0xfffff801, -2047)
    TEST_IMM_ZERODEST(22, ori, 0x00000021, 33)

    TEST_PASSFAIL

RVTEST_CODE_END
