# lui: rd = imm20 << 12 (low 12 bits zero).
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x00000000, lui x14, 0x00000)
    TEST_CASE(3, x14, 0xfffff000, lui x14, 0xfffff)
    TEST_CASE(4, x14, 0x7ffff000, lui x14, 0x7ffff)
    TEST_CASE(5, x14, 0x80000000, lui x14, 0x80000)
    TEST_CASE(6, x14, 0x12345000, lui x14, 0x12345)
    TEST_CASE(7, x14, 0xfffffe00, lui x14, 0xfffff; srai x14, x14, 3)
    TEST_CASE(8, x14, 0x00000fff, li x14, -1; lui x14, 0x00001; addi x14, x14, -1)
    TEST_CASE(9, x0, 0, lui x0, 0x80000)

    TEST_PASSFAIL

RVTEST_CODE_END
