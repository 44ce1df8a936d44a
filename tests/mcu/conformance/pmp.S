# Physical memory protection (privileged ISA manual, "Physical Memory Protection") on hetvp's
# machine-mode-only hart: WARL fields, granularity 4 bytes (G = 0), unlocked entries do not bind
# machine mode, locked ones do (R/W/X per entry; TOR, NA4 and NAPOT matching; the lowest-numbered
# matching entry decides), and a locked entry — and the address below a locked TOR entry — ignores
# writes. Access faults: mcause 1 (fetch), 5 (load), 7 (store), mtval = the address.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    /* WARL: bits 6:5 read 0, R=0 W=1 reads W=0, A/X/R are kept (entries 4-7, unlocked) */
    TEST_CASE(2, x14, 0x00001d00, li x1, 0x60021d00; csrw pmpcfg1, x1; csrr x14, pmpcfg1)
    /* G = 0: every pmpaddr bit is writable and reads back as written */
    TEST_CASE(3, x14, 0xffffffff, li x1, -1; csrw pmpaddr5, x1; csrr x14, pmpaddr5)
    /* an unlocked entry without permissions does not bind machine mode */
    TEST_CASE(4, x14, 0x11223344, la x1, w_a; srli x2, x1, 2; csrw pmpaddr4, x2; li x2, 0x10; csrw pmpcfg1, x2; lw x14, 0(x1))

    /* entry 8: locked NA4, read-only, over w_ro: a load works, a store faults and stores nothing */
    TEST_CASE(5, x14, 0x55667788, la x1, w_ro; srli x2, x1, 2; csrw pmpaddr8, x2; li x2, 0x91; csrw pmpcfg2, x2; lw x14, 0(x1))
    TEST_TRAP(6, 7, la x1, w_ro; li x2, 1; 7: sw x2, 0(x1))
    csrr t1, mtval; la t2, w_ro; bne t1, t2, fail
    TEST_CASE(7, x14, 0x55667788, la x1, w_ro; lw x14, 0(x1))
    /* a locked entry ignores writes to its configuration and its address */
    TEST_CASE(8, x14, 0x91, csrw pmpcfg2, zero; csrr x14, pmpcfg2; andi x14, x14, 0xff)
    TEST_CASE(9, x14, 0, la x1, w_ro; srli x1, x1, 2; csrw pmpaddr8, zero; csrr x14, pmpaddr8; sub x14, x14, x1)

    /* entries 9-10: locked TOR over [noexec, noexec_end), readable and writable, not executable */
    la x1, noexec; srli x1, x1, 2; csrw pmpaddr9, x1
    la x1, noexec_end; srli x1, x1, 2; csrw pmpaddr10, x1
    li x1, 0x8b << 16; csrw pmpcfg2, x1
test_10:
    li TESTNUM, 10
    la t0, 8f
    csrw mtvec, t0
    la x1, noexec
    jalr x1
    j fail
    .balign 4
8:  csrr t1, mcause; li t2, 1; bne t1, t2, fail
    csrr t1, mepc; la t2, noexec; bne t1, t2, fail
    csrr t1, mtval; bne t1, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    /* ... its bytes can be read (R) */
    TEST_CASE(11, x14, 0x00100713, la x1, noexec; lw x14, 0(x1))
    /* the address below a locked TOR entry is locked too */
    TEST_CASE(12, x14, 0, la x2, noexec; srli x2, x2, 2; csrw pmpaddr9, zero; csrr x14, pmpaddr9; sub x14, x14, x2)

    /* entry 11: locked NAPOT without permissions over the 8 bytes at w_napot: a load faults there, not after */
    la x1, w_napot; srli x1, x1, 2; csrw pmpaddr11, x1
    li x1, 0x98 << 24; csrw pmpcfg2, x1
    TEST_TRAP(13, 5, la x1, w_napot; 7: lw x14, 4(x1))
    csrr t1, mtval; la t2, w_napot + 4; bne t1, t2, fail
    TEST_CASE(14, x14, 0x99, la x1, w_napot; lw x14, 8(x1))

    /* the lowest-numbered match decides: unlocked entry 4 over w_low shields locked entry 12 ... */
    la x1, w_low; srli x1, x1, 2; csrw pmpaddr4, x1; csrw pmpaddr12, x1
    li x1, 0x10; csrw pmpcfg1, x1
    li x1, 0x90; csrw pmpcfg3, x1
    TEST_CASE(15, x14, 0x77, la x1, w_low; lw x14, 0(x1))
    /* ... and without it, entry 12 binds */
    csrw pmpcfg1, zero
    TEST_TRAP(16, 5, la x1, w_low; 7: lw x14, 0(x1))

    TEST_PASSFAIL

    .balign 4
noexec:
    addi x14, x0, 1
    ret
noexec_end:

RVTEST_CODE_END

RVTEST_DATA_BEGIN
w_a:    .word 0x11223344
w_ro:   .word 0x55667788
w_low:  .word 0x77
        .balign 8
w_napot: .word 1, 2
        .word 0x99
RVTEST_DATA_END
