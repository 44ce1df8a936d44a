# c.addi16sp sp, nzimm: sp = sp + sext(nzimm), multiple of 16, -512..496.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, sp, 0x00000e00, li sp, 0x1000; c.addi16sp sp, -512)
    TEST_CASE(3, sp, 0x000011f0, li sp, 0x1000; c.addi16sp sp, 496)
    TEST_CASE(4, sp, 0x00001010, li sp, 0x1000; c.addi16sp sp, 16)

    TEST_PASSFAIL

RVTEST_CODE_END
