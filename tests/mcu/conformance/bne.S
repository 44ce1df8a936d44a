# bne: branch if rs1 != rs2. Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_NOTTAKEN(2, bne, 0x00000000, 0x00000000)
    TEST_BR2_NOTTAKEN(3, bne, 0x00000001, 0x00000001)
    TEST_BR2_NOTTAKEN(4, bne, 0xffffffff, 0xffffffff)
    TEST_BR2_TAKEN(5, bne, 0x00000000, 0x00000001)
    TEST_BR2_TAKEN(6, bne, 0x00000001, 0x00000000)
    TEST_BR2_TAKEN(7, bne, 0xffffffff, 0x00000001)
    TEST_BR2_TAKEN(8, bne, 0x00000001, 0xffffffff)
    TEST_BR2_TAKEN(9, bne, 0xfffffffe, 0xffffffff)
    TEST_BR2_TAKEN(10, bne, 0xffffffff, 0xfffffffe)
    TEST_BR2_TAKEN(11, bne, 0x7fffffff, 0x80000000)
    TEST_BR2_TAKEN(12, bne, 0x80000000, 0x7fffffff)
    TEST_BR2_TAKEN(13, bne, 0x00000000, 0xffffffff)
    TEST_BR2_TAKEN(14, bne, 0xffffffff, 0x00000000)
    TEST_BR2_NOTTAKEN(15, bne, 0x80000000, 0x80000000)
    TEST_BR2_NOTTAKEN(16, bne, 0x00000005, 0x00000005)
    TEST_BR2_TAKEN(17, bne, 0x12345678, 0x12345679)

    TEST_PASSFAIL

RVTEST_CODE_END
