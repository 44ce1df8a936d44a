/* hetvp — the FIFO engine (PFIFO): channels, GPFIFO/push-buffer fetch, method routing, runlist
 * (gpu_map.h GPU_FIFO_BASE; docs/contexts.md). Fermi's formats where they exist:
 *   - channel registers: nouveau nvkm/engine/fifo/gpfifogf100.c:193 writes 0x003000 + chid*8 =
 *     0xc0000000 | inst >> 12 and 0x003004 + chid*8 bit 0 = enable. hetvp keeps the instance word
 *     (bit 31 valid, bits 27:0 inst >> 12) but lays the per-channel registers out as arrays;
 *   - the GPFIFO ring is described in the instance block (RAMFC) as nouveau writes it
 *     (gpfifogf100.c:286-287): +0x48 base bits 31:0, +0x4c bits 7:0 base 39:32 and bits 20:16
 *     log2(entries);
 *   - GP entries (8 bytes, envytools docs/hw/fifo/dma-pusher.rst): word 0 bits 31:2 = push-buffer
 *     address bits 31:2, word 1 bits 7:0 = address bits 39:32, bits 30:10 = length in 32-bit words;
 *   - method headers (nouveau include/nvhw/class/cl906f.h:54-73): bits 31:29 SEC_OP (1 incrementing,
 *     3 non-incrementing, 4 immediate data in bits 28:16, 5 increment once), bits 28:16 count,
 *     bits 15:13 subchannel, bits 11:0 method address >> 2;
 *   - FIFO methods (cl906f.h:27-47, any subchannel): 0x0000 SET_OBJECT (bind a class),
 *     0x0010..0x001c SEMAPHOREA..D.
 * hetvp differs: GP_PUT is a register (Fermi's lives in USERD memory), the host writing it is the
 * doorbell; errors stop the channel and fail the run with the channel, method and address. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_FIFO_H
#define HETVP_FIFO_H

#include "regdef.h"

#define FIFO_MAX_CHANNELS 64

#define HETVP_FIFO_REGS(X)                                                                         \
    X(FIFO, CHANNELS, 0x000, 1, RO, 0, "channels this FIFO has (gpu.fifo.channels)")              \
    X(FIFO, ERROR, 0x010, 1, RO, 0, "FIFO_ERR_* of the first error (0: none); the run fails")     \
    X(FIFO, ERROR_CHAN, 0x014, 1, RO, 0, "channel id of that error")                               \
    X(FIFO, ERROR_METHOD, 0x018, 1, RO, 0, "subchannel << 13 | method byte address of that error") \
    X(FIFO, ERROR_ADDR_LO, 0x01c, 1, RO, 0, "push-buffer GPU VA of that method's header, bits 31:0") \
    X(FIFO, ERROR_ADDR_HI, 0x020, 1, RO, 0, "bits 39:32 of it")                                     \
    X(FIFO, SWITCHES, 0x030, 1, RO, 0, "GR context switches requested since reset")              \
    X(FIFO, GR_CHAN, 0x034, 1, RO, 0, "channel id whose context GR holds + 1 (0: none)")          \
    X(FIFO, SWITCH_NS_LO, 0x038, 1, RO, 0, "time from CHSW request to ACK summed over every switch, ns, bits 31:0") \
    X(FIFO, SWITCH_NS_HI, 0x03c, 1, RO, 0, "bits 63:32 of it")                                      \
    X(FIFO, CHAN_INST, 0x1000, 64, RW, 0, "channel n: bit 31 valid, bits 27:0 instance VRAM address >> 12") \
    X(FIFO, CHAN_CTRL, 0x1100, 64, RW, 0, "channel n: bit 0 enable (reads RAMFC +0x48/+0x4c, GP_GET = GP_PUT = 0); 0 disables") \
    X(FIFO, GP_PUT, 0x1200, 64, RW, 0, "channel n: GP entries written by the host (the doorbell)") \
    X(FIFO, GP_GET, 0x1300, 64, RO, 0, "channel n: GP entries the FIFO has consumed")             \
    X(FIFO, CHAN_STATUS, 0x1400, 64, RO, 0, "channel n: FIFO_CHAN_* bits")
HETVP_REG_OFFSETS(HETVP_FIFO_REGS)

#define FIFO_CHAN_INST_N(n) (FIFO_CHAN_INST + 4u * (n))
#define FIFO_CHAN_CTRL_N(n) (FIFO_CHAN_CTRL + 4u * (n))
#define FIFO_GP_PUT_N(n) (FIFO_GP_PUT + 4u * (n))
#define FIFO_GP_GET_N(n) (FIFO_GP_GET + 4u * (n))
#define FIFO_CHAN_STATUS_N(n) (FIFO_CHAN_STATUS + 4u * (n))
#define FIFO_CHAN_CTRL_ENABLE 0x1u
#define FIFO_CHAN_PENDING 0x1u /* entries or methods left */
#define FIFO_CHAN_BLOCKED 0x2u /* waiting on a semaphore acquire */
#define FIFO_CHAN_FAILED 0x4u  /* stopped by an error */

/* Instance block (4 KiB in VRAM; nouveau's GF100 offsets). */
#define INST_RAMFC_GP_BASE_LO 0x048 /* gpfifogf100.c:286 */
#define INST_RAMFC_GP_BASE_HI 0x04c /* bits 7:0 base 39:32, bits 20:16 log2(entries) */
#define INST_PD_BASE 0x200          /* page directory VRAM address, 64 bit (vmmgf100.c:357) */
#define INST_PD_LIMIT 0x208         /* address-space limit, 64 bit */
#define INST_GR_CTX 0x210           /* GR context buffer pointer, 64 bit (ctxgf100.c:1509) */
#define INST_BYTES 0x1000

/* GP entry */
#define GP_ENTRY_BYTES 8
#define GP_ENTRY1_LENGTH_SHIFT 10
#define GP_ENTRY1_LENGTH_MASK 0x1fffffu
/* Method header (cl906f.h) */
#define FIFO_HDR_SEC_OP_SHIFT 29
#define FIFO_SEC_OP_INC 1u
#define FIFO_SEC_OP_NON_INC 3u
#define FIFO_SEC_OP_IMMD 4u
#define FIFO_SEC_OP_ONE_INC 5u
#define FIFO_HDR(op, count, subch, mthd) \
    (((unsigned)(op) << 29) | (((unsigned)(count) & 0x1fffu) << 16) | (((unsigned)(subch) & 7u) << 13) | (((unsigned)(mthd) >> 2) & 0xfffu))
#define FIFO_SUBCHANNELS 8

/* FIFO methods (any subchannel, below 0x100) */
#define FIFO_M_SET_OBJECT 0x0000
#define FIFO_M_SEMAPHOREA 0x0010 /* bits 7:0 address 39:32 */
#define FIFO_M_SEMAPHOREB 0x0014 /* address 31:0 (4-byte aligned) */
#define FIFO_M_SEMAPHOREC 0x0018 /* payload */
#define FIFO_M_SEMAPHORED 0x001c /* bits 3:0 operation; bit 24 release size 4 byte */
#define FIFO_SEM_ACQUIRE 0x1u
#define FIFO_SEM_RELEASE 0x2u
#define FIFO_SEM_ACQ_GEQ 0x4u
#define FIFO_SEM_RELEASE_4BYTE (1u << 24) /* else 16 bytes: payload, 0, 64-bit timestamp (ns) */

/* Classes a subchannel can be bound to (SET_OBJECT). */
#define FIFO_CLASS_COMPUTE 0x90c0u /* FERMI_COMPUTE_A */
#define FIFO_CLASS_COPY 0x90b5u    /* GF100_DMA_COPY */
/* Compute class methods (hetvp's): 0x0200 + r writes compute front-end register r (r a
 * HETVP_COMPUTE_CTX_REGS register); LAUNCH starts a kernel and the FIFO waits until it is done. */
#define CMPM_REG(r) (0x0200u + (r))
#define CMPM_LAUNCH 0x0300
#define CMPM_GPC_CB(r) (0x0400u + (r)) /* broadcast: per-GPC register r (CMP_GPC_*) of every GPC */
/* Copy class methods (GF100_DMA_COPY offsets, nouveau/envytools 90b5) */
#define COPYM_LAUNCH_DMA 0x0300
#define COPYM_OFFSET_IN_UPPER 0x0400
#define COPYM_OFFSET_IN_LOWER 0x0404
#define COPYM_OFFSET_OUT_UPPER 0x0408
#define COPYM_OFFSET_OUT_LOWER 0x040c
#define COPYM_LINE_LENGTH_IN 0x0418

/* ERROR codes */
#define FIFO_ERR_NONE 0
#define FIFO_ERR_UNBOUND_SUBCHANNEL 1
#define FIFO_ERR_UNKNOWN_METHOD 2
#define FIFO_ERR_FETCH_FAULT 3
#define FIFO_ERR_ENGINE 4
#define FIFO_ERR_DEADLOCK 5
#define FIFO_ERR_CHSW_TIMEOUT 6
#define FIFO_ERR_SEMAPHORE_FAULT 7
#define FIFO_ERR_NO_CHSW 8
#define FIFO_ERR_BAD_CHANNEL 9

#endif
