# Instruction access fault (mcause 1): jumping to memory that does not exist. mepc = the target
# (the faulting fetch address), mtval = that address (privileged ISA manual allows 0 or the address;
# hetvp writes the address, docs/iss.md).
#include "test_macros.h"

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    la t0, handler
    csrw mtvec, t0
    li x10, 0x00000100                  /* nothing mapped at 0 in standalone mode */
    la ra, 1f
    jalr x0, 0(x10)
    j fail
1:  li t2, 1
    bne x20, t2, fail
    li t2, 0x00000100
    bne x21, t2, fail
    bne x22, t2, fail
    la t0, unexpected_trap
    csrw mtvec, t0
    j pass

    .balign 4
handler:
    csrr x20, mcause
    csrr x21, mepc
    csrr x22, mtval
    csrw mepc, ra
    mret

RVTEST_CODE_END
