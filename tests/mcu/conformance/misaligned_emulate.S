# Misaligned loads and stores done in hardware (`hetvp iss --misaligned emulate`, the microcontrollers'
# `misaligned: emulate`): the value is the little-endian bytes at the address, and the access costs
# its class's cycles twice (docs/iss.md). trap_misaligned.S checks the default (they trap).
# iss-args: --misaligned emulate
#include "test_macros.h"

/* the mcycle difference around one access (the csrr before it counts 1 cycle) */
#define CYCLES(n, expect, insn...)                                                                  \
    TEST_CASE(n, x14, expect, la x1, buf; la x3, out; csrr t3, mcycle; insn; csrr t4, mcycle; sub x14, t4, t3)

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x66554433, la x1, buf; lw x14, 2(x1))
    TEST_CASE(3, x14, 0x88776655, la x1, buf; lw x14, 5(x1) ; lw x14, 4(x1))
    TEST_CASE(4, x14, 0x99887766, la x1, buf; lw x14, 5(x1))
    TEST_CASE(5, x14, 0x00005544, la x1, buf; lh x14, 3(x1))
    TEST_CASE(6, x14, 0xffff9988, la x1, buf; lh x14, 7(x1))
    TEST_CASE(7, x14, 0x00009988, la x1, buf; lhu x14, 7(x1))
    TEST_CASE(8, x14, 0xadbeef00, la x1, out; li x2, 0xdeadbeef; sw x2, 1(x1); lw x14, 0(x1))
    TEST_CASE(9, x14, 0x000000de, la x1, out; lw x14, 4(x1))
    TEST_CASE(10, x14, 0x001234de, la x1, out; li x2, 0x1234; sh x2, 5(x1); lw x14, 4(x1))
    /* cycles: csrr (1) + load (2, twice when misaligned) / store (1, twice when misaligned) */
    CYCLES(11, 3, lw x14, 0(x1))
    CYCLES(12, 5, lw x14, 1(x1))
    CYCLES(13, 5, lh x14, 3(x1))
    CYCLES(14, 2, sw x2, 0(x3))
    CYCLES(15, 3, sw x2, 2(x3))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .byte 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc
     .balign 4
out: .word 0, 0, 0
RVTEST_DATA_END
