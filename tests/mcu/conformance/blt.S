# blt: branch if rs1 < rs2 (signed). Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_NOTTAKEN(2, blt, 0x00000000, 0x00000000)
    TEST_BR2_NOTTAKEN(3, blt, 0x00000001, 0x00000001)
    TEST_BR2_NOTTAKEN(4, blt, 0xffffffff, 0xffffffff)
    TEST_BR2_TAKEN(5, blt, 0x00000000, 0x00000001)
    TEST_BR2_NOTTAKEN(6, blt, 0x00000001, 0x00000000)
    TEST_BR2_TAKEN(7, blt, 0xffffffff, 0x00000001)
    TEST_BR2_NOTTAKEN(8, blt, 0x00000001, 0xffffffff)
    TEST_BR2_TAKEN(9, blt, 0xfffffffe, 0xffffffff)
    TEST_BR2_NOTTAKEN(10, blt, 0xffffffff, 0xfffffffe)
    TEST_BR2_NOTTAKEN(11, blt, 0x7fffffff, 0x80000000)
    TEST_BR2_TAKEN(12, blt, 0x80000000, 0x7fffffff)
    TEST_BR2_NOTTAKEN(13, blt, 0x00000000, 0xffffffff)
    TEST_BR2_TAKEN(14, blt, 0xffffffff, 0x00000000)
    TEST_BR2_NOTTAKEN(15, blt, 0x80000000, 0x80000000)
    TEST_BR2_NOTTAKEN(16, blt, 0x00000005, 0x00000005)
    TEST_BR2_TAKEN(17, blt, 0x12345678, 0x12345679)

    TEST_PASSFAIL

RVTEST_CODE_END
