# c.addi4spn rd', sp, nzuimm: rd' = sp + zero-extended nzuimm (multiple of 4, 4..1020).
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x000013fc, li sp, 0x1000; c.addi4spn a4, sp, 1020)
    TEST_CASE(3, a4, 0x00001004, li sp, 0x1000; c.addi4spn a4, sp, 4)
    TEST_CASE(4, s0, 0x00000004, li sp, 0xfffffffc; c.addi4spn s0, sp, 8)
    TEST_CASE(5, a5, 0x80000100, li sp, 0x80000000; c.addi4spn a5, sp, 256)

    TEST_PASSFAIL

RVTEST_CODE_END
