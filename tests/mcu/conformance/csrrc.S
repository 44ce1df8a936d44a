# csrrc: rd = old CSR value, CSR &= ~rs1; no write at all when rs1 is x0. Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0xffffffff, li x1, -1; csrw mscratch, x1; li x2, 0x0ff0; csrrc x14, mscratch, x2)
    TEST_CASE(3, x14, 0xfffff00f, csrr x14, mscratch)
    TEST_CASE(4, x14, 0xfffff00f, li x2, 0x80000001; csrrc x14, mscratch, x2)
    TEST_CASE(5, x14, 0x7ffff00e, csrrc x14, mscratch, x0)
    TEST_CASE(6, x14, 0x0000000e, li x2, 0xfffff000; csrc mscratch, x2; csrr x14, mscratch)
    TEST_CASE(7, x14, 0x00000000, csrrc x14, cycle, x0; csrrc x14, mhartid, x0) /* read-only: no trap */

    TEST_PASSFAIL

RVTEST_CODE_END
