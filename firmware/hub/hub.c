/* hetvp — HUB firmware: reads the topology (PTOP NUM_GPCS and where the GPC windows are, through
 * the BAR0 window), waits for every GPC's init flag (status scratch bit 31 of its block, through the BAR0 window; sleeping on the
 * timer between looks), sets its own, then serves commands (docs/firmware.md). */
#include "fw.h"
#include "coherence_fw.h"
#ifdef HUB_RTL_CRC32 /* hub_rtl.elf (firmware/hub/CMakeLists.txt) */
#include "rtl_crc32_fw.h"
#endif

#include "hetvp/gpu_map.h"
#include "hetvp/pmc.h"

static uint32_t num_gpcs, gpc_base, gpc_stride;

void fw_initialize(void) {
  num_gpcs = bar0_read(GPU_PTOP_BASE + PTOP_NUM_GPCS);
  gpc_base = bar0_read(GPU_PTOP_BASE + PTOP_GPC_BASE);
  gpc_stride = bar0_read(GPU_PTOP_BASE + PTOP_GPC_STRIDE);
  uint32_t nap = cycles_per_us(); /* ~1 us, doubling while under 65,536 cycles: a late GPC costs few wakeups */
  for (uint32_t i = 0; i < num_gpcs; ++i)
    while (!(bar0_read(gpc_base + i * gpc_stride + MCU_STATUS0) & MCU_STATUS0_INIT_DONE)) {
      fw_sleep_cycles(nap);
      if (nap < 65536u) nap *= 2;
    }
  mcu_reg_write(MCU_STATUS0, MCU_STATUS0_INIT_DONE | num_gpcs);
}

int fw_dispatch(uint32_t cmd, uint32_t data, uint32_t* result, uint32_t* error) {
  switch (cmd) {
    case FW_CMD_REG_READ:
      if (data & 3u || data >= MCU_BAR0_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      *result = bar0_read(data);
      return 1;
    case FW_CMD_REG_WRITE:
      if (data & 3u || data >= MCU_BAR0_SIZE) {
        *error = FW_ERR_BAD_ARG;
        return 1;
      }
      bar0_write(data, mcu_reg_read(FW_ARG0));
      return 1;
    case FW_CMD_INFO:
      *result = num_gpcs;
      return 1;
    case FW_CMD_COH_ACQUIRE:
      *result = fw_coh_acquire(FW_VA_HI(mcu_reg_read(FW_ARG0)) | data, error);
      return 1;
    case FW_CMD_COH_RELEASE:
      *result = fw_coh_release(FW_VA_HI(mcu_reg_read(FW_ARG0)) | data, error);
      return 1;
#ifdef HUB_RTL_CRC32
    case FW_CMD_RTL_CRC32: {
      const uint32_t hi = mcu_reg_read(FW_ARG2);
      *result = fw_rtl_crc32(FW_COPY_SRC_HI(hi) | mcu_reg_read(FW_ARG0), FW_COPY_DST_HI(hi) | mcu_reg_read(FW_ARG1),
                             data, error);
      return 1;
    }
#endif
  }
  return 0;
}

int main(void) { return fw_main(); }
