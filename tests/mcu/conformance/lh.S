# lh: load a halfword, sign-extended.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_LD_OP(2, lh, 0x000000ff, 0, tdat_h)
    TEST_LD_OP(3, lh, 0xffffff00, 2, tdat_h)
    TEST_LD_OP(4, lh, 0x00000ff0, 4, tdat_h)
    TEST_LD_OP(5, lh, 0xfffff00f, 6, tdat_h)
    TEST_LD_OP(6, lh, 0x000000ff, -6, tdat_h+6)
    TEST_LD_OP(7, lh, 0xffffff00, -4, tdat_h+6)
    TEST_LD_OP(8, lh, 0x00000ff0, 0, tdat+2)
    TEST_LD_OP(9, lh, 0xffffff00, 6, tdat_w)
    TEST_LD_DEST_EQ_BASE(10, lh, 0xfffff00f, 6, tdat_h)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
tdat_h: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
tdat_w: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
RVTEST_DATA_END
