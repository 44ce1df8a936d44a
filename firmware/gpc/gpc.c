/* hetvp — GPC firmware: sets its init flag (unless built as the test variant gpc_noinit, which
 * never reports), then serves commands (docs/firmware.md). */
#include "fw.h"

/* This GPC's strands in the context buffer, 256-byte units. In .data, not .bss: gpc.elf's buffers keep
 * their data-memory offsets (tests/mcu_model uses the copy buffer at 0x400). */
static uint32_t strand_units __attribute__((section(".data"))) = 0;
static uint32_t strand_bytes __attribute__((section(".data"))) = 0;  /* the words they hold, x 4 */
static uint32_t strands_known __attribute__((section(".data"))) = 0; /* laid out (at the first GR command) */

/* Like nouveau's strand_ctx_init (com.fuc): each strand's size (GET_INFO), its save / load area
 * one after the other from MEM_BASE. */
static void strands_initialize(void) {
  if (strands_known) return;
  strands_known = 1;
  if (!(mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_CTXSW)) return; /* no GR unit in this GPU (gpu.blocks) */
  const uint32_t cnt = mcu_reg_read(GRC_STRANDS_CNT);
  uint32_t off = 0;
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
    fw_ctxsw_wait_idle();
  }
  const uint32_t err = mcu_reg_read(GRC_ERROR) & 0xffu;
  if (err) {
    *error = FW_ERR_GR;
    return err;
  }
  return strand_bytes;
}

void fw_initialize(void) {
#ifndef HETVP_FW_NO_INIT
  mcu_reg_write(MCU_STATUS0, MCU_STATUS0_INIT_DONE | (mcu_reg_read(MCU_UC_ID) & MCU_UC_ID_INDEX_MASK));
#endif
}

int fw_dispatch(uint32_t cmd, uint32_t data, uint32_t* result, uint32_t* error) {
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

int main(void) { return fw_main(); }
