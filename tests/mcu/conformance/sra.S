# sra: arithmetic right shift by rs2[4:0]
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, sra, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR_OP(3, sra, 0xc0000000, 0x80000000, 0x00000001)
    TEST_RR_OP(4, sra, 0xff000000, 0x80000000, 0x00000007)
    TEST_RR_OP(5, sra, 0xfffe0000, 0x80000000, 0x0000000e)
    TEST_RR_OP(6, sra, 0xffffffff, 0x80000000, 0x0000001f)
    TEST_RR_OP(7, sra, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_RR_OP(8, sra, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR_OP(9, sra, 0xffffffff, 0xffffffff, 0x0000001f)
    TEST_RR_OP(10, sra, 0x21212121, 0x21212121, 0x00000000)
    TEST_RR_OP(11, sra, 0x10909090, 0x21212121, 0x00000001)
    TEST_RR_OP(12, sra, 0x00008484, 0x21212121, 0x0000000e)
    TEST_RR_OP(13, sra, 0x00000000, 0x21212121, 0x0000001f)
    TEST_RR_OP(14, sra, 0x21212121, 0x21212121, 0xffffffe0)
    TEST_RR_OP(15, sra, 0x10909090, 0x21212121, 0xffffffe1)
    TEST_RR_OP(16, sra, 0x00008484, 0x21212121, 0xffffffee)
    TEST_RR_OP(17, sra, 0xffffffff, 0x81818181, 0xffffffff)
    TEST_RR_OP(18, sra, 0x00000001, 0x00000001, 0x00000020)
    TEST_RR_OP(19, sra, 0x00000000, 0x00000001, 0x0000003f)
    TEST_RR_SRC1_EQ_DEST(20, sra, 0xfffe0000, 0x80000000, 0x0000000e)
    TEST_RR_SRC2_EQ_DEST(21, sra, 0xffffffff, 0x81818181, 0xffffffff)
    TEST_RR_SRC12_EQ_DEST(22, sra, 0x00000000, 0x00000007)
    TEST_RR_ZEROSRC1(23, sra, 0x00000000, 0x0000000f)
    TEST_RR_ZEROSRC2(24, sra, 0x80000020, 0x80000020)
    TEST_RR_ZERODEST(25, sra, 0x00000010, 0x0000001e)

    TEST_PASSFAIL

RVTEST_CODE_END
