# --trap-watchdog N: a handler that retries a faulting instruction (mret to it, nothing retires in
# between) is stopped after N identical traps.
# iss-args: --trap-watchdog 7
# expect-log: fatal trap: trap loop: load access fault at address 0x00000004 \(pc 0x[0-9a-f]+\) \(mcause 0x00000005\) taken 7 times in a row
#include "test_macros.h"

RVTEST_CODE_BEGIN

    la t0, handler
    csrw mtvec, t0
    li x1, 4
    lw x2, 0(x1)
    j pass

    .balign 4
handler:
    mret

RVTEST_CODE_END
