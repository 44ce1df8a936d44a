/* An accumulator peripheral: a store to ADD adds the value to SUM and counts it in COUNT; a store
 * to CLEAR zeroes both. Every access costs `latency`.
 *
 * Its registers, declared once as a hetvp register table (firmware/include/hetvp/regdef.h): the
 * model (accumulator.cpp) builds its RegisterBank from it, the host program
 * (accumulate_program.cpp) uses the ACC_* offsets, and C firmware could include it too. */
/* clang-format off */
#ifndef EXAMPLE_ACCUMULATOR_H
#define EXAMPLE_ACCUMULATOR_H

#include "firmware/include/hetvp/regdef.h"

#define EXAMPLE_ACC_REGS(X)                                                   \
    X(ACC, ADD, 0x0, 1, WO, 0, "a store adds its value to SUM and counts in COUNT") \
    X(ACC, SUM, 0x4, 1, RO, 0, "the sum of the values stored to ADD")        \
    X(ACC, COUNT, 0x8, 1, RO, 0, "stores to ADD since the last CLEAR")       \
    X(ACC, CLEAR, 0xc, 1, WO, 0, "a store zeroes SUM and COUNT")
HETVP_REG_OFFSETS(EXAMPLE_ACC_REGS)
#define ACC_SIZE 0x10u /* the window the host bus maps */

#endif
