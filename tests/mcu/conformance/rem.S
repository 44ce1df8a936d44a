# rem: signed remainder (sign of the dividend); x%0 = x, -2^31%-1 = 0
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, rem, 0x00000002, 0x00000014, 0x00000006)
    TEST_RR_OP(3, rem, 0xfffffffe, 0xffffffec, 0x00000006)
    TEST_RR_OP(4, rem, 0x00000002, 0x00000014, 0xfffffffa)
    TEST_RR_OP(5, rem, 0xfffffffe, 0xffffffec, 0xfffffffa)
    TEST_RR_OP(6, rem, 0x00000000, 0x80000000, 0x00000001)
    TEST_RR_OP(7, rem, 0x00000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(8, rem, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(9, rem, 0x00000001, 0x00000001, 0x00000000)
    TEST_RR_OP(10, rem, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(11, rem, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_RR_OP(12, rem, 0x00000000, 0x7fffffff, 0xffffffff)
    TEST_RR_OP(13, rem, 0x00000007, 0x00000007, 0x80000000)
    TEST_RR_OP(14, rem, 0xffffffff, 0xfffffff9, 0x00000002)
    TEST_RR_OP(15, rem, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(16, rem, 0x00000678, 0x12345678, 0x00001000)
    TEST_RR_OP(17, rem, 0xffffffff, 0x80000001, 0xfffffffe)
    TEST_RR_OP(18, rem, 0x00000001, 0x7fffffff, 0x00000003)
    TEST_RR_SRC1_EQ_DEST(19, rem, 0xfffffffe, 0xffffffec, 0xfffffffa)
    TEST_RR_SRC2_EQ_DEST(20, rem, 0x00000678, 0x12345678, 0x00001000)
    TEST_RR_SRC12_EQ_DEST(21, rem, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(22, rem, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(23, rem, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(24, rem, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
