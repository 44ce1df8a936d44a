# c.addi rd, nzimm: rd = rd + sext(imm6), -32..31.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00000006, li a4, 5; c.addi a4, 1)
    TEST_CASE(3, a4, 0xffffffe5, li a4, 5; c.addi a4, -32)
    TEST_CASE(4, a4, 0x80000000, li a4, 0x7fffffe1; c.addi a4, 31)
    TEST_CASE(5, ra, 0xffffffff, li ra, 0; c.addi ra, -1)

    TEST_PASSFAIL

RVTEST_CODE_END
