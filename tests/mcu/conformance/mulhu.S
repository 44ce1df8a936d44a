# mulhu: high 32 bits of unsigned x unsigned
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, mulhu, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, mulhu, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR_OP(4, mulhu, 0x00000000, 0x00000003, 0x00000007)
    TEST_RR_OP(5, mulhu, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_OP(6, mulhu, 0x00000000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, mulhu, 0x00000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, mulhu, 0x7fffc000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, mulhu, 0x00000000, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, mulhu, 0x00000000, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, mulhu, 0x00003fff, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, mulhu, 0x00003fff, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, mulhu, 0x7fffbfff, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, mulhu, 0x00000000, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, mulhu, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, mulhu, 0x00000000, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, mulhu, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, mulhu, 0x0ef20cf3, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, mulhu, 0x0b00ea4e, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, mulhu, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, mulhu, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, mulhu, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(24, mulhu, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(25, mulhu, 0x00000000, 0x80000020)
    TEST_RR_ZERODEST(26, mulhu, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
