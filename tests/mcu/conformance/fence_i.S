# fence.i: after a store to instruction memory, fence.i makes the new instruction visible to fetch.
# The instruction at `patch` is executed once (addi x14, x0, 1), overwritten with addi x14, x0, 2
# (0x00200713), then executed again.
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    jal ra, patch
    li t2, 1
    bne x14, t2, fail
    la x1, patch
    li x2, 0x00200713
    sw x2, 0(x1)
    fence.i
    jal ra, patch
    li t2, 2
    bne x14, t2, fail
    j 1f

patch:
    addi x14, x0, 1
    ret
1:

    TEST_PASSFAIL

RVTEST_CODE_END
