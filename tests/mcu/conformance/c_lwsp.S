# c.lwsp rd, uimm(sp): load a word; offset zero-extended, multiple of 4, 0..252.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00ff00ff, la sp, tdat; c.lwsp a4, 0(sp))
    TEST_CASE(3, a4, 0xff00ff00, la sp, tdat; c.lwsp a4, 4(sp))
    TEST_CASE(4, x31, 0xf00ff00f, la sp, tdat; c.lwsp x31, 252(sp))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
tdat: .word 0x00ff00ff, 0xff00ff00
      .fill 61, 4, 0
      .word 0xf00ff00f
RVTEST_DATA_END
