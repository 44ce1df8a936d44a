/* hetvp — the Raspberry Pi's ARM <-> VideoCore mailbox and the firmware's property interface.
 *
 * Registers: the ARM's mailbox window (BCM2835, peripheral base + 0xB880: 0x2000B880 on a Pi 1),
 * as Linux's bcm2835-mailbox driver names them: MAIL0 carries messages from the VideoCore to the
 * ARM (read), MAIL1 from the ARM to the VideoCore (write). A message is a 16-byte-aligned bus
 * address (bits 31:4) plus a channel (3:0); channel 8 is the property interface.
 *
 * Property buffer (raspberrypi/firmware wiki, "Mailbox property interface"): u32 buffer size in
 * bytes (header, tags, end tag and padding), u32 request/response code, then tags, then a 0 end
 * tag. A tag: u32 id, u32 value buffer size in bytes, u32 request/response code (request: bit 31
 * clear; response: bit 31 set, bits 30:0 the value length), the value buffer, padded to 4 bytes.
 * models/qpu/vc_mailbox.h is the model, sw/qpu/mailbox.h the host C API (Pi mailbox.c shape). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_VC_MAILBOX_H
#define HETVP_VC_MAILBOX_H

#include "regdef.h"

#define HETVP_VCMBOX_REGS(X)                                                                        \
    X(MBOX, MAIL0_RD, 0x00, 1, RO, 0, "VideoCore -> ARM: reading takes the oldest response message") \
    X(MBOX, MAIL0_POL, 0x10, 1, RO, 0, "VideoCore -> ARM: the oldest response without taking it")   \
    X(MBOX, MAIL0_SND, 0x14, 1, RO, 0, "sender of the oldest response (0: the VideoCore)")            \
    X(MBOX, MAIL0_STA, 0x18, 1, RO, 0x40000000, "VideoCore -> ARM status: MBOX_STA_EMPTY (30), MBOX_STA_FULL (31)") \
    X(MBOX, MAIL0_CNF, 0x1c, 1, RW, 0, "configuration (interrupt enables; stored, no interrupt raised)") \
    X(MBOX, MAIL1_WRT, 0x20, 1, WO, 0, "ARM -> VideoCore: a message (buffer bus address | channel)")   \
    X(MBOX, MAIL1_STA, 0x38, 1, RO, 0x40000000, "ARM -> VideoCore status: MBOX_STA_FULL when 8 messages wait")
HETVP_REG_OFFSETS(HETVP_VCMBOX_REGS)

#define MBOX_BASE_OFFSET 0xb880u /* from the peripheral base */
#define MBOX_STA_FULL 0x80000000u
#define MBOX_STA_EMPTY 0x40000000u
#define MBOX_FIFO_DEPTH 8u
#define MBOX_CHANNEL(msg) ((msg) & 0xfu)
#define MBOX_DATA(msg) ((msg) & ~0xfu)
#define MBOX_CHAN_PROPERTY 8u

/* Buffer and tag codes. */
#define MBOX_REQUEST 0x00000000u
#define MBOX_RESPONSE_OK 0x80000000u
#define MBOX_RESPONSE_ERROR 0x80000001u /* error parsing the request buffer (partial response) */
#define MBOX_TAG_RESPONSE 0x80000000u   /* bit 31 of a tag's code: answered; 30:0 value length */
#define MBOX_TAG_END 0u

/* Tags hetvp answers (the wiki's ids; execute_qpu and enable_qpu as the Pi's mailbox.c sends them). */
#define MBOX_TAG_GET_FIRMWARE_REVISION 0x00000001u /* -> u32 revision */
#define MBOX_TAG_GET_BOARD_MODEL 0x00010001u       /* -> u32 model */
#define MBOX_TAG_GET_BOARD_REVISION 0x00010002u    /* -> u32 revision */
#define MBOX_TAG_GET_BOARD_SERIAL 0x00010004u      /* -> u64 serial */
#define MBOX_TAG_GET_ARM_MEMORY 0x00010005u        /* -> u32 base, u32 size */
#define MBOX_TAG_GET_VC_MEMORY 0x00010006u         /* -> u32 base, u32 size */
#define MBOX_TAG_ALLOCATE_MEMORY 0x0003000cu       /* u32 size, u32 alignment, u32 flags -> u32 handle */
#define MBOX_TAG_LOCK_MEMORY 0x0003000du           /* u32 handle -> u32 bus address */
#define MBOX_TAG_UNLOCK_MEMORY 0x0003000eu         /* u32 handle -> u32 status */
#define MBOX_TAG_RELEASE_MEMORY 0x0003000fu        /* u32 handle -> u32 status */
#define MBOX_TAG_EXECUTE_QPU 0x00030011u           /* u32 num_qpus, u32 control, u32 noflush, u32 timeout (ms) -> u32 status */
#define MBOX_TAG_ENABLE_QPU 0x00030012u            /* u32 enable -> u32 status */

/* Allocate-memory flags (the wiki). Bits 3:2 choose the bus alias mem_lock returns. */
#define MEM_FLAG_DISCARDABLE (1u << 0)
#define MEM_FLAG_NORMAL (0u << 2)            /* 0x0 alias: L1 and L2 cached */
#define MEM_FLAG_DIRECT (1u << 2)            /* 0xC alias: uncached */
#define MEM_FLAG_COHERENT (2u << 2)          /* 0x8 alias: non-allocating in L2 but coherent */
#define MEM_FLAG_L1_NONALLOCATING (3u << 2)  /* 0x4 alias: allocating in L2 */
#define MEM_FLAG_ZERO (1u << 4)              /* initialise to zeros */
#define MEM_FLAG_NO_INIT (1u << 5)           /* do not initialise (default: all ones) */
#define MEM_FLAG_HINT_PERMALOCK (1u << 6)

/* VideoCore bus address aliases of SDRAM (bits 31:30) and the ARM physical address of one. */
#define VC_BUS_ALIAS_MASK 0xc0000000u
#define VC_BUS_L1_L2_CACHED 0x00000000u
#define VC_BUS_L2_COHERENT 0x40000000u
#define VC_BUS_L2_CACHED 0x80000000u
#define VC_BUS_UNCACHED 0xc0000000u
#define VC_BUS_TO_PHYS(a) ((a) & ~VC_BUS_ALIAS_MASK)

/* Status values of execute_qpu / enable_qpu / unlock / release (0 = success). The real firmware's
 * non-zero values are not documented; these are hetvp's, each also reported as a warning naming
 * the field. */
#define MBOX_STATUS_OK 0u
#define MBOX_STATUS_BAD_NUM_QPUS 1u  /* num_qpus 0 or more than the V3D has */
#define MBOX_STATUS_TIMEOUT 2u       /* not every program ended within `timeout` ms */
#define MBOX_STATUS_QPU_DISABLED 3u  /* execute_qpu before enable_qpu(1) */
#define MBOX_STATUS_BAD_ADDRESS 4u   /* control list outside SDRAM */
#define MBOX_STATUS_BAD_HANDLE 5u    /* no such memory handle */

#endif
