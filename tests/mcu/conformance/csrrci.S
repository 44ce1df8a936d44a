# csrrci: rd = old CSR value, CSR &= ~zimm (zero-extended); no write when zimm is 0. Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0xffffffff, li x1, -1; csrw mscratch, x1; csrrci x14, mscratch, 0x11)
    TEST_CASE(3, x14, 0xffffffee, csrrci x14, mscratch, 0x1f)
    TEST_CASE(4, x14, 0xffffffe0, csrr x14, mscratch)
    TEST_CASE(5, x14, 0xffffffe0, csrrci x14, mscratch, 0)
    TEST_CASE(6, x14, 0x00000000, csrrci x14, mhartid, 0) /* read-only, zimm 0: no trap */

    TEST_PASSFAIL

RVTEST_CODE_END
