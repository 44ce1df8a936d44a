# c.lui rd, nzimm: rd = sext(nzimm[17:12]) << 12.
# Expected values from the RISC-V ISA manual (the C extension expands to a base instruction).
#include "test_macros.h"

RVTEST_CODE_BEGIN
    .option rvc

    TEST_CASE(2, a4, 0x00001000, c.lui a4, 1)
    TEST_CASE(3, a4, 0x0001f000, c.lui a4, 0x1f)
    TEST_CASE(4, a4, 0xfffe0000, c.lui a4, 0xfffe0)
    TEST_CASE(5, a4, 0xfffff000, c.lui a4, 0xfffff)
    TEST_CASE(6, x31, 0x00005000, c.lui x31, 5)

    TEST_PASSFAIL

RVTEST_CODE_END
