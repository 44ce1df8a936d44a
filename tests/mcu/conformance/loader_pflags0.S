# Linked with loader_pflags0.ld: the only PT_LOAD segment has p_flags = 0. Standalone mode loads
# segments whatever their flags and lets code run anywhere (like Spike and QEMU). The program runs
# code, reads and writes data in that segment.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x11223344, la x1, dat; lw x14, 0(x1))
    TEST_CASE(3, x14, 0x55667788, la x1, dat; li x2, 0x55667788; sw x2, 4(x1); lw x14, 4(x1))
    TEST_CASE(4, x14, 42, jal ra, 1f; j 2f; 1: li x14, 42; ret; 2:)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
dat: .word 0x11223344, 0
RVTEST_DATA_END
