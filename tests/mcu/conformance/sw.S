# sw: store a word.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_ST_OP(2, lw, sw, 0x00aa00aa, 0x00aa00aa, 0, buf)
    TEST_ST_OP(3, lw, sw, 0xaa00aa00, 0xaa00aa00, 4, buf)
    TEST_ST_OP(4, lw, sw, 0x0aa00aa0, 0x0aa00aa0, 8, buf)
    TEST_ST_OP(5, lw, sw, 0xa00aa00a, 0xa00aa00a, 12, buf)
    TEST_ST_OP(6, lw, sw, 0x12345678, 0x12345678, -12, buf+28)
    TEST_ST_OP(7, lw, sw, 0x00000000, 0x00000000, -4, buf+28)
    TEST_CASE(8, x14, 0xdeadbeef, la x1, w0; li x2, 0x11223344; sw x2, 0(x1); lw x14, 4(x1))
    TEST_CASE(9, x14, 0x00aa00aa, la x1, w0; lw x14, -32(x1))
    TEST_CASE(10, x14, 0x11223344, la x1, w0; lw x14, 0(x1))

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
