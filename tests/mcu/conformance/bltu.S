# bltu: branch if rs1 < rs2 (unsigned). Each case checks a forward and a backward branch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_BR2_NOTTAKEN(2, bltu, 0x00000000, 0x00000000)
    TEST_BR2_NOTTAKEN(3, bltu, 0x00000001, 0x00000001)
    TEST_BR2_NOTTAKEN(4, bltu, 0xffffffff, 0xffffffff)
    TEST_BR2_TAKEN(5, bltu, 0x00000000, 0x00000001)
    TEST_BR2_NOTTAKEN(6, bltu, 0x00000001, 0x00000000)
    TEST_BR2_NOTTAKEN(7, bltu, 0xffffffff, 0x00000001)
    TEST_BR2_TAKEN(8, bltu, 0x00000001, 0xffffffff)
    TEST_BR2_TAKEN(9, bltu, 0xfffffffe, 0xffffffff)
    TEST_BR2_NOTTAKEN(10, bltu, 0xffffffff, 0xfffffffe)
    TEST_BR2_TAKEN(11, bltu, 0x7fffffff, 0x80000000)
    TEST_BR2_NOTTAKEN(12, bltu, 0x80000000, 0x7fffffff)
    TEST_BR2_TAKEN(13, bltu, 0x00000000, 0xffffffff)
    TEST_BR2_NOTTAKEN(14, bltu, 0xffffffff, 0x00000000)
    TEST_BR2_NOTTAKEN(15, bltu, 0x80000000, 0x80000000)
    TEST_BR2_NOTTAKEN(16, bltu, 0x00000005, 0x00000005)
    TEST_BR2_TAKEN(17, bltu, 0x12345678, 0x12345679)

    TEST_PASSFAIL

RVTEST_CODE_END
