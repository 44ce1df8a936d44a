/* hetvp — the compute front end's registers (hetvp's design; gpu_map.h GPU_COMPUTE_BASE). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_COMPUTE_H
#define HETVP_COMPUTE_H

#include "regdef.h"

#define HETVP_COMPUTE_REGS(X)                                                                      \
    X(CMP, KERNEL, 0x00, 1, RW, 0, "kernel id (FNV-1a of its name)")                             \
    X(CMP, GRID_X, 0x04, 1, RW, 0, "grid width in blocks")                                        \
    X(CMP, GRID_Y, 0x08, 1, RW, 0, "grid height in blocks")                                       \
    X(CMP, BLOCK_X, 0x0c, 1, RW, 0, "block width in threads")                                     \
    X(CMP, BLOCK_Y, 0x10, 1, RW, 0, "block height in threads")                                    \
    X(CMP, LAUNCH, 0x14, 1, WO, 0, "CMP_LAUNCH_* bits; the kernel starts when this write arrives") \
    X(CMP, STATUS, 0x18, 1, RO, 0, "bit 0 busy, bit 1 error")                                     \
    X(CMP, COMPLETED, 0x1c, 1, RO, 0, "kernels completed since reset")                           \
    X(CMP, ERROR, 0x20, 1, RO, 0, "CMP_ERR_* of the last kernel")                                 \
    X(CMP, ARG, 0x40, 16, RW, 0, "kernel arguments")
HETVP_REG_OFFSETS(HETVP_COMPUTE_REGS)
#define CMP_ARGS 16

/* The compute front end's GR context state: the registers a channel's context holds, which the
 * context switch saves and restores (the HUB's MMCTX list, docs/contexts.md). X(offset, count). */
#define HETVP_COMPUTE_CTX_REGS(X) \
    X(CMP_KERNEL, 1) X(CMP_GRID_X, 1) X(CMP_GRID_Y, 1) X(CMP_BLOCK_X, 1) X(CMP_BLOCK_Y, 1) X(CMP_ARG, CMP_ARGS)
/* Per-GPC GR context state (each GPC's strands, saved and loaded by its GPC microcontroller):
 * X(offset in the GPC's compute window, count). None yet. */
#define HETVP_COMPUTE_GPC_CTX_REGS(X)
#define CMP_LAUNCH_GO 0x1u
#define CMP_LAUNCH_INTR 0x2u /* raise PMC_INTR (GPU_INTR_COMPUTE) when done */
#define CMP_STATUS_BUSY 0x1u
#define CMP_STATUS_ERROR 0x2u
#define CMP_ERR_NONE 0
#define CMP_ERR_UNKNOWN_KERNEL 1
#define CMP_ERR_BAD_DIMS 2
#define CMP_ERR_MEMORY_FAULT 3
#define CMP_ERR_KERNEL 4

#endif
