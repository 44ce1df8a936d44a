/* CPU-bound RV32IM benchmark (bench/iss/vs_qemu.sh): a bitwise CRC-32 loop over a 4 KiB buffer,
 * ROUNDS times. Self-checking: exits 0 when the final CRC equals the one a table-driven second
 * implementation computes over the same bytes. */
#include <stdint.h>

#ifndef ROUNDS
#define ROUNDS 1000
#endif
#define N 4096

static uint8_t buf[N];
static uint32_t table[256];

int main(void) {
  uint32_t x = 1;
  for (int i = 0; i < N; ++i) {
    x = x * 69069u + 1;
    buf[i] = (uint8_t)(x >> 24);
  }
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    table[i] = c;
  }
  uint32_t crc = 0, ref = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    uint32_t c = ~crc;
    for (int i = 0; i < N; ++i) {
      c ^= buf[i];
      for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    }
    crc = ~c;
    uint32_t t = ~ref;
    if (r == ROUNDS - 1 || r == 0) {
      for (int i = 0; i < N; ++i) t = table[(t ^ buf[i]) & 0xff] ^ (t >> 8);
      ref = ~t;
      if (ref != crc) return 3;
    } else {
      ref = crc;
    }
  }
  return 0;
}
