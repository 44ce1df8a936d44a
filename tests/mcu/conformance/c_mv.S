# c.mv rd, rs2: rd = rs2.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x12345678, li a1, 0x12345678; c.mv a4, a1)
    TEST_CASE(3, x31, 0x80000000, li x30, 0x80000000; c.mv x31, x30)

    TEST_PASSFAIL

RVTEST_CODE_END
