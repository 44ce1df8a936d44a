/* hetvp — the microcontroller register block (HUB and GPC): THE single source of truth for its
 * offsets and bits, shared by the firmware (C), the model (models/mcu/uc) and the host driver
 * (sw/mcu). The same block is seen by the host at its BAR0 window (HUB 0x409000, GPC n at
 * 0x502000 + n * 0x8000, GPC broadcast 0x41a000) and by the microcontroller's own core at
 * MCU_REG_BASE (0x20000). docs/mcu.md describes every register in words.
 *
 * Layout after the Falcon register block (envytools) where SPEC §5 names a register; the rest is
 * hetvp's own design. All registers are 32 bit, aligned 32-bit accesses only. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_MCU_REGS_H
#define HETVP_MCU_REGS_H

#if defined(__ASSEMBLER__)
#define MCUR_U(x) x
#else
#define MCUR_U(x) x##u
#endif

#include "regdef.h"

/* Every register, once (offsets from the block's base; see regdef.h for the columns). */
#define HETVP_MCU_REGS(X)                                                                             \
    /* interrupt controller: interrupts TO the core (external line = IRQSTAT & IRQMASK) */             \
    X(MCU, IRQSSET, 0x000, 1, WO, 0, "write 1s: set status bits (host or firmware \"software\" irqs); a host write acts when it arrives") \
    X(MCU, IRQSCLR, 0x004, 1, WO, 0, "write 1s: clear (acknowledge) status bits")                     \
    X(MCU, IRQSTAT, 0x008, 1, RO, 0, "pending status bits (MCU_IRQ_*)")                               \
    X(MCU, IRQMSET, 0x010, 1, WO, 0, "write 1s: enable bits")                                         \
    X(MCU, IRQMCLR, 0x014, 1, WO, 0, "write 1s: disable bits")                                        \
    X(MCU, IRQMASK, 0x018, 1, RO, 0, "enable mask")                                                   \
    X(MCU, HOST_INTR, 0x020, 1, WO, 0, "any write: raise this microcontroller's PMC_INTR bit (HUB 2, GPC n 8+n)") \
    X(MCU, HOST_INTR_COUNT, 0x024, 1, RO, 0, "host interrupts raised so far")                         \
    /* mailboxes / scratch, no side effects */                                                          \
    X(MCU, MAILBOX, 0x040, 16, RW, 0, "mailboxes (the basic firmware's FW_* arguments and results)")  \
    /* control */                                                                                       \
    X(MCU, UC_CTRL, 0x100, 1, RW, 0, "write: one of MCU_CTRL_*; read: state (bits 3:0), started (bit 4), trap cause (15:8)") \
    X(MCU, UC_ENTRY, 0x104, 1, RW, 0, "boot vector (pc at start)")                                    \
    X(MCU, UC_CAPS, 0x108, 1, RO, 0, "code size >> 8 in bits 0-8, data size >> 8 in bits 9-16")       \
    X(MCU, UC_EXIT, 0x10C, 1, RW, 0, "core write: the firmware exited with this code (crt0); read: the code") \
    X(MCU, UC_TRAP_PC, 0x110, 1, RO, 0, "pc of the trap that stopped the core")                       \
    X(MCU, UC_TRAP_CAUSE, 0x114, 1, RO, 0, "mcause of that trap")                                     \
    X(MCU, UC_TRAP_VAL, 0x118, 1, RO, 0, "mtval of that trap")                                        \
    X(MCU, UC_FW_TRAP, 0x11C, 1, WO, 0, "core write (from its trap handler): report mepc/mcause/mtval and halt") \
    X(MCU, UC_INSTRET_LO, 0x120, 1, RO, 0, "instructions retired since start, bits 31:0")             \
    X(MCU, UC_INSTRET_HI, 0x124, 1, RO, 0, "bits 63:32 of it")                                        \
    X(MCU, UC_CYCLES_LO, 0x128, 1, RO, 0, "core cycles since start, bits 31:0")                       \
    X(MCU, UC_CYCLES_HI, 0x12C, 1, RO, 0, "bits 63:32 of it")                                         \
    X(MCU, UC_ID, 0x130, 1, RO, 0, "bits 7:0 GPC index (0 for the HUB), bit 8 = HUB, bit 9 = a GR context-switch unit shares the window")                \
    X(MCU, UC_CLOCK_KHZ, 0x134, 1, RO, 0, "the microcontroller's clock in kHz")                       \
    X(MCU, DBG_INDEX, 0x140, 1, RW, 0, "0..31 = GPR xN, 32 = pc")                                      \
    X(MCU, DBG_DATA, 0x144, 1, RW, 0, "that register (writes only while the core is stopped)")        \
    /* upload ports (refused while the core runs or sleeps) */                                          \
    X(MCU, CODE_INDEX, 0x180, 1, RW, 0, "byte address in code memory; bits 24/25 auto-increment on write/read") \
    X(MCU, CODE, 0x184, 1, RW, 0, "code memory word at CODE_INDEX")                                   \
    X(MCU, DATA_INDEX, 0x1C0, 1, RW, 0, "byte offset in data memory; same bits")                       \
    X(MCU, DATA, 0x1C4, 1, RW, 0, "data memory word at DATA_INDEX")                                    \
    /* xfer DMA: 2^n bytes (2 <= n <= 8) between data memory and a GPU virtual address */             \
    X(MCU, XFER_EXT_LO, 0x200, 1, RW, 0, "external GPU virtual address, bits 31:0")                   \
    X(MCU, XFER_EXT_HI, 0x204, 1, RW, 0, "bits 39:32 (a start with bits above 7 set faults: ERR_BUS)") \
    X(MCU, XFER_DMEM, 0x208, 1, RW, 0, "data-memory byte offset (0 = MCU_DMEM_BASE)")                 \
    X(MCU, XFER_CTRL, 0x20C, 1, WO, 0, "a write starts a transfer: bits 3:0 = n (size 2^n), bit 4 = direction") \
    X(MCU, XFER_STATUS, 0x210, 1, RO, 0, "bit 0 busy, bit 1 fault (sticky until the next start), 15:8 code") \
    X(MCU, XFER_COUNT, 0x214, 1, RO, 0, "transfers completed")                                       \
    X(MCU, XFER_FAULTS, 0x218, 1, RO, 0, "transfers faulted")                                        \
    X(MCU, XFER_BYTES, 0x21C, 1, RO, 0, "bytes moved (mod 2^32)")                                    \
    /* timer: raises MCU_IRQ_TIMER after TIMER_CYCLES core-clock cycles (periodic if bit 1) */         \
    X(MCU, TIMER_CYCLES, 0x300, 1, RW, 0, "interval in microcontroller clock cycles")                 \
    X(MCU, TIMER_CTRL, 0x304, 1, RW, 0, "bit 0 enable (arms when written), bit 1 periodic")           \
    /* method (command) interface */                                                                    \
    X(MCU, METHOD_DATA, 0x500, 1, RW, 0, "the command's data word")                                   \
    X(MCU, METHOD_CMD, 0x504, 1, RW, 0, "a host write raises MCU_IRQ_METHOD to the core when it arrives") \
    /* status scratch */                                                                                \
    X(MCU, STATUS0, 0x800, 1, RW, 0, "bit 31 = init done (set by the firmware)")                      \
    X(MCU, STATUS1, 0x804, 1, RW, 0, "firmware: count of commands completed (docs/firmware.md)")
HETVP_REG_OFFSETS(HETVP_MCU_REGS)

/* IRQSTAT / IRQMASK bits */
#define MCU_IRQ_TIMER MCUR_U(0x01)  /* the timer expired */
#define MCU_IRQ_XFER MCUR_U(0x02)   /* an xfer DMA transfer completed (or faulted) */
#define MCU_IRQ_METHOD MCUR_U(0x04) /* the host wrote METHOD_CMD */
#define MCU_IRQ_SWGEN0 MCUR_U(0x08) /* free for software (set through IRQSSET) */
#define MCU_IRQ_SWGEN1 MCUR_U(0x10)
/* Raised by the graphics engine's context-switch unit (gr_ctxsw.h) through the microcontroller's
 * interrupt input: */
#define MCU_IRQ_CHSW MCUR_U(0x100)  /* (HUB) the FIFO asks for a channel switch: CHAN_NEXT is latched
                                       (GF100 NV_PGRAPH_FECS_INTR_CHSW, macros.fuc) */
#define MCU_IRQ_CTXSW MCUR_U(0x200) /* hetvp: the unit's MMCTX / strand engine went idle (SIGNAL busy bits clear) */
#define MCU_IRQ_CHSW_BIT 8
#define MCU_IRQ_CTXSW_BIT 9
#define MCU_IRQ_ALL MCUR_U(0x31f)

/* mailbox n (0..15) */
#define MCU_MAILBOX_COUNT 16
#define MCU_MAILBOX_N(n) (MCU_MAILBOX + 4u * (n))

/* UC_CTRL writes */
#define MCU_CTRL_RESET MCUR_U(0x01) /* stop the core, state IDLE */
#define MCU_CTRL_START MCUR_U(0x02) /* reset the core to UC_ENTRY and run */
#define MCU_CTRL_STOP MCUR_U(0x04)  /* debug: stop the core where it is (state STOPPED) */
#define MCU_CTRL_CONT MCUR_U(0x08)  /* debug: continue a STOPPED core */
#define MCU_CTRL_STEP MCUR_U(0x10)  /* debug: execute one instruction of a STOPPED core */
/* UC_CTRL read: bits 3:0 state, bit 4 = has been started, bits 15:8 trap cause (when TRAPPED) */
#define MCU_STATE_MASK MCUR_U(0x0f)
#define MCU_STATE_IDLE 0u      /* never started, or reset */
#define MCU_STATE_RUNNING 1u
#define MCU_STATE_SLEEPING 2u  /* wfi, waiting for an interrupt */
#define MCU_STATE_HALTED 3u    /* firmware exited (UC_EXIT holds the code) */
#define MCU_STATE_TRAPPED 4u   /* a trap stopped it (UC_TRAP_* hold pc/cause/val) */
#define MCU_STATE_STOPPED 5u   /* stopped by the debugger (UC_CTRL STOP, breakpoint, GDB) */
#ifndef __ASSEMBLER__
/* The word for a state (UC_CTRL bits 3:0) in messages and stats: the model and the driver share it. */
static inline const char* mcu_state_name(unsigned state) {
  switch (state & MCU_STATE_MASK) {
    case MCU_STATE_IDLE: return "idle";
    case MCU_STATE_RUNNING: return "running";
    case MCU_STATE_SLEEPING: return "sleeping";
    case MCU_STATE_HALTED: return "halted";
    case MCU_STATE_TRAPPED: return "trapped";
    case MCU_STATE_STOPPED: return "stopped";
  }
  return "?";
}
#endif
#define MCU_CTRL_STARTED MCUR_U(0x10)
#define MCU_CTRL_CAUSE_SHIFT 8

/* UC_ID fields */
#define MCU_UC_ID_INDEX_MASK MCUR_U(0xff)
#define MCU_UC_ID_HUB MCUR_U(0x100)
#define MCU_UC_ID_CTXSW MCUR_U(0x200) /* the GR context-switch unit shares this window (gr_ctxsw.h) */

/* upload index bits */
#define MCU_INDEX_ADDR_MASK MCUR_U(0x00ffffff)
#define MCU_INDEX_AINCW MCUR_U(0x01000000)
#define MCU_INDEX_AINCR MCUR_U(0x02000000)

/* XFER_CTRL / XFER_STATUS fields */
#define MCU_XFER_DIR_LOAD 0u          /* external -> data memory */
#define MCU_XFER_DIR_STORE MCUR_U(0x10) /* data memory -> external */
#define MCU_XFER_BUSY MCUR_U(0x1)
#define MCU_XFER_FAULT MCUR_U(0x2)
#define MCU_XFER_ERR_NONE 0u
#define MCU_XFER_ERR_SIZE 1u      /* n outside 2..8 */
#define MCU_XFER_ERR_ALIGN 2u     /* external address or data offset not aligned to the size */
#define MCU_XFER_ERR_DMEM 3u      /* data-memory range outside the data memory */
#define MCU_XFER_ERR_BUS 4u       /* the GPU bus refused it (MMU fault, unmapped, bad target) */
#define MCU_XFER_ERR_BUSY 5u      /* started while a transfer was in flight */



/* STATUS0 */
#define MCU_STATUS0_INIT_DONE MCUR_U(0x80000000)


/* ---- the basic firmware's command protocol (docs/firmware.md) -----------------------------------
 * Host: seq = STATUS1; write MAILBOX(2..) args; METHOD_DATA = data; METHOD_CMD = cmd (| NOTIFY);
 * then wait until STATUS1 != seq; result = MAILBOX(0), error = MAILBOX(1). */
#define FW_RESULT MCU_MAILBOX_N(0)
#define FW_ERROR MCU_MAILBOX_N(1)
#define FW_ARG0 MCU_MAILBOX_N(2)
#define FW_ARG1 MCU_MAILBOX_N(3)
#define FW_ARG2 MCU_MAILBOX_N(4)
#define FW_CTXREG(n) MCU_MAILBOX_N(8 + (n)) /* mailboxes 8..15: "context registers" saved/loaded */
#define FW_CTXREG_COUNT 8
#define FW_CMD_NOTIFY MCUR_U(0x80000000) /* OR into a command: raise the host interrupt when done */
#define FW_CMD_NOTIFY_HUB MCUR_U(0x40000000) /* OR into a command the HUB sends a GPC: when done (STATUS1 written),
                                                the GPC sets the HUB's IRQSSET MCU_IRQ_SWGEN1 through BAR0, so the
                                                HUB sleeps instead of polling */
#define FW_CMD_MASK MCUR_U(0xff)
#define FW_CMD_ECHO 1u      /* result = data */
#define FW_CMD_REG_READ 2u  /* data = offset (HUB: BAR0 offset; GPC: own block offset); result = value */
#define FW_CMD_REG_WRITE 3u /* data = offset, ARG0 = value */
/* FW_CMD_CTX_*: the firmware's own synthetic "context area" (data memory + mailboxes 8..15), the xfer
 * engine's earlier test path; the GPU's GR contexts are FW_CMD_GR_* (gr_ctxsw.h, docs/contexts.md). */
#define FW_CMD_CTX_SAVE 4u  /* data = GPU VA bits 31:0, ARG0 = bits 39:32; result = bytes moved */
#define FW_CMD_CTX_LOAD 5u  /* same; error FW_ERR_BAD_CONTEXT when the image is not a context */
#define FW_CMD_CTX_FILL 6u  /* fill the context area and context registers from seed `data` */
#define FW_CMD_CTX_HASH 7u  /* result = FNV-1a hash of the context area and context registers */
#define FW_CMD_XFER 8u      /* one raw transfer: data = XFER_CTRL value, ARG0/1 = ext lo/hi, ARG2 = dmem offset;
                               result = XFER_STATUS after completion */
#define FW_CMD_TRAP 9u      /* execute an illegal instruction (tests the trap path) */
#define FW_CMD_INFO 10u     /* result = number of GPCs seen (HUB) / GPC index (GPC); ARG0.. unchanged */
#define FW_CMD_COPY 11u     /* offloaded copy (firmware/lib/copy.c): data = bytes, ARG0 = source VA bits 31:0,
                               ARG1 = destination VA bits 31:0, ARG2 = source bits 39:32 | destination bits 39:32 << 8;
                               result = bytes copied; on FW_ERR_XFER result = XFER_STATUS, ARG2 = bytes done */
/* A 40-bit GPU VA passed as bits 31:0 (data or an ARG) and bits 39:32 (an ARG's low byte) */
#define FW_VA_HI_MASK MCUR_U(0xff)
#define FW_VA_HI(arg) ((uint64_t)((arg) & FW_VA_HI_MASK) << 32) /* the ARG's byte as VA bits 39:32 */
/* FW_CMD_COPY's ARG2: bits 39:32 of the source and destination VAs, and back */
#define FW_COPY_ARG2(src, dst) ((uint32_t)((src) >> 32 & FW_VA_HI_MASK) | (uint32_t)((dst) >> 32 & FW_VA_HI_MASK) << 8)
#define FW_COPY_SRC_HI(arg2) FW_VA_HI(arg2)
#define FW_COPY_DST_HI(arg2) FW_VA_HI((arg2) >> 8)
#define FW_CMD_COH_ACQUIRE 12u /* (HUB) the GPU's coherence acquire (firmware/lib/coh.c): data = GPU VA of the
                                  directory window bits 31:0, ARG0 = bits 39:32 */
#define FW_CMD_COH_RELEASE 13u /* (HUB) the GPU's release: history, INVALIDATE, wait, unlock; same arguments;
                                  on FW_ERR_TIMEOUT result = the status register that never became 1 */
#define FW_CMD_RTL_CRC32 16u /* (HUB) CRC-32 of a GPU buffer by the example RTL block rtl.crc32 in an external BAR0
                                window (firmware/lib/rtl_crc32.c): data = bytes, ARG0 = source VA bits 31:0,
                                ARG1 = result VA bits 31:0 (the block writes the 4-byte CRC there), ARG2 =
                                FW_COPY_ARG2(source, result); result = the CRC. The block is the first PTOP
                                external window (EXT_BASE n) whose CRC_ID reads CRC_ID_VALUE: FW_ERR_NO_DEVICE
                                when there is none; FW_ERR_DEVICE (result = CRC_STATUS) when the job ends in
                                CRC_STATUS_ERROR; FW_ERR_TIMEOUT (result = CRC_STATUS) when it never ends */
#define FW_CMD_EXIT 15u     /* leave the main loop; main returns `data` (crt0 halts, UC_EXIT = data) */
#define FW_ERR_OK 0u
#define FW_ERR_UNKNOWN_CMD 1u
#define FW_ERR_XFER 2u         /* an xfer of the command faulted: ARG.. unchanged, result = XFER_STATUS */
#define FW_ERR_BAD_CONTEXT 3u
#define FW_ERR_BAD_ARG 4u
#define FW_ERR_TIMEOUT 5u      /* a poll of the command did not see its condition in time */
#define FW_ERR_NO_DEVICE 6u    /* the block the command drives is not in this GPU's BAR0 (PTOP says where blocks are) */
#define FW_ERR_DEVICE 7u       /* the block reported an error (result = its status register) */
#define FW_CTX_MAGIC MCUR_U(0x43545848) /* "HXTC" */
#define FW_CTX_HEADER 256u              /* bytes: magic, version, id, area size, 8 context registers */

#endif
