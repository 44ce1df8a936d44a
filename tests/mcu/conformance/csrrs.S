# csrrs: rd = old CSR value, CSR |= rs1; no write at all when rs1 is x0. Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x0000f0f0, li x1, 0xf0f0; csrw mscratch, x1; li x2, 0x0f00; csrrs x14, mscratch, x2)
    TEST_CASE(3, x14, 0x0000fff0, csrr x14, mscratch)
    TEST_CASE(4, x14, 0x0000fff0, li x2, 0x80000001; csrrs x14, mscratch, x2)
    TEST_CASE(5, x14, 0x8000fff1, csrrs x14, mscratch, x0)
    TEST_CASE(6, x14, 0x8000fff1, li x2, 0xfff1; csrs mscratch, x2; csrr x14, mscratch)
    TEST_CASE(7, x14, 0x00000000, csrrs x14, cycle, x0; csrrs x14, instret, x0; csrrs x14, mhartid, x0) /* read-only: no trap */

    TEST_PASSFAIL

RVTEST_CODE_END
