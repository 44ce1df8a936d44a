# lbu: load a byte, zero-extended.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_LD_OP(2, lbu, 0x000000ff, 0, tdat)
    TEST_LD_OP(3, lbu, 0x00000000, 1, tdat)
    TEST_LD_OP(4, lbu, 0x000000f0, 2, tdat)
    TEST_LD_OP(5, lbu, 0x0000000f, 3, tdat)
    TEST_LD_OP(6, lbu, 0x000000ff, -3, tdat+3)
    TEST_LD_OP(7, lbu, 0x000000f0, -1, tdat+3)
    TEST_LD_OP(8, lbu, 0x000000ff, 2, tdat_w)
    TEST_LD_DEST_EQ_BASE(9, lbu, 0x000000f0, 2, tdat)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
tdat_h: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f
tdat_w: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
RVTEST_DATA_END
