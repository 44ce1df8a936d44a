# c.li rd, imm: rd = sext(imm6), -32..31.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0xffffffe0, c.li a4, -32)
    TEST_CASE(3, a4, 0x0000001f, c.li a4, 31)
    TEST_CASE(4, a4, 0x00000000, li a4, -1; c.li a4, 0)
    TEST_CASE(5, x31, 0xffffffff, c.li x31, -1)

    TEST_PASSFAIL

RVTEST_CODE_END
