# c.slli rd, shamt: logical left shift, shamt 1..31.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x80000000, li a4, 1; c.slli a4, 31)
    TEST_CASE(3, a4, 0xfffffffe, li a4, 0xffffffff; c.slli a4, 1)
    TEST_CASE(4, x31, 0x45678000, li x31, 0x12345678; c.slli x31, 12)

    TEST_PASSFAIL

RVTEST_CODE_END
