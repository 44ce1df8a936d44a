# c.beqz rs1', offset: branch if rs1 == 0.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

test_2:
    li TESTNUM, 2
    li a0, 0
    c.beqz a0, 1f
    j fail
1:

test_3:
    li TESTNUM, 3
    li a0, 1
    c.beqz a0, 1f
    j 2f
1:  j fail
2:

test_4:
    li TESTNUM, 4
    li a0, 0
    j 3f
4:  j 5f
3:  c.beqz a0, 4b
    j fail
5:

test_5:
    li TESTNUM, 5
    li a0, 0x80000000
    c.beqz a0, 1f
    j 2f
1:  j fail
2:

    TEST_PASSFAIL

RVTEST_CODE_END
