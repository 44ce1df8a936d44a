# csrrw: rd = old CSR value, CSR = rs1 (always written, also when rd = x0). Uses mscratch.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x00000000, csrw mscratch, x0; li x1, 0x12345678; csrrw x14, mscratch, x1)
    TEST_CASE(3, x14, 0x12345678, li x1, 0xfedcba98; csrrw x14, mscratch, x1)
    TEST_CASE(4, x14, 0xfedcba98, csrrw x14, mscratch, x0)
    TEST_CASE(5, x14, 0x00000000, csrr x14, mscratch)
    TEST_CASE(6, x14, 0x0000abcd, li x1, 0xabcd; csrrw x0, mscratch, x1; csrr x14, mscratch)
    TEST_CASE(7, x1, 0x0000abcd, li x1, 0x5555; csrrw x1, mscratch, x1)    /* rd == rs1 */
    TEST_CASE(8, x14, 0x00005555, csrr x14, mscratch)

    TEST_PASSFAIL

RVTEST_CODE_END
