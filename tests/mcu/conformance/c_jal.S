# c.jal offset (RV32 only): ra = pc + 2, pc += sext(offset).
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

test_2:
    li TESTNUM, 2
    c.jal 1f
2:  j fail
1:  la x5, 2b
    bne ra, x5, fail

test_3:
    li TESTNUM, 3
    j 3f
4:  j 5f
3:  c.jal 4b
    j fail
5:

    TEST_PASSFAIL

RVTEST_CODE_END
