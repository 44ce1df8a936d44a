# Illegal instructions: mcause 2, mepc = the instruction. The all-zero halfword is defined to be
# illegal; 0xffffffff is a reserved encoding; a CSR that does not exist and a write to a read-only
# CSR (csr[11:10] = 11) raise illegal instruction (privileged ISA manual, "CSR Listing").
# mtval: the spec allows 0 or the instruction bits; hetvp writes the bits (docs/iss.md), checked in 6.
#include "test_macros.h"

RVTEST_CODE_BEGIN

    TEST_TRAP(2, 2, 7: .word 0x00000000)
    TEST_TRAP(3, 2, 7: .word 0xffffffff)
    TEST_TRAP(4, 2, 7: csrr x14, 0x7c0)          /* no such CSR (custom space, not implemented) */
    TEST_TRAP(5, 2, 7: csrw cycle, x1)           /* read-only */
    TEST_TRAP_TVAL(6, 2, 0xffffffff, 7: .word 0xffffffff)
    TEST_TRAP(7, 2, 7: csrrw x0, mhartid, x0)    /* csrrw always writes */
    TEST_TRAP(8, 2, 7: csrrsi x14, mvendorid, 1) /* csrrsi with zimm != 0 writes */
    TEST_TRAP(9, 2, li x1, 1; 7: csrrs x14, instret, x1)
    TEST_TRAP(10, 2, 7: .word 0x0000707f)        /* opcode 0x7f (>= 80-bit encodings): reserved */

    TEST_PASSFAIL

RVTEST_CODE_END
