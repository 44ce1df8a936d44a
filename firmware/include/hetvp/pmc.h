/* hetvp — PMC (identity, interrupts) and PTOP (topology): Fermi positions (gpu_map.h). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_PMC_H
#define HETVP_PMC_H

#include "regdef.h"

#define HETVP_PMC_REGS(X)                                                                          \
    X(PMC, BOOT_0, 0x000, 1, RO, 0x0c0000a1, "chip id (GF100)")                                   \
    X(PMC, INTR, 0x100, 1, W1C, 0, "pending interrupts, one bit per source (gpu_map.h GPU_INTR_*)") \
    X(PMC, INTR_EN, 0x140, 1, RW, 0, "enabled sources; a source becoming pending while enabled sends one MSI")
HETVP_REG_OFFSETS(HETVP_PMC_REGS)
#define PMC_BOOT_0_GF100 0x0c0000a1u

#define HETVP_PTOP_REGS(X)                                                                         \
    X(PTOP, NUM_GPCS, 0x30, 1, RO, 0, "number of GPCs (absolute 0x022430, as on Fermi)")          \
    X(PTOP, VRAM_MIB, 0x34, 1, RO, 0, "VRAM size in MiB")                                         \
    X(PTOP, NUM_COPY, 0x38, 1, RO, 0, "number of copy engines")
HETVP_REG_OFFSETS(HETVP_PTOP_REGS)

#endif
