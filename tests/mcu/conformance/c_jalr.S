# c.jalr rs1: ra = pc + 2, pc = rs1.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

test_2:
    li TESTNUM, 2
    la a1, 1f
    c.jalr a1
2:  j fail
1:  la x5, 2b
    bne ra, x5, fail

test_3:                                 /* rs1 == ra: the target uses the old ra */
    li TESTNUM, 3
    la ra, 1f
    c.jalr ra
2:  j fail
1:  la x5, 2b
    bne ra, x5, fail

    TEST_PASSFAIL

RVTEST_CODE_END
