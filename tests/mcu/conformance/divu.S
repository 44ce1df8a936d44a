# divu: unsigned division; x/0 = 2^32-1
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, divu, 0x00000003, 0x00000014, 0x00000006)
    TEST_RR_OP(3, divu, 0x2aaaaaa7, 0xffffffec, 0x00000006)
    TEST_RR_OP(4, divu, 0x00000000, 0x00000014, 0xfffffffa)
    TEST_RR_OP(5, divu, 0x00000000, 0xffffffec, 0xfffffffa)
    TEST_RR_OP(6, divu, 0x80000000, 0x80000000, 0x00000001)
    TEST_RR_OP(7, divu, 0x00000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(8, divu, 0xffffffff, 0x80000000, 0x00000000)
    TEST_RR_OP(9, divu, 0xffffffff, 0x00000001, 0x00000000)
    TEST_RR_OP(10, divu, 0xffffffff, 0x00000000, 0x00000000)
    TEST_RR_OP(11, divu, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_RR_OP(12, divu, 0x00000000, 0x7fffffff, 0xffffffff)
    TEST_RR_OP(13, divu, 0x00000000, 0x00000007, 0x80000000)
    TEST_RR_OP(14, divu, 0x7ffffffc, 0xfffffff9, 0x00000002)
    TEST_RR_OP(15, divu, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR_OP(16, divu, 0x00012345, 0x12345678, 0x00001000)
    TEST_RR_OP(17, divu, 0x00000000, 0x80000001, 0xfffffffe)
    TEST_RR_OP(18, divu, 0x2aaaaaaa, 0x7fffffff, 0x00000003)
    TEST_RR_SRC1_EQ_DEST(19, divu, 0x00000000, 0xffffffec, 0xfffffffa)
    TEST_RR_SRC2_EQ_DEST(20, divu, 0x00012345, 0x12345678, 0x00001000)
    TEST_RR_SRC12_EQ_DEST(21, divu, 0x00000001, 0x0000000d)
    TEST_RR_ZEROSRC1(22, divu, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(23, divu, 0xffffffff, 0x80000020)
    TEST_RR_ZERODEST(24, divu, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
