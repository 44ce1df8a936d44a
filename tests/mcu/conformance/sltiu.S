# sltiu: rd = (unsigned) rs1 < (unsigned) sext(imm12); imm -1 compares with 0xffffffff
# Expected values from the RISC-V unprivileged ISA manual's definition of the instruction.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_IMM_OP(2, sltiu, 0x00000000, 0x00000000, 0)
    TEST_IMM_OP(3, sltiu, 0x00000000, 0x00000001, 1)
    TEST_IMM_OP(4, sltiu, 0x00000001, 0x00000003, 7)
    TEST_IMM_OP(5, sltiu, 0x00000001, 0x00000000, -2048)
    TEST_IMM_OP(6, sltiu, 0x00000000, 0x80000000, 0)
    TEST_IMM_OP(7, sltiu, 0x00000001, 0x80000000, -2048)
    TEST_IMM_OP(8, sltiu, 0x00000001, 0x00000000, 2047)
    TEST_IMM_OP(9, sltiu, 0x00000000, 0x7fffffff, 0)
    TEST_IMM_OP(10, sltiu, 0x00000000, 0x7fffffff, 2047)
    TEST_IMM_OP(11, sltiu, 0x00000000, 0x80000000, 2047)
    TEST_IMM_OP(12, sltiu, 0x00000001, 0x7fffffff, -2048)
    TEST_IMM_OP(13, sltiu, 0x00000001, 0x00000000, -1)
    TEST_IMM_OP(14, sltiu, 0x00000000, 0xffffffff, 1)
    TEST_IMM_OP(15, sltiu, 0x00000000, 0xffffffff, -1)
    TEST_IMM_OP(16, sltiu, 0x00000000, 0x00ff00ff, 240)
    TEST_IMM_OP(17, sltiu, 0x00000001, 0xff00ff00, -241)
    TEST_IMM_OP(18, sltiu, 0x00000001, 0x00000fff, -1)
    TEST_IMM_OP(19, sltiu, 0x00000000, 0xfffff800, -2048)
    TEST_IMM_SRC1_EQ_DEST(20, sltiu, 0x00000000, 0x80000000, 0)
    TEST_IMM_ZEROSRC1(21, sltiu, 0x00000001, -2047)
    TEST_IMM_ZERODEST(22, sltiu, 0x00000021, 33)

    TEST_PASSFAIL

RVTEST_CODE_END
