/* hetvp example plugin — the registers of mul32.sv (an APB-only register block: an iterative
 * 32 x 32 -> 64-bit multiplier). One table, shared by the TLM reference model (mul32_ref.cpp) and
 * the host program (mul32_program.cpp); the pattern of firmware/include/hetvp/regdef.h. */
/* clang-format off */
#ifndef EXAMPLE_MUL32_REGS_H
#define EXAMPLE_MUL32_REGS_H

#include "firmware/include/hetvp/regdef.h"

#define EXAMPLE_MUL32_REGS(X)                                                                  \
    X(MUL, OPA,    0x00, 1, RW, 0, "first operand")                                          \
    X(MUL, OPB,    0x04, 1, RW, 0, "second operand")                                         \
    X(MUL, CTRL,   0x08, 1, WO, 0, "MUL_CTRL_START: PRODUCT = OPA * OPB in MUL_CYCLES cycles (ignored while BUSY)") \
    X(MUL, STATUS, 0x0c, 1, RO, 0, "MUL_STATUS_BUSY, MUL_STATUS_DONE (cleared by the next START)") \
    X(MUL, RES_LO, 0x10, 1, RO, 0, "product, bits 31:0 (valid with DONE)")                   \
    X(MUL, RES_HI, 0x14, 1, RO, 0, "product, bits 63:32")                                    \
    X(MUL, ID,     0x18, 1, RO, 0x4d554c31, "block identification, 'MUL1'")
HETVP_REG_OFFSETS(EXAMPLE_MUL32_REGS)

#define MUL_CTRL_START 0x1u
#define MUL_STATUS_BUSY 0x1u
#define MUL_STATUS_DONE 0x2u
#define MUL_ID_VALUE 0x4d554c31u
#define MUL_CYCLES 32u     /* one partial product per cycle (shift-and-add) */
#define MUL_WINDOW 0x20u   /* size of the register window */

#endif
