/* hetvp — a copy engine's registers (Fermi PCOPY positions, hetvp's registers; gpu_map.h
 * GPU_COPY_BASE + n * GPU_COPY_STRIDE). The driver writes SRC, DST, LENGTH, optionally the FENCE
 * address and value, then LAUNCH; the engine copies and reports in STATUS, ERROR and COMPLETED. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_COPY_ENGINE_H
#define HETVP_COPY_ENGINE_H

#include "regdef.h"

#define HETVP_COPY_REGS(X)                                                                         \
    X(COPY, SRC_LO, 0x00, 1, RW, 0, "source GPU virtual address, bits 31:0")                     \
    X(COPY, SRC_HI, 0x04, 1, RW, 0, "bits 63:32 of it")                                           \
    X(COPY, DST_LO, 0x08, 1, RW, 0, "destination GPU virtual address, bits 31:0")                \
    X(COPY, DST_HI, 0x0c, 1, RW, 0, "bits 63:32 of it")                                           \
    X(COPY, LENGTH, 0x10, 1, RW, 0, "bytes to copy (1 .. 4 GiB-1)")                               \
    X(COPY, FENCE_LO, 0x14, 1, RW, 0, "GPU virtual address the fence value is written to, bits 31:0") \
    X(COPY, FENCE_HI, 0x18, 1, RW, 0, "bits 63:32 of it")                                         \
    X(COPY, FENCE_VALUE, 0x1c, 1, RW, 0, "value written to the fence when the copy is over (bit 31 set if it failed)") \
    X(COPY, LAUNCH, 0x20, 1, WO, 0, "COPY_LAUNCH_* bits; the copy starts when this write arrives") \
    X(COPY, STATUS, 0x24, 1, RO, 0, "COPY_STATUS_BUSY, COPY_STATUS_ERROR, error code in bits 15:8") \
    X(COPY, ERROR_LO, 0x28, 1, RO, 0, "GPU virtual address that faulted, bits 31:0")              \
    X(COPY, ERROR_HI, 0x2c, 1, RO, 0, "bits 63:32 of it")                                         \
    X(COPY, COMPLETED, 0x30, 1, RO, 0, "copies completed since reset")                          \
    X(COPY, CHAN, 0x34, 1, RW, 0, "channel the copy works for: bit 31 valid, bits 27:0 instance >> 12; 0: none (PD_BASE space)") \
    X(COPY, CHAN_ID, 0x38, 1, RW, 0, "channel id of CHAN (names it in messages)")
HETVP_REG_OFFSETS(HETVP_COPY_REGS)

/* LAUNCH */
#define COPY_LAUNCH_GO 0x1u
#define COPY_LAUNCH_FENCE 0x2u /* write FENCE_VALUE to FENCE when done */
#define COPY_LAUNCH_INTR 0x4u  /* raise PMC_INTR (GPU_INTR_COPY(n)) when done */
/* STATUS */
#define COPY_STATUS_BUSY 0x1u
#define COPY_STATUS_ERROR 0x2u
#define COPY_STATUS_CODE_SHIFT 8
#define COPY_STATUS_CODE(status) (((status) >> 8) & 0xffu)
#define COPY_STATUS_FAILED(code) (COPY_STATUS_ERROR | ((unsigned)(code) << 8))
/* error codes (STATUS bits 15:8) */
#define COPY_OK 0
#define COPY_ERR_SRC_FAULT 1
#define COPY_ERR_DST_FAULT 2
#define COPY_ERR_ZERO_LENGTH 3
#define COPY_ERR_BUSY 4 /* launched while busy: the launch is refused, the running copy goes on */
/* fence value of a failed copy */
#define COPY_FENCE_ERROR 0x80000000u

#endif
