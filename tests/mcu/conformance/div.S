# div: signed division rounding towards zero; x/0 = -1, -2^31/-1 = -2^31
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, div, 0x00000003, 0x00000014, 0x00000006)
    TEST_RR_OP(3, div, 0xfffffffd, 0xffffffec, 0x00000006)
    TEST_RR_OP(4, div, 0xfffffffd, 0x00000014, 0xfffffffa)
    TEST_RR_OP(5, div, 0x00000003, 0xffffffec, 0xfffffffa)
    TEST_RR_OP(6, div, 0x80000000, 0x80000000, 0x00000001)
    TEST_RR_OP(7, div, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(8, div, 0xffffffff, 0x80000000, 0x00000000)
    TEST_RR_OP(9, div, 0xffffffff, 0x00000001, 0x00000000)
    TEST_RR_OP(10, div, 0xffffffff, 0x00000000, 0x00000000)
    TEST_RR_OP(11, div, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_RR_OP(12, div, 0x80000001, 0x7fffffff, 0xffffffff)
    TEST_RR_OP(13, div, 0x00000000, 0x00000007, 0x80000000)
    TEST_RR_OP(14, div, 0xfffffffd, 0xfffffff9, 0x00000002)
    TEST_RR_OP(15, div, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR_OP(16, div, 0x00012345, 0x12345678, 0x00001000)
    TEST_RR_OP(17, div, 0x3fffffff, 0x80000001, 0xfffffffe)
    TEST_RR_OP(18, div, 0x2aaaaaaa, 0x7fffffff, 0x00000003)
    TEST_RR_SRC1_EQ_DEST(19, div, 0x00000003, 0xffffffec, 0xfffffffa)
    TEST_RR_SRC2_EQ_DEST(20, div, 0x00012345, 0x12345678, 0x00001000)
    TEST_RR_SRC12_EQ_DEST(21, div, 0x00000001, 0x0000000d)
    TEST_RR_ZEROSRC1(22, div, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(23, div, 0xffffffff, 0x80000020)
    TEST_RR_ZERODEST(24, div, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
