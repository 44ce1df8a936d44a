# misa: MXL (bits 31:30) = 1 for RV32; extension bits I (8), M (12), C (2) set, nothing else
# (hetvp is RV32IMC + Zicsr, machine mode only); writes are ignored (WARL, fixed).
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x40001104, csrr x14, misa)
    TEST_CASE(3, x14, 0x40001104, li x1, 0xffffffff; csrw misa, x1; csrr x14, misa)
    TEST_CASE(4, x14, 0, csrr x14, mhartid)
    TEST_CASE(5, x14, 0, csrr x14, mvendorid; csrr x1, marchid; or x14, x14, x1; csrr x1, mimpid; or x14, x14, x1)

    TEST_PASSFAIL

RVTEST_CODE_END
