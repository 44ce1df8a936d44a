# mulh: high 32 bits of signed x signed
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, mulh, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, mulh, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR_OP(4, mulh, 0x00000000, 0x00000003, 0x00000007)
    TEST_RR_OP(5, mulh, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_OP(6, mulh, 0x00000000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, mulh, 0x00000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, mulh, 0x00004000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, mulh, 0x00000000, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, mulh, 0x00000000, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, mulh, 0x00003fff, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, mulh, 0xffffc000, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, mulh, 0xffffc000, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, mulh, 0x00000000, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, mulh, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, mulh, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, mulh, 0x00000000, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, mulh, 0x00000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, mulh, 0xff01fd03, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, mulh, 0xf8cc93d6, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, mulh, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, mulh, 0x00000000, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, mulh, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(24, mulh, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(25, mulh, 0x00000000, 0x80000020)
    TEST_RR_ZERODEST(26, mulh, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
