# c.nop: no effect.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00000007, li a4, 7; c.nop; c.nop)

    TEST_PASSFAIL

RVTEST_CODE_END
