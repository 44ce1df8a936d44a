/* hetvp — the graphics engine's context-switch hardware (GR "ctxsw"): THE single source of its
 * registers, shared by the model (models/gpu/gr), the firmware (firmware/hub, firmware/gpc) and the
 * host driver (sw/driver/gr_context). docs/contexts.md describes every register in words.
 *
 * Shaped like GF100's FECS (HUB) and GPCCS (GPC) context-switch units: names, offsets and bits from
 * nouveau's drivers/gpu/drm/nouveau/nvkm/engine/gr/fuc/macros.fuc (NV_PGRAPH_FECS_*, GPCX_GPCCS_*),
 * hub.fuc and com.fuc; what nouveau does not show is hetvp's own (marked "hetvp").
 *
 * The registers sit inside the microcontroller windows (HUB 0x409000, GPC n 0x502000 + n * 0x8000),
 * at offsets the microcontroller's own block (mcu_regs.h) does not use: the microcontroller model
 * forwards every offset its table lacks to this unit, so the host (BAR0) and the microcontroller's
 * own core (MCU_REG_BASE + offset) reach them at the same offsets. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_GR_CTXSW_H
#define HETVP_GR_CTXSW_H

#if defined(__ASSEMBLER__)
#define GRC_U(x) x
#else
#define GRC_U(x) x##u
#endif

#include "regdef.h"

/* Both the HUB's and every GPC's unit: the MMCTX (MMIO list) engine, the strand engine and the
 * buffer base they transfer to. */
#define HETVP_GR_CTXSW_REGS(X)                                                                         \
    X(GRC, SIGNAL, 0x400, 1, RO, 0, "busy bits: GRC_SIGNAL_STRAND (2), GRC_SIGNAL_MMCTX (5) (macros.fuc FECS_SIGNAL; com.fuc wait_donez)") \
    X(GRC, MMCTX_SAVE_SWBASE, 0x700, 1, RW, 0, "save area: MEM_BASE + this, in 256-byte units (macros.fuc)") \
    X(GRC, MMCTX_LOAD_SWBASE, 0x704, 1, RW, 0, "load area: MEM_BASE + this, in 256-byte units (macros.fuc)") \
    X(GRC, MMCTX_BASE, 0x710, 1, RW, 0, "BAR0 offset added to a list entry with GRC_MMCTX_ENTRY_BASE_EN (com.fuc mmctx_xfer)") \
    X(GRC, MMCTX_CTRL, 0x714, 1, RW, 0, "bits 4:0 free queue slots (RO), 16 DIR (1 load), 17 START (resets the area offset), 18 STOP (com.fuc)") \
    X(GRC, MMCTX_MULTI_STRIDE, 0x718, 1, RW, 0, "MULTI_EN entries: BAR0 distance between two units (com.fuc)") \
    X(GRC, MMCTX_MULTI_MASK, 0x71c, 1, RW, 0, "MULTI_EN entries: the units (bit n = unit n) (com.fuc)") \
    X(GRC, MMCTX_QUEUE, 0x720, 1, WO, 0, "a list entry: (count - 1) << 26 | BAR0 offset | MULTI_EN (bit 1) | BASE_EN (bit 0) (macros.fuc mmctx_data)") \
    X(GRC, ERROR, 0x740, 1, RW, 0, "hetvp: first engine error since cleared: bits 7:0 GRC_ERR_*, bit 8 strand engine; write 0 to clear") \
    X(GRC, ERROR_ADDR, 0x744, 1, RO, 0, "hetvp: the BAR0 register or VRAM address of that error (VRAM: >> 8)") \
    X(GRC, MMCTX_WORDS, 0x748, 1, RO, 0, "hetvp: words the MMCTX engine moved since START") \
    X(GRC, MMCTX_LOAD_COUNT, 0x74c, 1, RW, 0, "words restored (loaded) since reset (macros.fuc name; hetvp meaning); nouveau's init writes its list size here (hub.fuc, gpc.fuc \"wtf\"), which hetvp keeps and counts on from") \
    X(GRC, STRANDS_CNT, 0x880, 1, RO, 0, "number of strands of this unit (macros.fuc FECS_STRANDS_CNT)") \
    X(GRC, STRAND_SAVE_SWBASE, 0x908, 1, RW, 0, "the selected strand's save area: MEM_BASE + this, 256-byte units (com.fuc strand_ctx_init)") \
    X(GRC, STRAND_LOAD_SWBASE, 0x90c, 1, RW, 0, "the selected strand's load area, same units") \
    X(GRC, STRAND_WORDS, 0x910, 1, RO, 0, "words of the selected strand, after CMD GET_INFO (macros.fuc)") \
    X(GRC, STRAND_DATA, 0x918, 1, RW, 0, "command argument (nouveau writes ~0 before GET_INFO); kept, no effect in hetvp") \
    X(GRC, STRAND_SELECT, 0x91c, 1, RW, 0, "strand the next command acts on; SAVE/LOAD move it and every later strand") \
    X(GRC, STRAND_CMD, 0x928, 1, WO, 0, "GRC_STRAND_CMD_* (macros.fuc FECS_STRAND_CMD)") \
    X(GRC, STRAND_FILTER, 0x93c, 1, RW, 0, "strand set filter (nouveau strand_set); kept, no effect in hetvp") \
    X(GRC, MEM_BASE, 0xa04, 1, RW, 0, "base of the engines' transfers, VRAM byte address >> 8 (macros.fuc FECS_MEM_BASE)") \
    X(GRC, MEM_TARGET, 0xa20, 1, RW, 0, "bits 4:0 address space: 2 VRAM, 1 VM = the space of the channel in MEM_CHAN (GPU MMU, ChannelTag; hub.fuc ctx_load:495); a GPC unit under nouveau's firmware, 0: the HUB unit's target and channel (assumption)")
/* The HUB's unit only: channel switch (CHSW) and the instance-block fetch. */
#define HETVP_GR_HUB_REGS(X)                                                                           \
    X(GRH, MEM_CHAN, 0xa0c, 1, RW, 0, "channel word (bit 31 valid | instance >> 12) MEM_CMD acts on (macros.fuc)") \
    X(GRH, MEM_CMD, 0xa10, 1, RW, 0, "write GRH_MEM_CMD_LOAD_CHAN: fetch MEM_CHAN's context pointer (inst + 0x210) into MEM_CTX; reads 0 when done") \
    X(GRH, MEM_CTX, 0xa28, 1, RO, 0, "hetvp: after LOAD_CHAN, the channel's context buffer, VRAM byte address >> 8") \
    X(GRH, MEM_CTX_STATUS, 0xa2c, 1, RO, 0, "hetvp: after LOAD_CHAN, GRC_ERR_NONE or GRC_ERR_NO_CTX / BAD_CTX / BAD_INST") \
    X(GRH, CHAN_ADDR, 0xb00, 1, RW, 0, "channel whose context GR holds: bit 31 valid | instance >> 12 (macros.fuc FECS_CHAN_ADDR)") \
    X(GRH, CHAN_NEXT, 0xb04, 1, RW, 0, "channel the FIFO asks for, latched with the CHSW interrupt (macros.fuc FECS_CHAN_NEXT)") \
    X(GRH, CHSW, 0xb0c, 1, WO, 0, "firmware: GRH_CHSW_ACK (bit 0, macros.fuc) ends the switch; hetvp: GRH_CHSW_ERROR | code << 8 fails it") \
    X(GRH, CHSW_FW_CYCLES, 0xb10, 1, RW, 0, "hetvp: firmware writes the cycles its switch took, before the ACK (a statistic)") \
    X(GRH, CHSW_BYTES, 0xb14, 1, RW, 0, "hetvp: firmware writes the context bytes its switch moved (save + load, HUB and GPCs), before the ACK") \
    X(GRH, GOLDEN_NS, 0xb20, 1, RW, 0, "hetvp: the driver writes the golden context's generation time in ns (a statistic)")
HETVP_REG_OFFSETS(HETVP_GR_CTXSW_REGS)
HETVP_REG_OFFSETS(HETVP_GR_HUB_REGS)

/* SIGNAL bits (com.fuc: strand_wait waits on bit 2, mmctx_xfer on DONE_MMCTX bit 5) */
#define GRC_SIGNAL_STRAND GRC_U(0x04)
#define GRC_SIGNAL_MMCTX GRC_U(0x20)
/* MMCTX_CTRL */
#define GRC_MMCTX_CTRL_FREE_MASK GRC_U(0x1f)
#define GRC_MMCTX_QUEUE_LEN 16u
#define GRC_MMCTX_CTRL_QLIMIT GRC_U(0x1000) /* com.fuc "bset 12: QLIMIT = 0x10" (accepted, hetvp's queue is 16) */
#define GRC_MMCTX_CTRL_DIR_LOAD GRC_U(0x10000)
#define GRC_MMCTX_CTRL_START GRC_U(0x20000)
#define GRC_MMCTX_CTRL_STOP GRC_U(0x40000)
/* MMCTX_QUEUE entries (macros.fuc mmctx_data(r, c) = (c - 1) << 26 | r) */
#define GRC_MMCTX_ENTRY_BASE_EN GRC_U(0x1)
#define GRC_MMCTX_ENTRY_MULTI_EN GRC_U(0x2)
#define GRC_MMCTX_ENTRY_ADDR_MASK GRC_U(0x03fffffc)
#define GRC_MMCTX_ENTRY_COUNT_SHIFT 26
#define GRC_MMCTX_ENTRY(addr, count) ((((uint32_t)(count) - 1u) << GRC_MMCTX_ENTRY_COUNT_SHIFT) | (uint32_t)(addr))
#define GRC_MMCTX_MAX_COUNT 64u
/* STRAND_CMD (macros.fuc FECS_STRAND_CMD_*) */
#define GRC_STRAND_CMD_SEEK 0x1u
#define GRC_STRAND_CMD_GET_INFO 0x2u
#define GRC_STRAND_CMD_SAVE 0x3u
#define GRC_STRAND_CMD_LOAD 0x4u
#define GRC_STRAND_CMD_ACTIVATE_FILTER 0xau
#define GRC_STRAND_CMD_DEACTIVATE_FILTER 0xbu
#define GRC_STRAND_CMD_ENABLE 0xcu
#define GRC_STRAND_CMD_DISABLE 0xdu
/* MEM_TARGET (macros.fuc FECS_MEM_TARGET_AS_*) */
#define GRC_MEM_TARGET_AS_MASK GRC_U(0x1f)
#define GRC_MEM_TARGET_AS_VM 1u
#define GRC_MEM_TARGET_AS_VRAM 2u
#define GRC_MEM_TARGET_UNK31 GRC_U(0x80000000)
/* MEM_CMD (macros.fuc FECS_MEM_CMD_LOAD_CHAN) */
#define GRH_MEM_CMD_LOAD_CHAN 7u
/* CHSW (macros.fuc FECS_CHSW_ACK; ERROR is hetvp's) */
#define GRH_CHSW_ACK GRC_U(0x1)
#define GRH_CHSW_ERROR GRC_U(0x2)
#define GRH_CHSW_CODE_SHIFT 8
#define GRH_CHAN_VALID GRC_U(0x80000000)

/* Error codes: ERROR bits 7:0, MEM_CTX_STATUS, CHSW code, the firmware's result on FW_ERR_GR. */
#define GRC_ERR_NONE 0u
#define GRC_ERR_NO_CTX 1u      /* the instance block's context pointer (inst + 0x210) is 0 */
#define GRC_ERR_BAD_CTX 2u     /* the pointer is not a VRAM address (bit 2 clear), misaligned or outside VRAM */
#define GRC_ERR_BAD_INST 3u    /* the instance block itself is outside VRAM */
#define GRC_ERR_REG 4u         /* an MMCTX entry / strand register is outside BAR0 or no block answers it */
#define GRC_ERR_BUFFER 5u      /* a transfer's buffer area is outside VRAM */
#define GRC_ERR_TARGET 6u      /* MEM_TARGET is neither VRAM nor VM with a valid MEM_CHAN */
#define GRC_ERR_QUEUE 7u       /* MMCTX_QUEUE written while the queue was full */
#define GRC_ERR_GPC 8u         /* (firmware) a GPC's strand transfer failed or did not answer */
#define GRC_ERR_HALTED 9u      /* (Falcon controller) the HUB's core stopped during the switch: its warning says why */
#define GRC_ERR_STRAND_ENGINE GRC_U(0x100) /* ERROR bit 8: the strand engine's error */
#ifndef __ASSEMBLER__
static inline const char* grc_err_name(unsigned code) {
  switch (code & 0xffu) {
    case GRC_ERR_NONE: return "none";
    case GRC_ERR_NO_CTX: return "no context pointer (0 at instance + 0x210)";
    case GRC_ERR_BAD_CTX: return "context pointer not a 256-byte aligned VRAM address inside VRAM";
    case GRC_ERR_BAD_INST: return "instance block outside VRAM";
    case GRC_ERR_REG: return "register outside BAR0 or not answered";
    case GRC_ERR_BUFFER: return "context buffer area outside VRAM";
    case GRC_ERR_TARGET: return "MEM_TARGET is neither VRAM nor a channel's VM";
    case GRC_ERR_QUEUE: return "MMCTX queue overflow";
    case GRC_ERR_GPC: return "a GPC's strand transfer failed";
    case GRC_ERR_HALTED: return "the HUB controller stopped during the switch";
  }
  return "unknown error";
}
#endif

/* ---- the instance block (VRAM, GF100 offsets as nouveau writes them) ------------------------------
 * +0x200 page directory (the FIFO's), +0x210/+0x214 the GR context pointer, 64 bit. hetvp stores the
 * context buffer's VRAM byte address (256-byte aligned) | GR_INST_CTX_VRAM; nouveau (ctxgf100.c,
 * gf100_grctx_generate... `ctx->addr | 4`) writes the same bit 2 beside a GPU virtual address. */
#define GR_INST_CTX_PTR 0x210u
#define GR_INST_CTX_VRAM 0x4u

/* ---- the context buffer hetvp's firmware writes (VRAM, 256-byte units from its start) -------------
 *   [0, hub)          the HUB's MMCTX area: the HETVP_COMPUTE_CTX_REGS values, in list order
 *   [hub + n * gpc)   GPC n's strands, each strand at its own 256-byte aligned offset
 * hub and gpc are in 256-byte units: FW_CMD_GR_INFO on the HUB returns the whole size in bytes. */
#define GR_CTX_UNIT 256u

/* The firmware's commands for contexts (mcu_regs.h protocol; numbers after the existing ones). */
#define FW_CMD_GR_SET_CHAN 17u /* (HUB) hub.fuc command 0x0001: data = channel word; CHAN_ADDR = it, no transfer */
#define FW_CMD_GR_SAVE 18u     /* (HUB) hub.fuc command 0x0002: save CHAN_ADDR's context; result = bytes */
#define FW_CMD_GR_INFO 19u     /* HUB: result = context bytes; GPC: result = its strands' bytes */
#define FW_CMD_GR_GPC_XFER 20u /* (GPC, from the HUB) data = MEM_BASE for this GPC, ARG0 = 1 load / 0 save;
                                  result = bytes moved; FW_ERR_GR with result = GRC_ERR_* on failure */
#define FW_ERR_GR 8u           /* a context command failed: result = GRC_ERR_* */

#endif
