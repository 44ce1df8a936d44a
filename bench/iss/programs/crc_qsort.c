/* CPU-bound RV32IM benchmark (bench/iss/vs_qemu.sh): a mix of a bitwise CRC-32 over a buffer and a
 * quicksort of pseudo-random words, ROUNDS times. Self-checking: exits 0 when every sort is ordered
 * and the CRC of the sorted array equals the CRC computed by a table-driven second implementation. */
#include <stdint.h>

#ifndef ROUNDS
#define ROUNDS 400
#endif
#define N 2048

static uint32_t data[N];
static uint32_t table[256];

static uint32_t crc_bitwise(const uint8_t* p, uint32_t n, uint32_t crc) {
  crc = ~crc;
  for (uint32_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

static uint32_t crc_table(const uint8_t* p, uint32_t n, uint32_t crc) {
  crc = ~crc;
  for (uint32_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static void quicksort(uint32_t* a, int lo, int hi) {
  while (lo < hi) {
    const uint32_t pivot = a[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) ++i;
      while (a[j] > pivot) --j;
      if (i <= j) {
        const uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        ++i;
        --j;
      }
    }
    if (j - lo < hi - i) {  /* recurse into the smaller half */
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

int main(void) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    table[i] = c;
  }
  uint32_t x = 12345, acc = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    for (int i = 0; i < N; ++i) {
      x = x * 1664525u + 1013904223u;
      data[i] = x ^ (x >> 13);
    }
    quicksort(data, 0, N - 1);
    for (int i = 1; i < N; ++i)
      if (data[i - 1] > data[i]) return 3;
    const uint32_t a = crc_bitwise((const uint8_t*)data, sizeof data / 4, acc);
    if (a != crc_table((const uint8_t*)data, sizeof data / 4, acc)) return 4;
    acc = a;
  }
  return 0;
}
