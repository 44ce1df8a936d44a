# Trigger CSRs (Sdtrig) on a core without triggers: tselect is a WARL 0, tdata1 reads type 0 ("no
# trigger at this tselect"), tdata2/tdata3 read 0, writes are ignored - and none of them traps, so
# software that probes for triggers (riscv-tests' rv32mi breakpoint) finds none and skips. An
# unexpected trap exits with 200 + mcause (test_macros.h).
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 0, csrw tselect, x0; csrr x14, tselect)
    TEST_CASE(3, x14, 0, li x1, 5; csrw tselect, x1; csrr x14, tselect)
    # mcontrol (type 2), M-mode execute: not kept, there is no trigger to hold it
    TEST_CASE(4, x14, 0, li x1, 0x20000044; csrw tdata1, x1; csrr x14, tdata1)
    TEST_CASE(5, x14, 0, la x1, test_5; csrw tdata2, x1; csrr x14, tdata2)
    TEST_CASE(6, x14, 0, li x1, -1; csrw tdata3, x1; csrr x14, tdata3)

    TEST_PASSFAIL

RVTEST_CODE_END
