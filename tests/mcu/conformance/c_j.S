# c.j offset: pc += sext(offset); no link.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

test_2:
    li TESTNUM, 2
    li ra, 0
    c.j 1f
    j fail
1:  bnez ra, fail

test_3:
    li TESTNUM, 3
    j 3f
4:  j 5f
3:  c.j 4b
    j fail
5:

    TEST_PASSFAIL

RVTEST_CODE_END
