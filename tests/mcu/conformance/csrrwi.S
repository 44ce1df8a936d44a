# csrrwi: rd = old CSR value, CSR = zimm (5 bits, zero-extended). Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x00000000, csrw mscratch, x0; csrrwi x14, mscratch, 31)
    TEST_CASE(3, x14, 0x0000001f, csrrwi x14, mscratch, 16)
    TEST_CASE(4, x14, 0x00000010, csrr x14, mscratch)
    TEST_CASE(5, x14, 0x00000000, li x1, -1; csrw mscratch, x1; csrrwi x0, mscratch, 0; csrr x14, mscratch)
    TEST_CASE(6, x14, 0x00000001, csrwi mscratch, 1; csrr x14, mscratch)

    TEST_PASSFAIL

RVTEST_CODE_END
