# xor
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, xor, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, xor, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR_OP(4, xor, 0x00000004, 0x00000003, 0x00000007)
    TEST_RR_OP(5, xor, 0x00000004, 0x00000007, 0x00000003)
    TEST_RR_OP(6, xor, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, xor, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, xor, 0x7fff8000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, xor, 0x00007fff, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, xor, 0x7fffffff, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, xor, 0x7fff8000, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, xor, 0x80007fff, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, xor, 0x80007fff, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, xor, 0xffffffff, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, xor, 0xfffffffe, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, xor, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, xor, 0x7ffffffe, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, xor, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, xor, 0xffffffff, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, xor, 0x88888888, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, xor, 0x00000004, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, xor, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, xor, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(24, xor, 0x0000000f, 0x0000000f)
    TEST_RR_ZEROSRC2(25, xor, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(26, xor, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
