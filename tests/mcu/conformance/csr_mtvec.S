# mtvec: BASE (4-byte aligned) + MODE; synchronous exceptions go to BASE in both direct (0) and
# vectored (1) mode (privileged ISA manual, "Machine Trap-Vector Base-Address Register").
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x80000100, li x1, 0x80000100; csrw mtvec, x1; csrr x14, mtvec; la t0, unexpected_trap; csrw mtvec, t0)

test_3:                                 /* direct */
    li TESTNUM, 3
    la t0, handler
    csrw mtvec, t0
    li x14, 0
    ecall
    li t2, 1
    bne x14, t2, fail

test_4:                                 /* vectored: an exception still goes to BASE */
    li TESTNUM, 4
    la t0, handler
    ori t0, t0, 1
    csrw mtvec, t0
    csrr x15, mtvec
    andi x15, x15, 3
    li t2, 1
    bne x15, t2, fail
    li x14, 0
    ecall
    li t2, 1
    bne x14, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    j pass

    .balign 64
handler:
    addi x14, x14, 1
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    mret

RVTEST_CODE_END
