# c.and rd', rs2'.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x0f000f00, li a4, 0xff00ff00; li a5, 0x0f0f0f0f; c.and a4, a5)
    TEST_CASE(3, a4, 0x00000000, li a4, 0xffffffff; li a5, 0; c.and a4, a5)

    TEST_PASSFAIL

RVTEST_CODE_END
