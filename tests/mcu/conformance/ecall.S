# ecall: environment-call exception from M-mode (mcause 11), mepc = the ecall, mtval = 0; the
# handler returns past it with mret (privileged ISA manual, "Machine Cause Register", "mtval").
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_TRAP_TVAL(2, 11, 0, li x14, 1; 7: ecall)

test_3:                                 /* handler skips the ecall; execution continues after it */
    li TESTNUM, 3
    la t0, 8f
    csrw mtvec, t0
    li x14, 0
    ecall
    addi x14, x14, 1
    ecall
    addi x14, x14, 1
    li t2, 4
    bne x14, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    j 9f
    .balign 4
8:  csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    addi x14, x14, 1
    mret
9:

    TEST_PASSFAIL

RVTEST_CODE_END
