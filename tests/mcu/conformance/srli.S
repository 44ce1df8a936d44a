# srli: logical right shift by shamt
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, srli, 0x80000000, 0x80000000, 0)
    TEST_IMM_OP(3, srli, 0x40000000, 0x80000000, 1)
    TEST_IMM_OP(4, srli, 0x01000000, 0x80000000, 7)
    TEST_IMM_OP(5, srli, 0x00020000, 0x80000000, 14)
    TEST_IMM_OP(6, srli, 0x00000001, 0x80000000, 31)
    TEST_IMM_OP(7, srli, 0xffffffff, 0xffffffff, 0)
    TEST_IMM_OP(8, srli, 0x7fffffff, 0xffffffff, 1)
    TEST_IMM_OP(9, srli, 0x00000001, 0xffffffff, 31)
    TEST_IMM_OP(10, srli, 0x21212121, 0x21212121, 0)
    TEST_IMM_OP(11, srli, 0x10909090, 0x21212121, 1)
    TEST_IMM_OP(12, srli, 0x00008484, 0x21212121, 14)
    TEST_IMM_OP(13, srli, 0x00000000, 0x21212121, 31)
    TEST_IMM_OP(14, srli, 0x10303030, 0x81818181, 3)
    TEST_IMM_OP(15, srli, 0x00000001, 0x7fffffff, 30)
    TEST_IMM_SRC1_EQ_DEST(16, srli, 0x00000001, 0x80000000, 31)
    TEST_IMM_ZEROSRC1(17, srli, 0x00000000, 31)
    TEST_IMM_ZERODEST(18, srli, 0x00000021, 5)

    TEST_PASSFAIL

RVTEST_CODE_END
