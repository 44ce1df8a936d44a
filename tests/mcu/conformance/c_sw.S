# c.sw rs2', uimm(rs1'): store a word; offset zero-extended, multiple of 4, 0..124.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x12345678, la a0, buf; li a1, 0x12345678; c.sw a1, 0(a0); lw a4, 0(a0))
    TEST_CASE(3, a4, 0x9abcdef0, la a0, buf; li a1, 0x9abcdef0; c.sw a1, 124(a0); lw a4, 124(a0))
    TEST_CASE(4, a4, 0x12345678, la a0, buf; lw a4, 0(a0))
    TEST_CASE(5, a4, 0x00000000, la a0, buf; lw a4, 120(a0))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .fill 32, 4, 0
RVTEST_DATA_END
