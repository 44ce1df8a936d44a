# c.andi rd', imm: rd = rd & sext(imm6).
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x000000f0, li a4, 0xff; c.andi a4, -16)
    TEST_CASE(3, a4, 0x0000001f, li a4, 0xffffffff; c.andi a4, 31)
    TEST_CASE(4, a4, 0xffffffe0, li a4, 0xffffffff; c.andi a4, -32)
    TEST_CASE(5, a4, 0x00000000, li a4, 0x12345678; c.andi a4, 0)

    TEST_PASSFAIL

RVTEST_CODE_END
