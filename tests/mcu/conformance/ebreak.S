# ebreak: breakpoint exception (mcause 3), mepc = the ebreak.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_TRAP(2, 3, 7: ebreak)
    TEST_TRAP(3, 3, nop; 7: ebreak; nop)

    TEST_PASSFAIL

RVTEST_CODE_END
