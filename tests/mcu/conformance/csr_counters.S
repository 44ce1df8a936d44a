# Counters (Zicsr/Zicntr, privileged ISA manual "Hardware Performance Monitor"):
# - minstret counts retired instructions: two back-to-back reads differ by exactly 1;
# - a CSR write to minstret/minstreth/mcycle/mcycleh takes effect after the writing instruction,
#   whose own increment it replaces: the next instruction reads the value written;
# - instret/cycle are read-only shadows of minstret/mcycle.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_CASE(2, x14, 1, csrr x1, minstret; csrr x2, minstret; sub x14, x2, x1)
    TEST_CASE(3, x14, 1, rdinstret x1; rdinstret x2; sub x14, x2, x1)
    TEST_CASE(4, x14, 1000, li x1, 1000; csrw minstret, x1; csrr x14, minstret)
    TEST_CASE(5, x14, 1001, li x1, 1000; csrw minstret, x1; nop; csrr x14, minstret)
    TEST_CASE(6, x14, 0, csrw minstret, x0; csrr x14, minstret)
    TEST_CASE(7, x14, 0xfffffffe, li x1, 0xfffffffe; csrw minstret, x1; rdinstret x14)
    TEST_CASE(8, x14, 7, li x1, 7; csrw minstreth, x1; csrr x14, minstreth)
    TEST_CASE(9, x14, 1, csrw minstreth, x0; li x1, 0xffffffff; csrw minstret, x1; nop; csrr x14, minstreth) /* carry */
    TEST_CASE(10, x14, 5000, li x1, 5000; csrw mcycle, x1; csrr x14, mcycle)
    TEST_CASE(11, x14, 5000, li x1, 5000; csrw mcycle, x1; rdcycle x14)
    TEST_CASE(12, x14, 9, li x1, 9; csrw mcycleh, x1; csrr x14, mcycleh)
    TEST_CASE(13, x14, 9, rdcycleh x14)
    TEST_CASE(14, x14, 3, csrwi minstret, 3; csrr x14, minstret)
    TEST_CASE(15, x14, 0x0f, li x1, 0x0c; csrw minstret, x1; csrrsi x0, minstret, 3; csrr x14, minstret)
    TEST_CASE(16, x14, 1, csrr x1, mcycle; csrr x2, mcycle; sltu x14, x1, x2) /* cycle advances */

    TEST_PASSFAIL

RVTEST_CODE_END
