# c.swsp rs2, uimm(sp): store a word; offset zero-extended, multiple of 4, 0..252.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x12345678, la sp, buf; li a1, 0x12345678; c.swsp a1, 0(sp); lw a4, 0(sp))
    TEST_CASE(3, a4, 0x9abcdef0, la sp, buf; li x31, 0x9abcdef0; c.swsp x31, 252(sp); lw a4, 252(sp))
    TEST_CASE(4, a4, 0x00000000, la sp, buf; lw a4, 248(sp))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .fill 64, 4, 0
RVTEST_DATA_END
