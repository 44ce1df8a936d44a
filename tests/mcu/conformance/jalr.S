# jalr: target = (rs1 + sext(imm12)) & ~1; rd = pc + 4 (rd written after rs1 is read).
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    la x1, 1f
    jalr x4, 0(x1)
2:  j fail
1:  la x2, 2b
    bne x4, x2, fail

test_3:                                 /* positive offset */
    li TESTNUM, 3
    la x1, 1f
    addi x1, x1, -12
    jalr x0, 12(x1)
    j fail
1:

test_4:                                 /* negative offset */
    li TESTNUM, 4
    la x1, 1f
    addi x1, x1, 2044
    jalr x0, -2044(x1)
    j fail
1:

test_5:                                 /* bit 0 of the sum is cleared: odd base */
    li TESTNUM, 5
    la x1, 1f
    addi x1, x1, 1
    jalr x0, 0(x1)
    j fail
1:

test_6:                                 /* bit 0 of the sum is cleared: odd offset */
    li TESTNUM, 6
    la x1, 1f
    jalr x0, 1(x1)
    j fail
1:

test_7:                                 /* rd == rs1: the target uses the old rs1 */
    li TESTNUM, 7
    la x1, 1f
    jalr x1, 0(x1)
2:  j fail
1:  la x2, 2b
    bne x1, x2, fail

test_8:                                 /* call and return */
    li TESTNUM, 8
    li x14, 0
    jal ra, 3f
    li x2, 5
    bne x14, x2, fail
    j 4f
3:  li x14, 5
    jalr x0, 0(ra)
    j fail
4:

    TEST_PASSFAIL

RVTEST_CODE_END
