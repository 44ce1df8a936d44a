# csrrsi: rd = old CSR value, CSR |= zimm (zero-extended); no write when zimm is 0. Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x80000000, li x1, 0x80000000; csrw mscratch, x1; csrrsi x14, mscratch, 0x11)
    TEST_CASE(3, x14, 0x80000011, csrrsi x14, mscratch, 0x1f)
    TEST_CASE(4, x14, 0x8000001f, csrr x14, mscratch)
    TEST_CASE(5, x14, 0x8000001f, csrrsi x14, mscratch, 0)
    TEST_CASE(6, x14, 0x00000000, csrrsi x14, cycle, 0; csrrsi x14, mvendorid, 0) /* read-only, zimm 0: no trap */

    TEST_PASSFAIL

RVTEST_CODE_END
