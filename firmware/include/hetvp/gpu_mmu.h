/* hetvp — the GPU MMU's registers and page-table format (hetvp's design; gpu_map.h GPU_MMU_BASE).
 * 40-bit GPU virtual addresses, 4 KiB pages, two levels in VRAM. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_GPU_MMU_H
#define HETVP_GPU_MMU_H

#include "regdef.h"

#define HETVP_MMU_REGS(X)                                                                          \
    X(MMU, PD_BASE_LO, 0x00, 1, RW, 0, "VRAM address of the page directory, bits 31:0; a write flushes the TLB") \
    X(MMU, PD_BASE_HI, 0x04, 1, RW, 0, "bits 63:32 of it; a write flushes the TLB")              \
    X(MMU, TLB_FLUSH, 0x08, 1, WO, 0, "write 1: invalidate every TLB entry")                     \
    X(MMU, FAULT_STATUS, 0x10, 1, W1C, 0, "bit 0 fault pending; bits 11:8 reason (MMU_FAULT_*)") \
    X(MMU, FAULT_ADDR_LO, 0x14, 1, RO, 0, "faulting virtual address, bits 31:0")                 \
    X(MMU, FAULT_ADDR_HI, 0x18, 1, RO, 0, "bits 39:32 of it")                                     \
    X(MMU, FAULT_COUNT, 0x1c, 1, RO, 0, "faults since reset")                                   \
    X(MMU, FAULT_CHAN, 0x20, 1, RO, 0, "channel of the last fault: bit 31 valid, bits 27:0 instance >> 12 (0: no channel, PD_BASE space)")
HETVP_REG_OFFSETS(HETVP_MMU_REGS)
#define MMU_FAULT_STATUS_PENDING 0x1u
#define MMU_FAULT_STATUS_REASON_SHIFT 8
/* FAULT_STATUS reasons */
#define MMU_FAULT_NONE 0
#define MMU_FAULT_NO_PDE 1
#define MMU_FAULT_NO_PTE 2
#define MMU_FAULT_READ_ONLY 3
#define MMU_FAULT_OUT_OF_VRAM 4
#define MMU_FAULT_BAD_INSTANCE 5 /* a channel's instance block is outside VRAM */

/* Channel address spaces: an access tagged with a channel (platform/channel_tag.h) walks the
 * page directory whose VRAM address is in the channel's instance block at +0x200 (fifo.h
 * INST_PD_BASE); an untagged one walks PD_BASE. */

/* Page-table format */
#define MMU_VA_BITS 40
#define MMU_PAGE_SHIFT 12
#define MMU_PT_INDEX_BITS 14 /* VA[25:12] */
#define MMU_PD_INDEX_BITS 14 /* VA[39:26] */
#define MMU_PDE_VALID 0x1ull /* PDE: bit 0 valid, bits 39:12 page-table VRAM address */
#define MMU_PTE_VALID 0x1ull /* PTE: bit 0 valid */
#define MMU_PTE_SYSMEM 0x2ull /*      bit 1 the page is host memory (else VRAM) */
#define MMU_PTE_READ_ONLY 0x4ull /*   bit 2 read only; bits 51:12 physical page address */

#endif
