# c.lw rd', uimm(rs1'): load a word; offset zero-extended, multiple of 4, 0..124.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00ff00ff, la a0, tdat; c.lw a4, 0(a0))
    TEST_CASE(3, a4, 0xff00ff00, la a0, tdat; c.lw a4, 4(a0))
    TEST_CASE(4, a4, 0xf00ff00f, la a0, tdat; c.lw a4, 124(a0))
    TEST_CASE(5, a0, 0x0ff00ff0, la a0, tdat; c.lw a0, 8(a0))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat: .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0
      .fill 28, 4, 0
      .word 0xf00ff00f
RVTEST_DATA_END
