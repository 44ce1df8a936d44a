# sh: store the low halfword of rs2; the other half of the word is unchanged.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_ST_OP(2, lh, sh, 0xffffaaaa, 0xffffaaaa, 0, buf)
    TEST_ST_OP(3, lhu, sh, 0x00005678, 0x12345678, 2, buf)
    TEST_ST_OP(4, lh, sh, 0xffff8000, 0x00008000, 4, buf+4)
    TEST_ST_OP(5, lh, sh, 0x00000000, 0x00000000, -2, buf+8)
    TEST_ST_WORD(6, sh, 0xdead1234, 0xabcd1234, 0, w0)
    TEST_ST_WORD(7, sh, 0x5678beef, 0x00005678, 2, w1)
    TEST_CASE(8, x14, 0xdeadbeef, la x1, w3; li x2, 0x9988; sh x2, -2(x1); lw x14, 0(x1))
    TEST_CASE(9, x14, 0x9988beef, la x1, w2; lw x14, 0(x1))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf:    .word 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef
        .word 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef
w0:     .word 0xdeadbeef
w1:     .word 0xdeadbeef
w2:     .word 0xdeadbeef
w3:     .word 0xdeadbeef
w4:     .word 0xdeadbeef
w5:     .word 0xdeadbeef
RVTEST_DATA_END
