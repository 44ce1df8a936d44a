# srai: arithmetic right shift by shamt
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, srai, 0x80000000, 0x80000000, 0)
    TEST_IMM_OP(3, srai, 0xc0000000, 0x80000000, 1)
    TEST_IMM_OP(4, srai, 0xff000000, 0x80000000, 7)
    TEST_IMM_OP(5, srai, 0xfffe0000, 0x80000000, 14)
    TEST_IMM_OP(6, srai, 0xffffffff, 0x80000000, 31)
    TEST_IMM_OP(7, srai, 0xffffffff, 0xffffffff, 0)
    TEST_IMM_OP(8, srai, 0xffffffff, 0xffffffff, 1)
    TEST_IMM_OP(9, srai, 0xffffffff, 0xffffffff, 31)
    TEST_IMM_OP(10, srai, 0x21212121, 0x21212121, 0)
    TEST_IMM_OP(11, srai, 0x10909090, 0x21212121, 1)
    TEST_IMM_OP(12, srai, 0x00008484, 0x21212121, 14)
    TEST_IMM_OP(13, srai, 0x00000000, 0x21212121, 31)
    TEST_IMM_OP(14, srai, 0xf0303030, 0x81818181, 3)
    TEST_IMM_OP(15, srai, 0x00000001, 0x7fffffff, 30)
    TEST_IMM_SRC1_EQ_DEST(16, srai, 0xffffffff, 0x80000000, 31)
    TEST_IMM_ZEROSRC1(17, srai, 0x00000000, 31)
    TEST_IMM_ZERODEST(18, srai, 0x00000021, 5)

    TEST_PASSFAIL

RVTEST_CODE_END
