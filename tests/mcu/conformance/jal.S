# jal: rd = pc + 4; pc = pc + sext(imm21). rd = x0 discards the link.
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:                                 /* forward, link in x4 */
    li TESTNUM, 2
    li x4, 0
    jal x4, 1f
2:  j fail
1:  lui x1, %hi(2b)
    addi x1, x1, %lo(2b)
    bne x4, x1, fail

test_3:                                 /* backward */
    li TESTNUM, 3
    j 3f
4:  j 5f
    j fail
3:  jal x0, 4b
    j fail
5:

    TEST_CASE(4, x0, 0, jal x0, 1f; 1:)

test_5:                                 /* far forward (offset > 0x3000: imm bits 12, 13) */
    li TESTNUM, 5
    jal x5, 1f
2:  j fail
    .skip 0x3004
1:  lui x1, %hi(2b)
    addi x1, x1, %lo(2b)
    bne x5, x1, fail

test_6:                                 /* far backward (offset < -0x1800: imm bit 11 and the sign) */
    li TESTNUM, 6
    j 3f
4:  j 5f
    .skip 0x17fc
3:  jal x6, 4b
2:  j fail
5:  lui x1, %hi(2b)
    addi x1, x1, %lo(2b)
    bne x6, x1, fail

test_7:                                 /* the link is pc + 4 even when rd is ra */
    li TESTNUM, 7
    jal ra, 1f
2:  j fail
1:  lui x1, %hi(2b)
    addi x1, x1, %lo(2b)
    bne ra, x1, fail

    TEST_PASSFAIL

RVTEST_CODE_END
