# sb: store the low byte of rs2; the other bytes of the word are unchanged.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_ST_OP(2, lb, sb, 0xffffffaa, 0xffffffaa, 0, buf)
    TEST_ST_OP(3, lbu, sb, 0x00000078, 0x12345678, 1, buf)
    TEST_ST_OP(4, lb, sb, 0xffffff80, 0x00000080, 2, buf+4)
    TEST_ST_OP(5, lb, sb, 0x00000000, 0x00000000, -1, buf+8)
    TEST_ST_WORD(6, sb, 0xdeadbe12, 0x00000012, 0, w0)
    TEST_ST_WORD(7, sb, 0xdead34ef, 0xabcdef34, 1, w1)
    TEST_ST_WORD(8, sb, 0xde56beef, 0x00000056, 2, w2)
    TEST_ST_WORD(9, sb, 0x78adbeef, 0x00000078, 3, w3)
    TEST_CASE(10, x14, 0xdeadbeef, la x1, w5; li x2, 0x99; sb x2, -1(x1); lw x14, 0(x1))
    TEST_CASE(11, x14, 0x99adbeef, la x1, w4; lw x14, 0(x1))

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
