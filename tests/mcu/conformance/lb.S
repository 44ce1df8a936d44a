# lb: load a byte, sign-extended. Data little-endian.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_LD_OP(2, lb, 0xffffffff, 0, tdat)
    TEST_LD_OP(3, lb, 0x00000000, 1, tdat)
    TEST_LD_OP(4, lb, 0xfffffff0, 2, tdat)
    TEST_LD_OP(5, lb, 0x0000000f, 3, tdat)
    TEST_LD_OP(6, lb, 0xffffffff, -3, tdat+3)
    TEST_LD_OP(7, lb, 0xfffffff0, -1, tdat+3)
    TEST_LD_OP(8, lb, 0xffffffff, 2, tdat_w)
    TEST_LD_OP(9, lb, 0x00000000, 3, tdat_w)
    TEST_LD_DEST_EQ_BASE(10, lb, 0x0000000f, 3, tdat)
    TEST_CASE(11, x0, 0, la x1, tdat; lb x0, 0(x1))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
tdat_h: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
tdat_w: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
RVTEST_DATA_END
