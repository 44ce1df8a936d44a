# sltu: rd = (unsigned) rs1 < rs2
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, sltu, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, sltu, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR_OP(4, sltu, 0x00000001, 0x00000003, 0x00000007)
    TEST_RR_OP(5, sltu, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_OP(6, sltu, 0x00000001, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, sltu, 0x00000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, sltu, 0x00000001, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, sltu, 0x00000001, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, sltu, 0x00000000, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, sltu, 0x00000000, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, sltu, 0x00000000, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, sltu, 0x00000001, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, sltu, 0x00000001, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, sltu, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, sltu, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, sltu, 0x00000001, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, sltu, 0x00000001, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, sltu, 0x00000001, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, sltu, 0x00000001, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, sltu, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, sltu, 0x00000001, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, sltu, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(24, sltu, 0x00000001, 0x0000000f)
    TEST_RR_ZEROSRC2(25, sltu, 0x00000000, 0x80000020)
    TEST_RR_ZERODEST(26, sltu, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
