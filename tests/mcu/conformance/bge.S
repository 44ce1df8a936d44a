# bge: branch if rs1 >= rs2 (signed). Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_TAKEN(2, bge, 0x00000000, 0x00000000)
    TEST_BR2_TAKEN(3, bge, 0x00000001, 0x00000001)
    TEST_BR2_TAKEN(4, bge, 0xffffffff, 0xffffffff)
    TEST_BR2_NOTTAKEN(5, bge, 0x00000000, 0x00000001)
    TEST_BR2_TAKEN(6, bge, 0x00000001, 0x00000000)
    TEST_BR2_NOTTAKEN(7, bge, 0xffffffff, 0x00000001)
    TEST_BR2_TAKEN(8, bge, 0x00000001, 0xffffffff)
    TEST_BR2_NOTTAKEN(9, bge, 0xfffffffe, 0xffffffff)
    TEST_BR2_TAKEN(10, bge, 0xffffffff, 0xfffffffe)
    TEST_BR2_TAKEN(11, bge, 0x7fffffff, 0x80000000)
    TEST_BR2_NOTTAKEN(12, bge, 0x80000000, 0x7fffffff)
    TEST_BR2_TAKEN(13, bge, 0x00000000, 0xffffffff)
    TEST_BR2_NOTTAKEN(14, bge, 0xffffffff, 0x00000000)
    TEST_BR2_TAKEN(15, bge, 0x80000000, 0x80000000)
    TEST_BR2_TAKEN(16, bge, 0x00000005, 0x00000005)
    TEST_BR2_NOTTAKEN(17, bge, 0x12345678, 0x12345679)

    TEST_PASSFAIL

RVTEST_CODE_END
