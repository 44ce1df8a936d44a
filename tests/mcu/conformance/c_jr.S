# c.jr rs1: pc = rs1; no link.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

test_2:
    li TESTNUM, 2
    li ra, 0
    la a1, 1f
    c.jr a1
    j fail
1:  bnez ra, fail

    TEST_PASSFAIL

RVTEST_CODE_END
