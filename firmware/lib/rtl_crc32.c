/* hetvp — the HUB drives the example RTL block rtl.crc32 (rtl/examples/crc32, docs/rtl_blocks.md,
 * "Driving a block from the HUB firmware") through BAR0: FW_CMD_RTL_CRC32.
 *
 * Where the block is comes from the configuration, not from this code: gpu.bar0_ports places it
 * in BAR0 and PTOP EXT_COUNT/EXT_BASE/EXT_SIZE report the windows; the block is the first window
 * whose ID register reads 'CRC2'. A GPU without one answers FW_ERR_NO_DEVICE at once (no access
 * outside a mapped window: that would fault the core).
 *
 * Completion is polled: the block's interrupt is a platform line, and the HUB's interrupt
 * controller has no external inputs, so it cannot take it. The HUB sleeps on its timer between
 * two reads of STATUS — a short first nap (the block may already be done), then ~1 us. */
#include "fw.h"
#include "rtl_crc32_fw.h"

#include "hetvp/crc32.h"
#include "hetvp/gpu_map.h"
#include "hetvp/pmc.h"

#define CRC_POLL_LIMIT 1000000u /* ~1 s of 1-us naps: a block that never finishes is a timeout */

/* BAR0 offset of the first crc32 block, or 0 (PMC owns offset 0: never a block). */
static uint32_t find_block(void) {
  const uint32_t n = bar0_read(GPU_PTOP_BASE + PTOP_EXT_COUNT);
  for (uint32_t i = 0; i < n && i < PTOP_EXT_MAX; ++i) {
    const uint32_t base = bar0_read(GPU_PTOP_BASE + PTOP_EXT_BASE_N(i));
    const uint32_t size = bar0_read(GPU_PTOP_BASE + PTOP_EXT_SIZE_N(i));
    if (size >= CRC_WINDOW && bar0_read(base + CRC_ID) == CRC_ID_VALUE) return base;
  }
  return 0;
}

uint32_t fw_rtl_crc32(uint64_t src, uint64_t dst, uint32_t bytes, uint32_t* error) {
  static uint32_t blk, poll_cycles;
  if (!blk) blk = find_block();
  if (!blk) {
    *error = FW_ERR_NO_DEVICE;
    return 0;
  }
  if (!poll_cycles) poll_cycles = cycles_per_us();
  bar0_write(blk + CRC_SRC_LO, (uint32_t)src);
  bar0_write(blk + CRC_SRC_HI, (uint32_t)(src >> 32));
  bar0_write(blk + CRC_LENGTH, bytes);
  bar0_write(blk + CRC_DST_LO, (uint32_t)dst);
  bar0_write(blk + CRC_DST_HI, (uint32_t)(dst >> 32));
  bar0_write(blk + CRC_CTRL, CRC_CTRL_GO);
  uint32_t st = bar0_read(blk + CRC_STATUS);
  for (uint32_t i = 0; !(st & CRC_STATUS_DONE); ++i) {
    if (i == CRC_POLL_LIMIT) {
      *error = FW_ERR_TIMEOUT;
      return st;
    }
    fw_sleep_cycles(i ? poll_cycles : poll_cycles / 8u + 1u);
    st = bar0_read(blk + CRC_STATUS);
  }
  const uint32_t crc = bar0_read(blk + CRC_RESULT);
  bar0_write(blk + CRC_CTRL, CRC_CTRL_ACK);
  if (st & CRC_STATUS_ERROR) {
    *error = FW_ERR_DEVICE;
    return st;
  }
  return crc;
}
