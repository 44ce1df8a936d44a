/* hetvp — the compute front end's registers (hetvp's design; gpu_map.h GPU_COMPUTE_BASE). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_COMPUTE_H
#define HETVP_COMPUTE_H

#include "regdef.h"

#define HETVP_COMPUTE_REGS(X)                                                                      \
    X(CMP, KERNEL, 0x00, 1, RW, 0, "kernel id (FNV-1a of its name)")                             \
    X(CMP, GRID_X, 0x04, 1, RW, 0, "grid width in blocks")                                        \
    X(CMP, GRID_Y, 0x08, 1, RW, 0, "grid height in blocks (bits 15:0), grid depth - 1 (bits 31:16): CMP_DIM_YZ") \
    X(CMP, BLOCK_X, 0x0c, 1, RW, 0, "block width in threads")                                     \
    X(CMP, BLOCK_Y, 0x10, 1, RW, 0, "block height in threads (bits 15:0), block depth - 1 (bits 31:16): CMP_DIM_YZ") \
    X(CMP, LAUNCH, 0x14, 1, WO, 0, "CMP_LAUNCH_* bits; the kernel starts when this write arrives") \
    X(CMP, STATUS, 0x18, 1, RO, 0, "bit 0 busy, bit 1 error")                                     \
    X(CMP, COMPLETED, 0x1c, 1, RO, 0, "kernels completed since reset")                           \
    X(CMP, ERROR, 0x20, 1, RO, 0, "CMP_ERR_* of the last kernel")                                 \
    X(CMP, CHAN, 0x24, 1, RW, 0, "address-space selection: bit 31 valid, bits 27:0 instance >> 12 of the channel the kernels run for (their GPU VAs use its page directory); 0: PD_BASE space") \
    X(CMP, CHAN_ID, 0x28, 1, RW, 0, "channel id of CHAN (names it in messages)")                   \
    X(CMP, ERROR_ADDR_LO, 0x2c, 1, RO, 0, "GPU VA of the last kernel's failed access, bits 31:0")   \
    X(CMP, ERROR_ADDR_HI, 0x30, 1, RO, 0, "bits 39:32 of it")                                       \
    X(CMP, MODULE_LO, 0x34, 1, RW, 0, "GPU VA of the kernel's module image (docs/gpu_kernels.md), bits 31:0") \
    X(CMP, MODULE_HI, 0x38, 1, RW, 0, "bits 39:32 of it")                                           \
    X(CMP, SHARED, 0x3c, 1, RW, 0, "dynamic shared memory per block, bytes (extern __shared__)")    \
    X(CMP, ARG, 0x40, 16, RW, 0, "kernel arguments: the parameter block, 4 bytes per word; a larger block: CMP_PARAM_*") \
    X(CMP, ARCH, 0x80, 1, RO, 0, "the compute units' PTX architecture: 20, 30 or 35 (sm_20 ...)")
HETVP_REG_OFFSETS(HETVP_COMPUTE_REGS)
#define CMP_ARGS 16
/* A grid's or block's height and depth in one register (GRID_Y, BLOCK_Y), as Fermi's compute class
 * packs GRIDDIM_YX: height in bits 15:0, depth - 1 in bits 31:16 (so a 2-D launch writes the height
 * alone). Width: GRID_X / BLOCK_X, 32 bits. */
#define CMP_DIM_YZ(y, z) ((uint32_t)(y) | ((uint32_t)(z) - 1u) << 16)
#define CMP_DIM_Y(v) ((v) & 0xffffu)
#define CMP_DIM_Z(v) (((v) >> 16) + 1u)
/* The kernel's parameter block (its .param space, laid out as the PTX declares it). Up to
 * CMP_ARGS words it travels in CMP_ARG. A larger block -- at most CMP_PARAM_MAX bytes, CUDA's limit
 * for sm_20 to sm_35 -- the driver writes to a constant buffer in VRAM (Fermi and Kepler read a
 * kernel's parameters from constant bank 0), and CMP_ARG names it: word CMP_ARG_PARAM_LO/HI its GPU
 * VA (in the kernel's address space, 4-byte aligned), word CMP_ARG_PARAM_BYTES its size. The front
 * end reads the block at launch, before the first warp, through compute unit 0's memory path. Which
 * form a launch uses follows from the kernel's parameter bytes (the module says them). */
#define CMP_PARAM_MAX 4096
#define CMP_ARG_PARAM_LO 0
#define CMP_ARG_PARAM_HI 1
#define CMP_ARG_PARAM_BYTES 2
/* A module image in VRAM (CMP_MODULE): a header of CMP_IMG_WORDS 32-bit words, then the parts it
 * points at (offsets from the image's VA). Written by the driver's module load (sw/driver/gpu_module.h),
 * read by the compute units at launch (docs/gpu_kernels.md, "Module image"). */
#define CMP_IMG_MAGIC 0x58545048u /* "HPTX" */
#define CMP_IMG_VERSION 1u
#define CMP_IMG_MAGIC_W 0      /* CMP_IMG_MAGIC */
#define CMP_IMG_VERSION_W 1    /* CMP_IMG_VERSION */
#define CMP_IMG_TEXT_OFF 2     /* the PTX text (what the units' decoder reads) */
#define CMP_IMG_TEXT_BYTES 3
#define CMP_IMG_CODE_OFF 4     /* the encoded code: instruction i of a kernel at code_off + its offset + 16 i */
#define CMP_IMG_CODE_BYTES 5
#define CMP_IMG_BANK0_OFF 6    /* constant bank 0: the module's .const image */
#define CMP_IMG_BANK0_BYTES 7
#define CMP_IMG_VARS_OFF 8     /* one 64-bit GPU VA per module variable (0 for non-.global ones) */
#define CMP_IMG_VARS 9
#define CMP_IMG_LMEM_LO 10     /* local memory: CMP_IMG_LMEM_SLOTS slots of LMEM_SLOT bytes (one per unit) */
#define CMP_IMG_LMEM_HI 11
#define CMP_IMG_LMEM_SLOT 12
#define CMP_IMG_LMEM_SLOTS 13
#define CMP_IMG_HASH_LO 14     /* FNV-1a 64 of the PTX text: names the module's contents */
#define CMP_IMG_HASH_HI 15
#define CMP_IMG_WORDS 16

/* Per-GPC compute state (BAR0 GPU_COMPUTE_GPC_BASE + n * GPU_GPC_STRIDE, window
 * GPU_WINDOW_COMPUTE_GPC): GPC n's constant-buffer binding. At launch each GPC reads its constant
 * buffer (CB_SIZE bytes at GPU VA CB, in the kernel's channel's address space); the warps of the
 * blocks it runs (block b runs on GPC b % gpcs) read it with Warp::cb(i). */
#define HETVP_COMPUTE_GPC_REGS(X)                                                                  \
    X(CMP_GPC, CB_LO, 0x00, 1, RW, 0, "constant buffer GPU VA, bits 31:0")                        \
    X(CMP_GPC, CB_HI, 0x04, 1, RW, 0, "bits 39:32 of it")                                          \
    X(CMP_GPC, CB_SIZE, 0x08, 1, RW, 0, "constant buffer bytes (multiple of 4, at most CMP_CB_MAX; 0: none)")
HETVP_REG_OFFSETS(HETVP_COMPUTE_GPC_REGS)
#define CMP_CB_MAX 256

/* The compute front end's GR context state: the registers a channel's context holds, which the
 * context switch saves and restores (the HUB's MMCTX list, docs/contexts.md). X(offset, count).
 * CMP_CHAN is the address-space selection: a switch that misses it runs the next kernel in the
 * previous channel's address space. */
#define HETVP_COMPUTE_CTX_REGS(X) \
    X(CMP_KERNEL, 1) X(CMP_GRID_X, 1) X(CMP_GRID_Y, 1) X(CMP_BLOCK_X, 1) X(CMP_BLOCK_Y, 1) X(CMP_ARG, CMP_ARGS) \
    X(CMP_CHAN, 1) X(CMP_CHAN_ID, 1)
/* Per-GPC GR context state (each GPC's strands, saved and loaded by its GPC microcontroller):
 * X(offset in the GPC's compute window, count). */
#define HETVP_COMPUTE_GPC_CTX_REGS(X) X(CMP_GPC_CB_LO, 1) X(CMP_GPC_CB_HI, 1) X(CMP_GPC_CB_SIZE, 1)
#define CMP_LAUNCH_GO 0x1u
#define CMP_LAUNCH_INTR 0x2u /* raise PMC_INTR (GPU_INTR_COMPUTE) when done */
#define CMP_LAUNCH_REPORTED 0x4u /* the launcher (the FIFO) reports a failed kernel: STATUS/ERROR only */
#define CMP_LAUNCH_RELEASE 0x8u /* without a channel: the TCC writes its dirty lines back when the kernel ends */
#define CMP_STATUS_BUSY 0x1u
#define CMP_STATUS_ERROR 0x2u
#define CMP_ERR_NONE 0
#define CMP_ERR_UNKNOWN_KERNEL 1
#define CMP_ERR_BAD_DIMS 2
#define CMP_ERR_MEMORY_FAULT 3
#define CMP_ERR_KERNEL 4

#endif
