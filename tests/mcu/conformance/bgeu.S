# bgeu: branch if rs1 >= rs2 (unsigned). Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_TAKEN(2, bgeu, 0x00000000, 0x00000000)
    TEST_BR2_TAKEN(3, bgeu, 0x00000001, 0x00000001)
    TEST_BR2_TAKEN(4, bgeu, 0xffffffff, 0xffffffff)
    TEST_BR2_NOTTAKEN(5, bgeu, 0x00000000, 0x00000001)
    TEST_BR2_TAKEN(6, bgeu, 0x00000001, 0x00000000)
    TEST_BR2_TAKEN(7, bgeu, 0xffffffff, 0x00000001)
    TEST_BR2_NOTTAKEN(8, bgeu, 0x00000001, 0xffffffff)
    TEST_BR2_NOTTAKEN(9, bgeu, 0xfffffffe, 0xffffffff)
    TEST_BR2_TAKEN(10, bgeu, 0xffffffff, 0xfffffffe)
    TEST_BR2_NOTTAKEN(11, bgeu, 0x7fffffff, 0x80000000)
    TEST_BR2_TAKEN(12, bgeu, 0x80000000, 0x7fffffff)
    TEST_BR2_NOTTAKEN(13, bgeu, 0x00000000, 0xffffffff)
    TEST_BR2_TAKEN(14, bgeu, 0xffffffff, 0x00000000)
    TEST_BR2_TAKEN(15, bgeu, 0x80000000, 0x80000000)
    TEST_BR2_TAKEN(16, bgeu, 0x00000005, 0x00000005)
    TEST_BR2_NOTTAKEN(17, bgeu, 0x12345678, 0x12345679)

    TEST_PASSFAIL

RVTEST_CODE_END
