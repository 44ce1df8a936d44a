# lw: load a word.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_LD_OP(2, lw, 0x00ff00ff, 0, tdat_w)
    TEST_LD_OP(3, lw, 0xff00ff00, 4, tdat_w)
    TEST_LD_OP(4, lw, 0x0ff00ff0, 8, tdat_w)
    TEST_LD_OP(5, lw, 0xf00ff00f, 12, tdat_w)
    TEST_LD_OP(6, lw, 0x00ff00ff, -12, tdat_w+12)
    TEST_LD_OP(7, lw, 0xff00ff00, -8, tdat_w+12)
    TEST_LD_OP(8, lw, 0x0ff000ff, 0, tdat)
    TEST_LD_OP(9, lw, 0xff0000ff, 0, tdat_h)
    TEST_LD_DEST_EQ_BASE(10, lw, 0xf00ff00f, 12, tdat_w)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
tdat_h: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
tdat_w: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
RVTEST_DATA_END
