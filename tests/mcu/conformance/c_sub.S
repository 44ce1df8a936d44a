# c.sub rd', rs2': rd = rd - rs2.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00000001, li a4, 3; li a5, 2; c.sub a4, a5)
    TEST_CASE(3, a4, 0xffffffff, li a4, 0; li a5, 1; c.sub a4, a5)
    TEST_CASE(4, a4, 0x7fffffff, li a4, 0x80000000; li a5, 1; c.sub a4, a5)

    TEST_PASSFAIL

RVTEST_CODE_END
