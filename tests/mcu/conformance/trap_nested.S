# A trap inside a trap handler is an ordinary trap (privileged ISA manual: there is no "double trap"
# rule in machine mode without Smdbltrp). The ecall handler saves mepc, executes an illegal
# instruction with mtvec pointing at a second handler, which returns past it; the first handler then
# restores mepc and returns past the ecall.
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    li x14, 0
    la t0, h_ecall
    csrw mtvec, t0
    ecall
    addi x14, x14, 100
    la t0, unexpected_trap
    csrw mtvec, t0
    li t2, 111
    bne x14, t2, fail
    j 9f

    .balign 4
h_ecall:
    csrr x20, mepc
    csrr x21, mcause
    li t2, 11
    bne x21, t2, fail
    la t0, h_illegal
    csrw mtvec, t0
    .word 0xffffffff                    /* nested trap */
    addi x14, x14, 10
    csrw mepc, x20
    csrr x21, mcause
    li t2, 2
    bne x21, t2, fail                  /* mcause was overwritten by the nested trap */
    csrr x22, mepc
    addi x22, x22, 4
    csrw mepc, x22
    mret

    .balign 4
h_illegal:
    csrr x22, mepc
    addi x22, x22, 4
    csrw mepc, x22
    addi x14, x14, 1
    mret
9:

    TEST_PASSFAIL

RVTEST_CODE_END
