# The start-up idiom that probes optional CSRs: point mtvec at the instruction after the probe,
# access the CSR, and go on, whether it trapped or not, several times in a row without mret. A trap
# taken while "in a trap handler" is an ordinary trap in the privileged ISA manual (it overwrites
# mepc/mcause/mtval). Absent CSRs raise illegal instruction.
#include "test_macros.h"

#define PROBE(insn...)                                                                               \
    la t0, 1f;                                                                                      \
    csrw mtvec, t0;                                                                                 \
    insn;                                                                                           \
    .balign 4;                                                                                      \
1:  addi x14, x14, 1;

RVTEST_CODE_BEGIN

test_2:
    li TESTNUM, 2
    li x14, 0
    PROBE(csrw satp, x0)
    PROBE(csrw pmpaddr0, x0)
    PROBE(csrw pmpcfg0, x0)
    PROBE(csrw medeleg, x0)
    PROBE(csrw mideleg, x0)
    PROBE(csrr x1, 0x744)             /* mnstatus (Smrnmi) */
    PROBE(csrw 0x30a, x0)             /* menvcfg */
    PROBE(csrw 0x747, x0)             /* mseccfg */
    PROBE(csrw mcounteren, x0)
    PROBE(csrr x1, mhartid)           /* present: no trap, falls through */
    la t0, unexpected_trap
    csrw mtvec, t0
    li t2, 10
    bne x14, t2, fail

    /* the last trapping probe left mcause = illegal instruction; mhartid did not trap */
    TEST_CASE(3, x14, 2, csrr x14, mcause)
    TEST_CASE(4, x14, 0, csrr x14, mstatus; andi x14, x14, 0x8) /* MIE stays 0 */

    TEST_PASSFAIL

RVTEST_CODE_END
