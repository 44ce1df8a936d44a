# sub: rd = rs1 - rs2 (modulo 2^32)
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, sub, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR_OP(3, sub, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR_OP(4, sub, 0xfffffffc, 0x00000003, 0x00000007)
    TEST_RR_OP(5, sub, 0x00000004, 0x00000007, 0x00000003)
    TEST_RR_OP(6, sub, 0x00008000, 0x00000000, 0xffff8000)
    TEST_RR_OP(7, sub, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(8, sub, 0x80008000, 0x80000000, 0xffff8000)
    TEST_RR_OP(9, sub, 0xffff8001, 0x00000000, 0x00007fff)
    TEST_RR_OP(10, sub, 0x7fffffff, 0x7fffffff, 0x00000000)
    TEST_RR_OP(11, sub, 0x7fff8000, 0x7fffffff, 0x00007fff)
    TEST_RR_OP(12, sub, 0x7fff8001, 0x80000000, 0x00007fff)
    TEST_RR_OP(13, sub, 0x80007fff, 0x7fffffff, 0xffff8000)
    TEST_RR_OP(14, sub, 0x00000001, 0x00000000, 0xffffffff)
    TEST_RR_OP(15, sub, 0xfffffffe, 0xffffffff, 0x00000001)
    TEST_RR_OP(16, sub, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR_OP(17, sub, 0x80000002, 0x00000001, 0x7fffffff)
    TEST_RR_OP(18, sub, 0x80000001, 0x80000000, 0xffffffff)
    TEST_RR_OP(19, sub, 0x1fe01fe1, 0x0ff00ff0, 0xf00ff00f)
    TEST_RR_OP(20, sub, 0x77777788, 0x12345678, 0x9abcdef0)
    TEST_RR_SRC1_EQ_DEST(21, sub, 0x00000004, 0x00000007, 0x00000003)
    TEST_RR_SRC2_EQ_DEST(22, sub, 0x80000001, 0x80000000, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(23, sub, 0x00000000, 0x0000000d)
    TEST_RR_ZEROSRC1(24, sub, 0xfffffff1, 0x0000000f)
    TEST_RR_ZEROSRC2(25, sub, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(26, sub, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
