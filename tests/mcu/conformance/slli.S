# slli: rs1 << shamt
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, slli, 0x80000000, 0x80000000, 0)
    TEST_IMM_OP(3, slli, 0x00000000, 0x80000000, 1)
    TEST_IMM_OP(4, slli, 0x00000000, 0x80000000, 7)
    TEST_IMM_OP(5, slli, 0x00000000, 0x80000000, 14)
    TEST_IMM_OP(6, slli, 0x00000000, 0x80000000, 31)
    TEST_IMM_OP(7, slli, 0xffffffff, 0xffffffff, 0)
    TEST_IMM_OP(8, slli, 0xfffffffe, 0xffffffff, 1)
    TEST_IMM_OP(9, slli, 0x80000000, 0xffffffff, 31)
    TEST_IMM_OP(10, slli, 0x21212121, 0x21212121, 0)
    TEST_IMM_OP(11, slli, 0x42424242, 0x21212121, 1)
    TEST_IMM_OP(12, slli, 0x48484000, 0x21212121, 14)
    TEST_IMM_OP(13, slli, 0x80000000, 0x21212121, 31)
    TEST_IMM_OP(14, slli, 0x0c0c0c08, 0x81818181, 3)
    TEST_IMM_OP(15, slli, 0xc0000000, 0x7fffffff, 30)
    TEST_IMM_SRC1_EQ_DEST(16, slli, 0x00000000, 0x80000000, 31)
    TEST_IMM_ZEROSRC1(17, slli, 0x00000000, 31)
    TEST_IMM_ZERODEST(18, slli, 0x00000021, 5)

    TEST_PASSFAIL

RVTEST_CODE_END
