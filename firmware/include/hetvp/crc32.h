/* hetvp — the example RTL block `rtl.crc32` (rtl/examples/crc32, docs/rtl_blocks.md): a DMA-style
 * accelerator that reads LENGTH bytes at SRC over its AXI4 master port, computes their CRC-32
 * (IEEE 802.3: reflected, polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF), writes
 * the 32-bit result to DST and raises its interrupt. Registers on its AXI4-Lite slave port. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_CRC32_H
#define HETVP_CRC32_H

#include "regdef.h"

#define HETVP_CRC32_REGS(X)                                                                        \
    X(CRC, SRC_LO, 0x00, 1, RW, 0, "bus address of the data, bits 31:0 (8-byte aligned)")          \
    X(CRC, SRC_HI, 0x04, 1, RW, 0, "bits 63:32 of it")                                            \
    X(CRC, LENGTH, 0x08, 1, RW, 0, "bytes to read (0 .. 4 GiB-1; 0 gives CRC 0)")                  \
    X(CRC, DST_LO, 0x0c, 1, RW, 0, "bus address the 32-bit result is written to, bits 31:0 (4-byte aligned)") \
    X(CRC, DST_HI, 0x10, 1, RW, 0, "bits 63:32 of it")                                            \
    X(CRC, CTRL, 0x14, 1, WO, 0, "CRC_CTRL_GO starts a job (ignored while busy); CRC_CTRL_ACK clears DONE, ERROR and the interrupt") \
    X(CRC, STATUS, 0x18, 1, RO, 0, "CRC_STATUS_BUSY, CRC_STATUS_DONE, CRC_STATUS_ERROR")           \
    X(CRC, RESULT, 0x1c, 1, RO, 0, "CRC-32 of the last job (valid with DONE and not ERROR)")       \
    X(CRC, ID, 0x20, 1, RO, 0x43524332, "block identification, 'CRC2'")
HETVP_REG_OFFSETS(HETVP_CRC32_REGS)

/* CTRL */
#define CRC_CTRL_GO 0x1u
#define CRC_CTRL_ACK 0x2u
/* STATUS */
#define CRC_STATUS_BUSY 0x1u
#define CRC_STATUS_DONE 0x2u
#define CRC_STATUS_ERROR 0x4u /* misaligned SRC/DST, or an error response on the bus */
#define CRC_ID_VALUE 0x43524332u
#define CRC_WINDOW 0x100u     /* size of the register window */

#endif
