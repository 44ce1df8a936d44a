# c.ebreak: breakpoint exception (mcause 3), mepc = the c.ebreak.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_TRAP(2, 3, 7: c.ebreak)
    TEST_TRAP(3, 3, c.nop; 7: c.ebreak; c.nop)

    TEST_PASSFAIL

RVTEST_CODE_END
