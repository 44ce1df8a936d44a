/* hetvp — how a register block is declared (C and C++, firmware, models, driver, tests, docs).
 *
 * Each block header under firmware/include/hetvp/ lists its registers exactly once, as an X-macro
 *     #define HETVP_<BLOCK>_REGS(X) \
 *         X(BLOCK, NAME, OFFSET, COUNT, ACCESS, RESET, "what it does")
 * OFFSET is from the block's base (gpu_map.h); COUNT > 1 declares an array NAME0..NAME<COUNT-1>
 * of consecutive 32-bit registers; ACCESS is RO, RW, WO or W1C (write 1 to clear); RESET is the
 * value after reset (a model may set a configuration-dependent one, e.g. PTOP.NUM_GPCS). Field
 * masks and shifts follow the table as plain #defines named BLOCK_NAME_FIELD.
 *
 * From one table:
 *   HETVP_REG_OFFSETS(HETVP_<BLOCK>_REGS)  -> enum constants BLOCK_NAME = OFFSET (C and C++),
 *                                              `.equ BLOCK_NAME, OFFSET` in assembler (crt0.S);
 *   platform/register_table.h              -> the model's RegisterBank adds the table and binds
 *                                              behaviour to register names;
 *   `hetvp registers`                       -> docs/registers.md (a test checks it is current). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_REGDEF_H
#define HETVP_REGDEF_H

#if defined(__ASSEMBLER__)
/* GNU as: one `.equ BLOCK_NAME, OFFSET` statement per register (';' separates statements). */
#define HETVP_REG_EQU(block, name, off, count, acc, reset, doc) .equ block##_##name, off;
#define HETVP_REG_OFFSETS(TABLE) TABLE(HETVP_REG_EQU)
#else
#define HETVP_REG_ENUM(block, name, off, count, acc, reset, doc) block##_##name = (off),
#define HETVP_REG_OFFSETS(TABLE) enum { TABLE(HETVP_REG_ENUM) };
#endif

#endif
