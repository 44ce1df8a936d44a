/* hetvp — HUB firmware: FW_CMD_RTL_CRC32 (rtl_crc32.c). */
#ifndef HETVP_RTL_CRC32_FW_H
#define HETVP_RTL_CRC32_FW_H

#include <stdint.h>

/* CRC-32 of `bytes` at GPU VA src by the rtl.crc32 block (which also writes it to GPU VA dst).
 * Returns the CRC; on an error sets *error (FW_ERR_NO_DEVICE, FW_ERR_DEVICE, FW_ERR_TIMEOUT) and
 * returns 0 or the block's STATUS. */
uint32_t fw_rtl_crc32(uint64_t src, uint64_t dst, uint32_t bytes, uint32_t* error);

#endif
