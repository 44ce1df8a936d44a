# c.srai rd', shamt: arithmetic right shift, shamt 1..31.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0xffffffff, li a4, 0x80000000; c.srai a4, 31)
    TEST_CASE(3, a4, 0xc0000000, li a4, 0x80000000; c.srai a4, 1)
    TEST_CASE(4, a4, 0x00012345, li a4, 0x12345678; c.srai a4, 12)
    TEST_CASE(5, a4, 0xfff87654, li a4, 0x87654321; c.srai a4, 12)

    TEST_PASSFAIL

RVTEST_CODE_END
