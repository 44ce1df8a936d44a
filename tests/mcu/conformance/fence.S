# fence: orders memory accesses; on a single hart it changes no register or memory value.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x00000055, la x1, buf; li x2, 0x55; sw x2, 0(x1); fence; lw x14, 0(x1))
    TEST_CASE(3, x14, 0x00000066, la x1, buf; li x2, 0x66; sw x2, 0(x1); fence rw, rw; lw x14, 0(x1))
    TEST_CASE(4, x14, 0x00000077, la x1, buf; li x2, 0x77; sw x2, 0(x1); fence w, r; fence iorw, iorw; fence.tso; lw x14, 0(x1))
    TEST_CASE(5, x14, 0x00000003, li x14, 3; fence; fence)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .word 0
RVTEST_DATA_END
