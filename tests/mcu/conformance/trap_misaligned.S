# Misaligned loads and stores. The ISA manual lets an implementation either perform them or raise
# an address-misaligned exception; hetvp traps (docs/iss.md): mcause 4 (load) / 6 (store), mepc =
# the instruction, mtval = the address. Byte accesses are never misaligned.
#include "test_macros.h"

#define MISALIGNED(n, cause, insn, off)                                                             \
    TEST_TRAP(n, cause, la x1, buf; li x14, -1; 7: insn x14, off(x1))                               \
    csrr t1, mtval;                                                                                 \
    la t2, buf + off;                                                                               \
    bne t1, t2, fail;

RVTEST_CODE_BEGIN

    MISALIGNED(2, 4, lw, 1)
    MISALIGNED(3, 4, lw, 2)
    MISALIGNED(4, 4, lh, 3)
    MISALIGNED(5, 4, lhu, 1)
    MISALIGNED(6, 6, sw, 2)
    MISALIGNED(7, 6, sw, 7)
    MISALIGNED(8, 6, sh, 1)
    TEST_CASE(9, x14, 0x00000000, la x1, buf; lw x14, 0(x1); lw x2, 4(x1); or x14, x14, x2) /* nothing was stored */
    TEST_CASE(10, x14, 0xffffffff, la x1, buf; li x2, -1; sb x2, 3(x1); lb x14, 3(x1))
    TEST_CASE(11, x14, 0x0000ff00, la x1, buf; li x2, -1; sb x2, 1(x1); lhu x14, 0(x1))

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .word 0, 0
RVTEST_DATA_END
