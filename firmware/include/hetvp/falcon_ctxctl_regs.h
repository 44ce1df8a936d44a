/* hetvp — the GF100 graphics context controller (Falcon v3 core) register block, used when
 * gpu0.microcontrollers.core is falcon (models/mcu/falcon/ctxctl.cpp). A separate table from
 * mcu_regs.h, selected by the core type: the same 0x1000 BAR0 windows (HUB 0x409000, GPC n 0x502000 +
 * n * 0x8000, GPC broadcast 0x41a000) carry this layout instead. Here 0x10c is UC_BLOCK_ON_FIFO (nouveau
 * writes 0 to it before a start), not hetvp's UC_EXIT.
 *
 * Offsets are the host view; the Falcon core reaches the same register at I/O address
 * (offset & 0xffc) << 6 | index << 2 (FCTX_IO): indexed registers keep one value per index, the
 * others ignore it, and the host reaches index 0.
 * Sources: envytools docs/hw/falcon/{io,intr,proc,vm}.rst, docs/hw/graph/fermi/ctxctl/, and the
 * register names in nouveau's gr/fuc/macros.fuc (docs/falcon.md lists each register's source). */
/* Hand-aligned tables: never reformatted. */
/* clang-format off */
#ifndef HETVP_FALCON_CTXCTL_REGS_H
#define HETVP_FALCON_CTXCTL_REGS_H

#include "regdef.h"
#include "mcu_debug_port.h"

#define HETVP_FCTX_REGS(X)                                                                             \
    X(FCTX, INTR_SET, 0x000, 1, WO, 0, "write 1s: trigger interrupt lines (Falcon INTR_SET)")            \
    X(FCTX, INTR_CLEAR, 0x004, 1, WO, 0, "write 1s: acknowledge interrupt lines")                         \
    X(FCTX, INTR, 0x008, 1, RO, 0, "pending interrupt lines")                                             \
    X(FCTX, INTR_MODE, 0x00C, 1, RW, 0xfc04, "edge (0) / level (1) per line (stored)")                     \
    X(FCTX, INTR_EN_SET, 0x010, 1, WO, 0, "write 1s: enable lines")                                       \
    X(FCTX, INTR_EN_CLR, 0x014, 1, WO, 0, "write 1s: disable lines")                                      \
    X(FCTX, INTR_EN, 0x018, 1, RO, 0, "enabled lines")                                                    \
    X(FCTX, INTR_ROUTE, 0x01C, 1, RW, 0, "per line: bits i and 16+i select vector 0, host, vector 1")     \
    X(FCTX, SCRATCH, 0x040, 2, RW, 0, "scratch registers 0 and 1")                                         \
    X(FCTX, ACCESS, 0x048, 1, RW, 0, "FIFO access enable (stored)")                                        \
    X(FCTX, FIFO_DATA, 0x064, 1, RO, 0, "data word of the method FIFO's head (macros.fuc:54, :140; hub.fuc ih, gpc.fuc ih)") \
    X(FCTX, FIFO_CMD, 0x068, 1, RO, 0, "command word of the method FIFO's head (macros.fuc:55, :141)")           \
    X(FCTX, FIFO_ACK, 0x074, 1, WO, 0, "write: pop the FIFO's head; INTR bit 2 (FIFO, level) stays while it is not empty (macros.fuc:56, :142)") \
    X(FCTX, HETVP_CLOCK_KHZ, 0x0F0, 1, RO, 0, "hetvp: the controller's clock in kHz (its YAML clock), read by hetvp's own firmware (assumption: GF100 has no such register)") \
    X(FCTX, UC_CTRL, 0x100, 1, RW, 0x10, "host write 2: start at UC_ENTRY; read: bit 4 stopped, bit 5 sleeping") \
    X(FCTX, UC_ENTRY, 0x104, 1, RW, 0, "start pc")                                                        \
    X(FCTX, UC_CAPS, 0x108, 1, RO, 0, "code size >> 8 in bits 0-8, data size >> 8 in bits 9-16")          \
    X(FCTX, UC_BLOCK_ON_FIFO, 0x10C, 1, RW, 0, "stored (nouveau writes 0 before a start)")                \
    X(FCTX, UC_CAPS2, 0x12C, 1, RO, 3, "bits 0-3: Falcon version (3, or 5 from GK208 on: gpu_chips.h FUC); hetvp's driver probes the core type here") \
    X(FCTX, CODE_INDEX, 0x180, 1, RW, 0, "code byte address; bit 24 auto-increment on write, 25 on read") \
    X(FCTX, CODE, 0x184, 1, RW, 0, "code word at CODE_INDEX")                                              \
    X(FCTX, CODE_VIRT_ADDR, 0x188, 1, WO, 0, "virtual page tag of the page at CODE_INDEX (TLB)")         \
    X(FCTX, DATA_INDEX, 0x1C0, 1, RW, 0, "data byte address; bit 24 auto-increment on write, 25 on read") \
    X(FCTX, DATA, 0x1C4, 1, RW, 0, "data word at DATA_INDEX")                                              \
    X(FCTX, SIGNAL, 0x400, 1, RO, 0x40, "bit 6: MMIO bridge done; bit 2 strand and bit 5 mmctx busy (never)") \
    X(FCTX, IROUTE, 0x404, 1, RW, 0, "indexed (0..63): interrupt source routing (stored)")                \
    X(FCTX, BAR_MASK0, 0x40C, 1, RW, 0, "barrier request mask (stored)")                                  \
    X(FCTX, BAR_MASK1, 0x410, 1, RW, 0, "barrier request mask (stored)")                                  \
    X(FCTX, BAR, 0x414, 1, RW, 0, "HUB: barrier bits (GPC n sets bit n through BAR_SET); SIGNAL bit 8 DONE_BAR = all of BAR_MASK0 set (macros.fuc:62; hub.fuc:635, wait_doneo(8) hub.fuc:663)") \
    X(FCTX, BAR_SET, 0x418, 1, WO, 0, "HUB: write 1s: set BAR bits (gpc.fuc:374 hub_barrier_done; macros.fuc:63)") \
    X(FCTX, MTHD_DATA, 0x500, 1, RW, 0, "method data: latched for the next MTHD_PUSH (ctxgf100.c:1535 0x409500; hub.fuc:637 0x41a500 GPC_BCAST_WRCMD_DATA)") \
    X(FCTX, MTHD_PUSH, 0x504, 1, WO, 0, "write: queue (command = value, data = MTHD_DATA) in the method FIFO, INTR bit 2 (ctxgf100.c:1536 0x409504; hub.fuc:642 0x41a504 GPC_BCAST_WRCMD_CMD)") \
    X(FCTX, GPC_ROP_COUNT, 0x604, 1, RO, 0, "HUB: GPC count in bits 0-4, ROP count in bits 16-20")         \
    X(FCTX, UNITS, 0x608, 1, RO, 0, "GPC: TPC count in bits 0-4")                                          \
    X(FCTX, RED_SWITCH, 0x614, 1, RW, 0, "power/enable switches (stored; hub.fuc:432 ctx_redswitch, gpc.fuc ctx_redswitch, ctxgf100.c 0x409614; macros.fuc:64)") \
    X(FCTX, MYINDEX, 0x618, 1, RO, 0, "GPC: its index")                                                    \
    X(FCTX, MMCTX_SAVE_SWBASE, 0x700, 1, RW, 0, "boot only (no gr block): stored; with the gr block forwarded to its unit (gr_ctxsw.h)")             \
    X(FCTX, MMCTX_LOAD_SWBASE, 0x704, 1, RW, 0, "stored")                                                 \
    X(FCTX, MMIO_BASE, 0x724, 1, RW, 0, "MMIO bridge base, added when MMIO_CTRL bit 0 is set")            \
    X(FCTX, MMIO_CTRL, 0x728, 1, RW, 0, "bits 2-25 address, 30 write, 31 pending (self-clearing)")        \
    X(FCTX, MMIO_RDVAL, 0x72C, 1, RO, 0, "value of the last bridge read")                                 \
    X(FCTX, MMIO_WRVAL, 0x730, 1, RW, 0, "value for the next bridge write")                               \
    X(FCTX, MMCTX_LOAD_COUNT, 0x74C, 1, RW, 0, "stored")                                                  \
    X(FCTX, CC_SCRATCH, 0x800, 8, RW, 0, "status scratch: [0] bit 31 = init done, [1] = context size")     \
    X(FCTX, CC_SCRATCH_SET, 0x820, 8, WO, 0, "write 1s: set bits of CC_SCRATCH[n] (before GK110: gpu_chips.h CC_SET)") \
    X(FCTX, CC_SCRATCH_CLR, 0x840, 8, WO, 0, "write 1s: clear bits of CC_SCRATCH[n]")                     \
    X(FCTX, UNK86C, 0x86C, 1, RW, 0, "stored (ctx_86c handshake value; before GK110: gpu_chips.h UNK86C)")   \
    X(FCTX, GK110_UNK86C, 0x88C, 1, RW, 0, "GK110+: UNK86C moved here (nouveau macros.fuc)")                       \
    X(FCTX, GK110_CC_SCRATCH_SET, 0x8C0, 8, WO, 0, "GK110+: CC_SCRATCH_SET moved here (nouveau macros.fuc)") \
    X(FCTX, STRANDS_CNT, 0x880, 1, RO, 1, "number of strands (YAML strands)")                              \
    X(FCTX, STRAND_SAVE_SWBASE, 0x908, 1, RW, 0, "indexed (0..63): save base per strand (stored)")      \
    X(FCTX, STRAND_LOAD_SWBASE, 0x90C, 1, RW, 0, "indexed (0..63): load base per strand (stored)")      \
    X(FCTX, STRAND_SIZE, 0x910, 1, RO, 0, "indexed by strand (0..strands-1): words (YAML strand_words)") \
    X(FCTX, STRAND_DATA, 0x918, 1, RW, 0, "stored")                                                        \
    X(FCTX, STRAND_SELECT, 0x91C, 1, RW, 0, "stored")                                                      \
    X(FCTX, STRAND_CMD, 0x928, 1, RW, 0, "boot only: a write completes at once (SIGNAL bit 2 stays clear); with the gr block forwarded")          \
    X(FCTX, STRAND_FILTER, 0x93C, 1, RW, 0, "stored")                                                      \
    X(FCTX, MEM_UNK_A24, 0xA24, 1, RW, 0, "HUB: stored (hub.fuc:478 ctx_load writes 0 before MEM_CMD LOAD_CHAN)") \
    X(FCTX, IDLE_STATUS, 0xC00, 1, RO, 0, "HUB: bit 13 busy; reads 0 (the FIFO asks for a switch only when GR is idle: hub.fuc:607 ctx_xfer_idle)") \
    X(FCTX, IDLE_CTRL, 0xC08, 1, RW, 0, "HUB: stored (hub.fuc:605 ctx_xfer writes 4 before polling IDLE_STATUS)") \
    X(FCTX, INTR_UP_SET, 0xC1C, 1, WO, 0, "write: the firmware reports an error to the host (CC_SCRATCH[5] = code, os.h E_*): the run stops, named (macros.fuc:129; hub.fuc:57 error)") \
    X(FCTX, INTR_UP_EN, 0xC24, 1, RW, 0, "stored")
HETVP_REG_OFFSETS(HETVP_FCTX_REGS)

/* PGRAPH registers outside the ctxctl windows that nouveau's HUB firmware touches during boot,
 * served by the falcon block (offsets are BAR0 addresses). */
#define HETVP_PGRAPH_BOOT_REGS(X)                                                                      \
    X(PGRAPH, HANDSHAKE_4170, 0x404170, 1, RW, 0, "bit 4 = request (self-clearing: the unit is always ready)") \
    X(PGRAPH, UNK_408A14, 0x408A14, 1, RW, 0, "stored (ctx_86c)") \
    X(PGRAPH, HANDSHAKE_4160, 0x404160, 1, RW, 0, "write 1: bit 4 reads set at once (hub.fuc:391-395 ctx_4160s polls it; hub.fuc:405 ctx_4160c writes 0)")
HETVP_REG_OFFSETS(HETVP_PGRAPH_BOOT_REGS)
/* The two words of the HUB image's own context list (hub.fuc:45 hub_mmio_list_base: ".b32 0x0417e91c //
 * 0x17e91c, 2"), saved and restored by every switch: stored. */
#define HETVP_HUB_IMAGE_LIST_REGS(X)                                                                   \
    X(PFB, UNK_17E91C, 0x17E91C, 2, RW, 0, "stored (the HUB image's MMCTX list entry, 2 words)")
HETVP_REG_OFFSETS(HETVP_HUB_IMAGE_LIST_REGS)

/* A GPC's PPC units (chips with gpu_chips.h PPCS > 0), at BAR0 HETVP_PPC_TPC_MASK_BASE + GPC * 0x8000:
 * the TPCs each PPC serves, probed by the GPC firmware (gpc.fuc init_unk_loop) and by nouveau's
 * gf100_gr_oneinit; a PPC the GPC lacks reads 0. */
#define HETVP_GPC_PPC_REGS(X)                                                                          \
    X(GPC, PPC_TPC_MASK, 0x000, 4, RO, 0, "TPC mask of PPC n (0: absent); gpu_chips.h PPCS of them present")
HETVP_REG_OFFSETS(HETVP_GPC_PPC_REGS)


/* The core's executed cycles (not while asleep), low 32 bits: the window's debug port
 * (hetvp/mcu_debug_port.h, hetvp's own design, not in this table), which hetvp's own firmware reads
 * through its I/O space as it reads any register of its window (FCTX_IO). */
#define FCTX_DBG_CYCLES_LO MCU_DBG_CYCLES_LO

/* The core's I/O address of a register: offset in bits 8-17, index (indexed registers) in 2-7. */
#define FCTX_IO(off, idx) ((((off) & 0xffcu) << 6) | ((unsigned)(idx) << 2))
#define FCTX_IO_SIZE 0x40000u
#define FCTX_IO_OFFSET(addr) (((addr) >> 6) & 0xffcu)
#define FCTX_IO_INDEX(addr) (((addr) >> 2) & 0x3fu)
#define FCTX_IO_INDICES 64u /* IROUTE, STRAND_SAVE_SWBASE, STRAND_LOAD_SWBASE */

/* INTR_* */
#define FCTX_INTR_LINES 0xffffu /* 16 interrupt lines */
/* UC_CTRL */
#define FCTX_UC_CTRL_START 0x2u
#define FCTX_UC_CTRL_STOPPED 0x10u
#define FCTX_UC_CTRL_SLEEPING 0x20u
/* UC_CAPS: segment sizes in 256-byte units */
#define FCTX_UC_CAPS_VALUE(code_size, data_size) (((code_size) >> 8) | ((data_size) >> 8) << 9)
/* UC_CAPS2 */
#define FCTX_UC_CAPS2_FALCON_V3 3u
#define FCTX_UC_CAPS2_FALCON_V5 5u
#define FCTX_UC_CAPS2_VERSION_MASK 0xfu
/* CODE_INDEX / DATA_INDEX */
#define FCTX_INDEX_ADDR_MASK 0xfffcu
#define FCTX_INDEX_AINCW 0x01000000u /* advance after a write */
#define FCTX_INDEX_AINCR 0x02000000u /* advance after a read */
/* SIGNAL: bits 2 (strand busy) and 5 (MMCTX busy) are the gr block's unit's (gr_ctxsw.h), the rest
 * the controller's: 6 MMIO bridge done (com.fuc DONE_MMIO_RD), 8 DONE_BAR (hub.fuc ctx_xfer), 12 DONE_UNK12
 * (hub.fuc ctx_load/ctx_chan wait_donez(12): never set in hetvp) */
#define FCTX_SIGNAL_MMIO_DONE 0x40u
#define FCTX_SIGNAL_BAR_DONE 0x100u
#define FCTX_SIGNAL_UNK12 0x1000u
/* INTR lines (macros.fuc:37-40: FIFO 2, CHSW 8, FWMTHD 10) */
#define FCTX_INTR_FIFO 0x4u
#define FCTX_INTR_CHSW 0x100u
#define FCTX_FIFO_DEPTH 16u /* assumption: no source gives the method FIFO's depth */
/* The offsets the gr block's context-switch unit answers (gr_ctxsw.h): with a unit attached, the
 * controller forwards them to it (host and core accesses alike) instead of serving its own boot-only
 * copies; the list is made from gr_ctxsw.h's tables (models/mcu/core_host.cpp), SIGNAL excepted (the
 * controller's own, with the unit's busy bits added). */
/* GPC_ROP_COUNT / UNITS */
#define FCTX_GPC_ROP_COUNT_VALUE(gpcs, rops) (((gpcs) & 0x1fu) | ((rops) & 0x1fu) << 16)
#define FCTX_UNITS_TPC_MASK 0x1fu
/* MMIO_CTRL */
#define FCTX_MMIO_CTRL_PENDING 0x80000000u
#define FCTX_MMIO_CTRL_WRITE 0x40000000u
#define FCTX_MMIO_CTRL_ADDR_MASK 0x03fffffcu
#define FCTX_MMIO_CTRL_BASE_ENABLE 0x1u
/* CC_SCRATCH[0] */
#define FCTX_CC_SCRATCH0_INIT_DONE 0x80000000u
/* hetvp's own firmware on a Falcon controller (docs/firmware_falcon.md): a command's arguments
 * 0..FCTX_HETVP_ARGS-1 in CC_SCRATCH[2..4] (GF100's controller has no mailboxes 2..7). */
#define FCTX_HETVP_ARGS 3u
#define FCTX_HETVP_ARG(i) (FCTX_CC_SCRATCH + 4u * (2u + (i)))
/* ... and it signs CC_SCRATCH[7] at init, so the driver talks to it with hetvp's commands
 * (sw/driver/gr_firmware.cpp); nouveau's firmware never writes CC_SCRATCH[7]. */
#define FCTX_HETVP_FW_ID_REG (FCTX_CC_SCRATCH + 4u * 7u)
#define FCTX_HETVP_FW_ID 0x68747670u /* "htvp" */

#endif
