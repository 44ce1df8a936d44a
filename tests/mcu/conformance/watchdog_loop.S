# A trap handler that faults re-enters itself forever (legal per the spec, no progress): the trap
# watchdog stops the run after 1000 identical traps and names the loop (docs/iss.md).
# expect-log: fatal trap: trap loop: illegal instruction 0xffffffff at pc 0x[0-9a-f]+ \(mcause 0x00000002\) taken 1000 times in a row with no progress
#include "test_macros.h"

RVTEST_CODE_BEGIN

    la t0, handler
    csrw mtvec, t0
    ecall
    j pass

    .balign 4
handler:
    addi x14, x14, 1
    .word 0xffffffff

RVTEST_CODE_END
