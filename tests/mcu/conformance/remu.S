# remu: unsigned remainder; x%0 = x
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, remu, 0x00000002, 0x00000014, 0x00000006)
    TEST_RR_OP(3, remu, 0x00000002, 0xffffffec, 0x00000006)
    TEST_RR_OP(4, remu, 0x00000014, 0x00000014, 0xfffffffa)
    TEST_RR_OP(5, remu, 0xffffffec, 0xffffffec, 0xfffffffa)
    TEST_RR_OP(6, remu, 0x00000000, 0x80000000, 0x00000001)
    TEST_RR_OP(7, remu, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(8, remu, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(9, remu, 0x00000001, 0x00000001, 0x00000000)
    TEST_RR_OP(10, remu, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(11, remu, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_RR_OP(12, remu, 0x7fffffff, 0x7fffffff, 0xffffffff)
    TEST_RR_OP(13, remu, 0x00000007, 0x00000007, 0x80000000)
    TEST_RR_OP(14, remu, 0x00000001, 0xfffffff9, 0x00000002)
    TEST_RR_OP(15, remu, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(16, remu, 0x00000678, 0x12345678, 0x00001000)
    TEST_RR_OP(17, remu, 0x80000001, 0x80000001, 0xfffffffe)
    TEST_RR_OP(18, remu, 0x00000001, 0x7fffffff, 0x00000003)
    TEST_RR_SRC1_EQ_DEST(19, remu, 0xffffffec, 0xffffffec, 0xfffffffa)
    TEST_RR_SRC2_EQ_DEST(20, remu, 0x00000678, 0x12345678, 0x00001000)
    TEST_RR_SRC12_EQ_DEST(21, remu, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(22, remu, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(23, remu, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(24, remu, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
