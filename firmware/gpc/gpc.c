/* hetvp — GPC firmware: sets its init flag (unless built as the test variant gpc_noinit, which
 * never reports), then serves commands (docs/firmware.md). */
#include "fw.h"

/* This GPC's strands in the context buffer, 256-byte units. In .data, not .bss: gpc.elf's buffers keep
 * their data-memory offsets (tests/mcu_model uses the copy buffer at 0x400). */
static uint32_t strand_units __attribute__((section(".data"))) = 0;
static uint32_t strand_bytes __attribute__((section(".data"))) = 0;  /* bytes a transfer moves (x 4 the words) */
static uint32_t strands_known __attribute__((section(".data"))) = 0; /* laid out (at the first GR command) */

#ifdef HETVP_FALCON
/* On GF100's Falcon the GPC's context is GF100's (docs/firmware_falcon.md "GF100's context"): first
 * the MMCTX lists nouveau's firmware runs, appended by the driver at boot (falcon_lists.h) — the GPC
 * list at the GPC's unicast registers, then the TPC list once per TPC — as gpc.fuc's ctx_xfer does,
 * then the strands from the next 256-byte unit on. */
#include "falcon_lists.h"
#include "hetvp/pgraph_regfile.h"
/* NV_PGRAPH_GPCn and its TPC 0 (gpc.fuc ctx_xfer): hetvp/pgraph_regfile.h */
#define GPC_UNICAST(n) (PGRAPH_GPC_BASE + (n) * PGRAPH_GPC_STRIDE)
static uint32_t tpc_mask __attribute__((section(".data"))) = 0;
static uint32_t mmctx_bytes __attribute__((section(".data"))) = 0; /* the lists' words x 4 */

/* Runs list `i` through the MMCTX engine from MMCTX_BASE `base` (MULTI over `mask`'s units when not 0);
 * `start`: the first list of the transfer (resets the engine's position in the area). */
static void mmctx_list(uint32_t i, uint32_t base, uint32_t mask, uint32_t load, uint32_t start) {
  const uint32_t* l = falcon_list(i);
  const uint32_t n = falcon_list_len(i);
  if (!n) return;
  uint32_t flags = GRC_MMCTX_ENTRY_BASE_EN;
  mcu_reg_write(GRC_MMCTX_BASE, base);
  if (mask) {
    mcu_reg_write(GRC_MMCTX_MULTI_STRIDE, PGRAPH_TPC_STRIDE);
    mcu_reg_write(GRC_MMCTX_MULTI_MASK, mask);
    flags |= GRC_MMCTX_ENTRY_MULTI_EN;
  }
  mcu_reg_write(GRC_MMCTX_CTRL,
                GRC_MMCTX_CTRL_QLIMIT | (start ? GRC_MMCTX_CTRL_START : 0u) | (load ? GRC_MMCTX_CTRL_DIR_LOAD : 0u));
  for (uint32_t k = 0; k < n; ++k) {
    while (!(mcu_reg_read(GRC_MMCTX_CTRL) & GRC_MMCTX_CTRL_FREE_MASK)) fw_ctxsw_wait_idle();
    mcu_reg_write(GRC_MMCTX_QUEUE, l[k] | flags);
  }
  fw_ctxsw_wait_idle(); /* MMCTX_BASE and MULTI_* of the next list must not change under this one */
}
#endif

/* Like nouveau's strand_ctx_init (com.fuc): each strand's size (GET_INFO), its save / load area
 * one after the other from MEM_BASE (on the Falcon after the MMCTX lists). */
static void strands_initialize(void) {
  if (strands_known) return;
  strands_known = 1;
  if (!(mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_CTXSW)) return; /* no GR unit in this GPU (gpu.blocks) */
  const uint32_t cnt = mcu_reg_read(GRC_STRANDS_CNT);
  uint32_t off = 0;
#ifdef HETVP_FALCON
  if (!falcon_lists_ok(3u)) falcon_lists_overrun(); /* the PPC list (Kepler boots) too */
  const uint32_t tpcs = falcon_iord(FCTX_IO(FCTX_UNITS, 0)) & FCTX_UNITS_TPC_MASK;
  tpc_mask = (1u << tpcs) - 1u;
  mmctx_bytes = (falcon_list_words_moved(0) + tpcs * falcon_list_words_moved(1)) * 4u;
  off = (mmctx_bytes + GR_CTX_UNIT - 1u) / GR_CTX_UNIT;
  strand_bytes = mmctx_bytes;
#endif
  for (uint32_t s = 0; s < cnt; ++s) {
    mcu_reg_write(GRC_STRAND_SELECT, s);
    mcu_reg_write(GRC_STRAND_CMD, GRC_STRAND_CMD_GET_INFO);
    const uint32_t words = mcu_reg_read(GRC_STRAND_WORDS);
    mcu_reg_write(GRC_STRAND_SAVE_SWBASE, off);
    mcu_reg_write(GRC_STRAND_LOAD_SWBASE, off);
    off += (words * 4u + GR_CTX_UNIT - 1u) / GR_CTX_UNIT;
    strand_bytes += words * 4u;
  }
  strand_units = off;
}

/* The HUB's FW_CMD_GR_GPC_XFER: every strand to (save) or from (load) VRAM (mem_base << 8). */
static uint32_t strands_xfer(uint32_t mem_base, uint32_t load, uint32_t* error) {
  if (!(mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_CTXSW)) {
    *error = FW_ERR_NO_DEVICE;
    return 0;
  }
  mcu_reg_write(GRC_ERROR, 0);
  mcu_reg_write(GRC_MEM_BASE, mem_base);
  mcu_reg_write(GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM);
  if (mcu_reg_read(GRC_STRANDS_CNT)) {
    mcu_reg_write(GRC_STRAND_SELECT, 0);
    mcu_reg_write(GRC_STRAND_CMD, load ? GRC_STRAND_CMD_LOAD : GRC_STRAND_CMD_SAVE);
#ifndef HETVP_FALCON
    fw_ctxsw_wait_idle();
#endif
  }
#ifdef HETVP_FALCON
  /* the MMCTX lists while the strands move (gpc.fuc ctx_xfer); MMCTX area at SWBASE 0 of MEM_BASE */
  const uint32_t id = mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_INDEX_MASK;
  mcu_reg_write(load ? GRC_MMCTX_LOAD_SWBASE : GRC_MMCTX_SAVE_SWBASE, 0);
  mmctx_list(0, GPC_UNICAST(id), 0, load, 1);
  mmctx_list(1, GPC_UNICAST(id) + PGRAPH_GPC_TPC_BASE, tpc_mask, load, falcon_list_len(0) == 0);
  fw_ctxsw_wait_idle(); /* the strands too */
#endif
  const uint32_t err = mcu_reg_read(GRC_ERROR) & 0xffu;
  if (err) {
    *error = FW_ERR_GR;
    return err;
  }
  return strand_bytes;
}

/* Test variants (tests/mcu_boot, issue #43): at boot and at every command, mcycle = (mcycle & MASK) +
 * ADD: its own value (1: MASK all ones, ADD 0), that value + 10^6 (2) or 0 (3: MASK 0, ADD 0). The
 * same eight uncompressed instructions in every variant, so all three run the same cycles; simulated
 * time comes from the cycles the core retires, not from mcycle, so they must boot and copy at the
 * same times. */
#define FW_MCYCLE_SET(MASK, ADD)                                                                      \
  __asm__ volatile(".option push\n\t.option norvc\n\t"                                              \
                   "csrr t0, mcycle\n\tlui t1, %%hi(" #MASK ")\n\taddi t1, t1, %%lo(" #MASK ")\n\t"    \
                   "and t0, t0, t1\n\tlui t1, %%hi(" #ADD ")\n\taddi t1, t1, %%lo(" #ADD ")\n\t"        \
                   "add t0, t0, t1\n\tcsrw mcycle, t0\n\t.option pop" ::                                  \
                       : "t0", "t1")
#if defined(HETVP_FW_MCYCLE_WRITE) && HETVP_FW_MCYCLE_WRITE == 1
#define FW_MCYCLE_POKE() FW_MCYCLE_SET(0xffffffff, 0)
#elif defined(HETVP_FW_MCYCLE_WRITE) && HETVP_FW_MCYCLE_WRITE == 2
#define FW_MCYCLE_POKE() FW_MCYCLE_SET(0xffffffff, 1000000)
#elif defined(HETVP_FW_MCYCLE_WRITE) && HETVP_FW_MCYCLE_WRITE == 3
#define FW_MCYCLE_POKE() FW_MCYCLE_SET(0, 0)
#else
#define FW_MCYCLE_POKE() ((void)0)
#endif

void fw_initialize(void) {
  FW_MCYCLE_POKE();
#ifndef HETVP_FW_NO_INIT
  mcu_reg_write(MCU_STATUS0, MCU_STATUS0_INIT_DONE | (mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_INDEX_MASK));
#endif
}

int fw_dispatch(uint32_t cmd, uint32_t data, uint32_t* result, uint32_t* error) {
  FW_MCYCLE_POKE();
  switch (cmd) {
    case FW_CMD_REG_READ: /* own register block only */
      if (data & 3u || data >= MCU_REG_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      *result = mcu_reg_read(data);
      return 1;
    case FW_CMD_REG_WRITE:
      if (data & 3u || data >= MCU_REG_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      mcu_reg_write(data, mcu_reg_read(FW_ARG0));
      return 1;
    case FW_CMD_INFO:
      *result = mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_INDEX_MASK;
      return 1;
    case FW_CMD_GR_INFO:
      strands_initialize();
      *result = strand_units * GR_CTX_UNIT;
      return 1;
    case FW_CMD_GR_GPC_XFER:
      strands_initialize();
      *result = strands_xfer(data, mcu_reg_read(FW_ARG0), error);
      return 1;
  }
  return 0;
}

int main(void) {
  FW_MCYCLE_POKE();
  return fw_main();
}
