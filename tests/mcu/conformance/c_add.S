# c.add rd, rs2: rd = rd + rs2.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00000005, li a4, 2; li a1, 3; c.add a4, a1)
    TEST_CASE(3, a4, 0x00000000, li a4, 0xffffffff; li a1, 1; c.add a4, a1)
    TEST_CASE(4, x31, 0x80000000, li x31, 0x7fffffff; li x30, 1; c.add x31, x30)

    TEST_PASSFAIL

RVTEST_CODE_END
