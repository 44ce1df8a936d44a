# add: rd = rs1 + rs2 (modulo 2^32)
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR_OP(4, add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR_OP(5, add, 0x0000000a, 0x00000007, 0x00000003)
    TEST_RR_OP(6, add, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, add, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, add, 0x7fff8000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, add, 0x00007fff, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, add, 0x7fffffff, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, add, 0x80007ffe, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, add, 0x80007fff, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, add, 0x7fff7fff, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, add, 0xffffffff, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, add, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, add, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, add, 0x80000000, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, add, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, add, 0xffffffff, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, add, 0xacf13568, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, add, 0x0000000a, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, add, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, add, 0x0000001a, 0x0000000d)
    TEST_RR_ZEROSRC1(24, add, 0x0000000f, 0x0000000f)
    TEST_RR_ZEROSRC2(25, add, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(26, add, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
