/* hetvp — CPU-bound benchmark firmware (bench/mcu): `iterations` rounds of a CRC-32 over a small
 * buffer, then exits with the low byte of the CRC. The iteration count comes from mailbox 2
 * (0 = 1,000,000). Fits the GPC (and HUB) memories. */
#include "hetvp/mcu_regs.h"
#include "hetvp_rt.h"

static uint8_t buf[256];

int main(void) {
  uint32_t n = mcu_reg_read(MCU_MAILBOX_N(2));
  if (!n) n = 1000000u;
  for (uint32_t i = 0; i < sizeof buf; ++i) buf[i] = (uint8_t)(i * 7u + 3u);
  uint32_t crc = 0xffffffffu;
  for (uint32_t it = 0; it < n; ++it) {
    uint8_t b = buf[it & 255u];
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  mcu_reg_write(MCU_MAILBOX_N(0), ~crc);
  return (int)(~crc & 0xffu);
}
