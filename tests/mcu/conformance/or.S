# or
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, or, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, or, 0x00000001, 0x00000001, 0x00000001)
    TEST_RR_OP(4, or, 0x00000007, 0x00000003, 0x00000007)
    TEST_RR_OP(5, or, 0x00000007, 0x00000007, 0x00000003)
    TEST_RR_OP(6, or, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, or, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, or, 0xffff8000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, or, 0x00007fff, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, or, 0x7fffffff, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, or, 0x7fffffff, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, or, 0x80007fff, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, or, 0xffffffff, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, or, 0xffffffff, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, or, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, or, 0xffffffff, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, or, 0x7fffffff, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, or, 0xffffffff, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, or, 0xffffffff, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, or, 0x9abcdef8, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, or, 0x00000007, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, or, 0xffffffff, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, or, 0x0000000d, 0x0000000d)
    TEST_RR_ZEROSRC1(24, or, 0x0000000f, 0x0000000f)
    TEST_RR_ZEROSRC2(25, or, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(26, or, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
