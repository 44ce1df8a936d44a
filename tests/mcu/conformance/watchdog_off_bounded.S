# With the trap watchdog off (--trap-watchdog 0), a trap loop that retires nothing (mtvec points at a
# faulting instruction) must still end: standalone mode bounds cycles without a retired instruction
# by --max-instructions and reports a timeout (never a hang).
# iss-args: --trap-watchdog 0 --max-instructions 100000
# expect-log: timeout: no instruction retired in [0-9]+ cycles \(a loop of traps at pc 0x[0-9a-f]+; the trap watchdog is off\)
#include "test_macros.h"

RVTEST_CODE_BEGIN

    la t0, spin
    csrw mtvec, t0
    .balign 4
spin:
    .word 0xffffffff
    j pass

RVTEST_CODE_END
