# c.srli rd', shamt: logical right shift, shamt 1..31.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00000001, li a4, 0x80000000; c.srli a4, 31)
    TEST_CASE(3, a4, 0x7fffffff, li a4, 0xffffffff; c.srli a4, 1)
    TEST_CASE(4, a4, 0x00012345, li a4, 0x12345678; c.srli a4, 12)

    TEST_PASSFAIL

RVTEST_CODE_END
