/* hetvp — the microcontroller register block (HUB and GPC): THE single source of truth for its
 * offsets and bits, shared by the firmware (C), the model (models/mcu/uc) and the host driver
 * (sw/mcu). The same block is seen by the host at its BAR0 window (HUB 0x409000, GPC n at
 * 0x502000 + n * 0x8000, GPC broadcast 0x41a000) and by the microcontroller's own core at
 * MCU_REG_BASE (0x20000). docs/mcu.md describes every register in words.
 *
 * Layout after the Falcon register block (envytools) where SPEC §5 names a register; the rest is
 * hetvp's own design. All registers are 32 bit, aligned 32-bit accesses only. */
#ifndef HETVP_MCU_REGS_H
#define HETVP_MCU_REGS_H

#if defined(__ASSEMBLER__)
#define MCUR_U(x) x
#else
#define MCUR_U(x) x##u
#endif

/* ---- interrupt controller: interrupts TO the microcontroller's core (external line = STAT & MASK) */
#define MCU_IRQSSET MCUR_U(0x000)   /* WO  write 1s: set status bits (host or firmware "software" irqs) */
#define MCU_IRQSCLR MCUR_U(0x004)   /* WO  write 1s: clear (acknowledge) status bits */
#define MCU_IRQSTAT MCUR_U(0x008)   /* RO  pending status bits */
#define MCU_IRQMSET MCUR_U(0x010)   /* WO  write 1s: enable bits */
#define MCU_IRQMCLR MCUR_U(0x014)   /* WO  write 1s: disable bits */
#define MCU_IRQMASK MCUR_U(0x018)   /* RO  enable mask */
#define MCU_HOST_INTR MCUR_U(0x020) /* WO  any write: raise this MCU's PMC_INTR bit (HUB 2, GPC n 8+n) */
#define MCU_HOST_INTR_COUNT MCUR_U(0x024) /* RO  host interrupts raised so far */
/* IRQSTAT / IRQMASK bits */
#define MCU_IRQ_TIMER MCUR_U(0x01)  /* the timer expired */
#define MCU_IRQ_XFER MCUR_U(0x02)   /* an xfer DMA transfer completed (or faulted) */
#define MCU_IRQ_METHOD MCUR_U(0x04) /* the host wrote METHOD_CMD */
#define MCU_IRQ_SWGEN0 MCUR_U(0x08) /* free for software (set through IRQSSET) */
#define MCU_IRQ_SWGEN1 MCUR_U(0x10)
#define MCU_IRQ_ALL MCUR_U(0x1f)

/* ---- mailboxes / scratch (RW, no side effects): 16 words 0x040..0x07c */
#define MCU_MAILBOX(n) (MCUR_U(0x040) + 4u * (n))
#define MCU_MAILBOX_COUNT 16

/* ---- control */
#define MCU_UC_CTRL MCUR_U(0x100)   /* write: one of MCU_CTRL_*; read: state and trap cause, below */
#define MCU_UC_ENTRY MCUR_U(0x104)  /* RW  boot vector (pc at start) */
#define MCU_UC_CAPS MCUR_U(0x108)   /* RO  code size >> 8 bits 0-8, data size >> 8 bits 9-16 */
#define MCU_UC_EXIT MCUR_U(0x10C)   /* core write: firmware exited with this code (crt0); read: the code */
#define MCU_UC_TRAP_PC MCUR_U(0x110)    /* RO  pc of the trap that stopped the core */
#define MCU_UC_TRAP_CAUSE MCUR_U(0x114) /* RO  mcause of that trap */
#define MCU_UC_TRAP_VAL MCUR_U(0x118)   /* RO  mtval of that trap */
#define MCU_UC_FW_TRAP MCUR_U(0x11C)    /* core write (from its trap handler): report mepc/mcause/mtval, halt */
#define MCU_UC_INSTRET_LO MCUR_U(0x120) /* RO  instructions retired since start */
#define MCU_UC_INSTRET_HI MCUR_U(0x124)
#define MCU_UC_CYCLES_LO MCUR_U(0x128)  /* RO  core cycles since start */
#define MCU_UC_CYCLES_HI MCUR_U(0x12C)
#define MCU_UC_ID MCUR_U(0x130)         /* RO  bits 7:0 GPC index (0 for the HUB), bit 8 = HUB */
#define MCU_UC_CLOCK_KHZ MCUR_U(0x134)  /* RO  the microcontroller's clock in kHz */
#define MCU_DBG_INDEX MCUR_U(0x140)     /* RW  0..31 = GPR xN, 32 = pc */
#define MCU_DBG_DATA MCUR_U(0x144)      /* RW  that register (writes only while the core is stopped) */
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

/* ---- upload ports (refused while the core runs or sleeps: TLM error + warning) */
#define MCU_CODE_INDEX MCUR_U(0x180) /* byte address in code memory; bits 24/25 auto-increment on write/read */
#define MCU_CODE MCUR_U(0x184)
#define MCU_DATA_INDEX MCUR_U(0x1C0) /* byte offset in data memory; same bits */
#define MCU_DATA MCUR_U(0x1C4)
#define MCU_INDEX_ADDR_MASK MCUR_U(0x00ffffff)
#define MCU_INDEX_AINCW MCUR_U(0x01000000)
#define MCU_INDEX_AINCR MCUR_U(0x02000000)

/* ---- xfer DMA: 2^n bytes (3 <= n <= 8) between data memory and a GPU virtual address */
#define MCU_XFER_EXT_LO MCUR_U(0x200) /* RW  external GPU virtual address, bits 31:0 */
#define MCU_XFER_EXT_HI MCUR_U(0x204) /* RW  bits 39:32 (a start with bits above 7 set faults: ERR_BUS) */
#define MCU_XFER_DMEM MCUR_U(0x208)   /* RW  data-memory byte offset (0 = MCU_DMEM_BASE) */
#define MCU_XFER_CTRL MCUR_U(0x20C)   /* WO  write starts: bits 3:0 = n (size 2^n), bit 4 = direction */
#define MCU_XFER_STATUS MCUR_U(0x210) /* RO  bit 0 busy, bit 1 fault (sticky until the next start), 15:8 code */
#define MCU_XFER_COUNT MCUR_U(0x214)  /* RO  transfers completed */
#define MCU_XFER_FAULTS MCUR_U(0x218) /* RO  transfers faulted */
#define MCU_XFER_BYTES MCUR_U(0x21C)  /* RO  bytes moved (mod 2^32) */
#define MCU_XFER_DIR_LOAD 0u          /* external -> data memory */
#define MCU_XFER_DIR_STORE MCUR_U(0x10) /* data memory -> external */
#define MCU_XFER_BUSY MCUR_U(0x1)
#define MCU_XFER_FAULT MCUR_U(0x2)
#define MCU_XFER_ERR_NONE 0u
#define MCU_XFER_ERR_SIZE 1u      /* n outside 3..8 */
#define MCU_XFER_ERR_ALIGN 2u     /* external address or data offset not aligned to the size */
#define MCU_XFER_ERR_DMEM 3u      /* data-memory range outside the data memory */
#define MCU_XFER_ERR_BUS 4u       /* the GPU bus refused it (MMU fault, unmapped, bad target) */
#define MCU_XFER_ERR_BUSY 5u      /* started while a transfer was in flight */

/* ---- timer: raises MCU_IRQ_TIMER after TIMER_CYCLES core-clock cycles (periodic if bit 1) */
#define MCU_TIMER_CYCLES MCUR_U(0x300) /* RW  interval in microcontroller clock cycles */
#define MCU_TIMER_CTRL MCUR_U(0x304)   /* RW  bit 0 enable (arms when written), bit 1 periodic */

/* ---- method (command) interface */
#define MCU_METHOD_DATA MCUR_U(0x500) /* RW  the command's data word */
#define MCU_METHOD_CMD MCUR_U(0x504)  /* RW  a write raises MCU_IRQ_METHOD to the core */

/* ---- status scratch */
#define MCU_STATUS0 MCUR_U(0x800)     /* RW  bit 31 = init done (set by the firmware) */
#define MCU_STATUS1 MCUR_U(0x804)     /* RW  firmware: count of commands completed (see docs/firmware.md) */
#define MCU_STATUS0_INIT_DONE MCUR_U(0x80000000)

/* ---- the basic firmware's command protocol (docs/firmware.md) -----------------------------------
 * Host: seq = STATUS1; write MAILBOX(2..) args; METHOD_DATA = data; METHOD_CMD = cmd (| NOTIFY);
 * then wait until STATUS1 != seq; result = MAILBOX(0), error = MAILBOX(1). */
#define FW_RESULT MCU_MAILBOX(0)
#define FW_ERROR MCU_MAILBOX(1)
#define FW_ARG0 MCU_MAILBOX(2)
#define FW_ARG1 MCU_MAILBOX(3)
#define FW_ARG2 MCU_MAILBOX(4)
#define FW_CTXREG(n) MCU_MAILBOX(8 + (n)) /* mailboxes 8..15: "context registers" saved/loaded */
#define FW_CTXREG_COUNT 8
#define FW_CMD_NOTIFY MCUR_U(0x80000000) /* OR into a command: raise the host interrupt when done */
#define FW_CMD_MASK MCUR_U(0xff)
#define FW_CMD_ECHO 1u      /* result = data */
#define FW_CMD_REG_READ 2u  /* data = offset (HUB: BAR0 offset; GPC: own block offset); result = value */
#define FW_CMD_REG_WRITE 3u /* data = offset, ARG0 = value */
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
#define FW_CMD_EXIT 15u     /* leave the main loop; main returns `data` (crt0 halts, UC_EXIT = data) */
#define FW_ERR_OK 0u
#define FW_ERR_UNKNOWN_CMD 1u
#define FW_ERR_XFER 2u         /* an xfer of the command faulted: ARG.. unchanged, result = XFER_STATUS */
#define FW_ERR_BAD_CONTEXT 3u
#define FW_ERR_BAD_ARG 4u
#define FW_CTX_MAGIC MCUR_U(0x43545848) /* "HXTC" */
#define FW_CTX_HEADER 256u              /* bytes: magic, version, id, area size, 8 context registers */

#endif
