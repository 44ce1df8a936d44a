# The trap watchdog must not stop programs that make progress: 3000 ecalls from one pc (the handler
# returns past it) and 3000 faulting loads from one pc that the handler repairs and retries.
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    la t0, handler
    csrw mtvec, t0
    li x20, 3000
1:  ecall
    addi x20, x20, -1
    bnez x20, 1b

test_3:
    li TESTNUM, 3
    li x20, 3000
1:  li x1, 4                            /* unmapped */
    lw x2, 0(x1)                        /* faults; the handler sets x1 = buf and retries */
    addi x20, x20, -1
    bnez x20, 1b
    li t2, 0x5a5a
    bne x2, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    j pass

    .balign 4
handler:
    csrr t1, mcause
    li t2, 11
    bne t1, t2, 2f
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    mret
2:  la x1, buf
    mret

RVTEST_CODE_END

RVTEST_DATA_BEGIN
buf: .word 0x5a5a
RVTEST_DATA_END
