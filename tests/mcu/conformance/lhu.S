# lhu: load a halfword, zero-extended.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_LD_OP(2, lhu, 0x000000ff, 0, tdat_h)
    TEST_LD_OP(3, lhu, 0x0000ff00, 2, tdat_h)
    TEST_LD_OP(4, lhu, 0x00000ff0, 4, tdat_h)
    TEST_LD_OP(5, lhu, 0x0000f00f, 6, tdat_h)
    TEST_LD_OP(6, lhu, 0x000000ff, -6, tdat_h+6)
    TEST_LD_OP(7, lhu, 0x0000ff00, -4, tdat_h+6)
    TEST_LD_OP(8, lhu, 0x0000ff00, 6, tdat_w)
    TEST_LD_DEST_EQ_BASE(9, lhu, 0x0000f00f, 6, tdat_h)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
tdat_h: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
tdat_w: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
RVTEST_DATA_END
