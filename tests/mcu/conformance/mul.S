# mul: low 32 bits of rs1 * rs2
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, mul, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, mul, 0x00000001, 0x00000001, 0x00000001)
    TEST_RR_OP(4, mul, 0x00000015, 0x00000003, 0x00000007)
    TEST_RR_OP(5, mul, 0x00000015, 0x00000007, 0x00000003)
    TEST_RR_OP(6, mul, 0x00000000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, mul, 0x00000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, mul, 0x00000000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, mul, 0x00000000, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, mul, 0x00000000, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, mul, 0x7fff8001, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, mul, 0x80000000, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, mul, 0x00008000, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, mul, 0x00000000, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, mul, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, mul, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, mul, 0x7fffffff, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, mul, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, mul, 0xed11ef10, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, mul, 0x242d2080, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, mul, 0x00000015, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, mul, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, mul, 0x000000a9, 0x0000000d)
    TEST_RR_ZEROSRC1(24, mul, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(25, mul, 0x00000000, 0x80000020)
    TEST_RR_ZERODEST(26, mul, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
