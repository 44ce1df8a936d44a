# beq: branch if rs1 == rs2. Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_TAKEN(2, beq, 0x00000000, 0x00000000)
    TEST_BR2_TAKEN(3, beq, 0x00000001, 0x00000001)
    TEST_BR2_TAKEN(4, beq, 0xffffffff, 0xffffffff)
    TEST_BR2_NOTTAKEN(5, beq, 0x00000000, 0x00000001)
    TEST_BR2_NOTTAKEN(6, beq, 0x00000001, 0x00000000)
    TEST_BR2_NOTTAKEN(7, beq, 0xffffffff, 0x00000001)
    TEST_BR2_NOTTAKEN(8, beq, 0x00000001, 0xffffffff)
    TEST_BR2_NOTTAKEN(9, beq, 0xfffffffe, 0xffffffff)
    TEST_BR2_NOTTAKEN(10, beq, 0xffffffff, 0xfffffffe)
    TEST_BR2_NOTTAKEN(11, beq, 0x7fffffff, 0x80000000)
    TEST_BR2_NOTTAKEN(12, beq, 0x80000000, 0x7fffffff)
    TEST_BR2_NOTTAKEN(13, beq, 0x00000000, 0xffffffff)
    TEST_BR2_NOTTAKEN(14, beq, 0xffffffff, 0x00000000)
    TEST_BR2_TAKEN(15, beq, 0x80000000, 0x80000000)
    TEST_BR2_TAKEN(16, beq, 0x00000005, 0x00000005)
    TEST_BR2_NOTTAKEN(17, beq, 0x12345678, 0x12345679)

test_18:                                /* far target (offset > 0xfa0: imm bits 5, 7-11) */
    li TESTNUM, 18
    beq x0, x0, 1f
    j fail
    .skip 0xfa0
1:  bne x0, x0, fail

    TEST_PASSFAIL

RVTEST_CODE_END
