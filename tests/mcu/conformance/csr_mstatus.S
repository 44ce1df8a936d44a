# mstatus on trap entry and mret (privileged ISA manual, "Machine Status Register"): entry sets
# MPIE = MIE, MIE = 0, MPP = M (11); mret sets MIE = MPIE, MPIE = 1, MPP = the least-privileged
# mode, which is M on an M-only hart, so MPP always reads 11.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0x00001800, csrr x14, mstatus; li x1, 0x1888; and x14, x14, x1)  /* after reset: MIE = 0 */
    TEST_CASE(3, x14, 0x00001808, csrsi mstatus, 8; csrr x14, mstatus; li x1, 0x1888; and x14, x14, x1)
    TEST_CASE(4, x14, 0x00001800, csrci mstatus, 8; csrr x14, mstatus; li x1, 0x1888; and x14, x14, x1)

test_5:                                 /* ecall with MIE = 1 */
    li TESTNUM, 5
    la t0, handler
    csrw mtvec, t0
    csrsi mstatus, 8
    ecall
    csrr x15, mstatus
    li x1, 0x1888
    and x14, x14, x1
    and x15, x15, x1
    li t2, 0x00001880                   /* in the handler: MIE = 0, MPIE = 1, MPP = 11 */
    bne x14, t2, fail
    li t2, 0x00001888                   /* after mret: MIE = 1, MPIE = 1 */
    bne x15, t2, fail

test_6:                                 /* ecall with MIE = 0 */
    li TESTNUM, 6
    csrci mstatus, 8
    ecall
    csrr x15, mstatus
    li x1, 0x1888
    and x14, x14, x1
    and x15, x15, x1
    li t2, 0x00001800                   /* in the handler: MIE = 0, MPIE = 0 */
    bne x14, t2, fail
    li t2, 0x00001880                   /* after mret: MIE = 0, MPIE = 1 */
    bne x15, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    j pass

    .balign 4
handler:
    csrr x14, mstatus
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    mret

RVTEST_CODE_END
