# mepc: bit 0 always reads 0; with C (IALIGN = 16) bit 1 is writable. mret jumps to mepc.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x12345676, li x1, 0x12345677; csrw mepc, x1; csrr x14, mepc)
    TEST_CASE(3, x14, 0xfffffffe, li x1, -1; csrw mepc, x1; csrr x14, mepc)
    TEST_CASE(4, x14, 0x80000002, li x1, 0x80000002; csrw mepc, x1; csrr x14, mepc)

test_5:                                 /* mret goes to mepc */
    li TESTNUM, 5
    la x1, 1f
    csrw mepc, x1
    mret
    j fail
1:

    TEST_PASSFAIL

RVTEST_CODE_END
