/* hetvp — GPC firmware: sets its init flag (unless built as the test variant gpc_noinit, which
 * never reports), then serves commands (docs/firmware.md). */
#include "fw.h"

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
  }
  return 0;
}

int main(void) { return fw_main(); }
