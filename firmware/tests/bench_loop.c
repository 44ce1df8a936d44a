/* CPU-bound RV32IM benchmark kernel for the ISS speed benchmark (bench/iss): integer loops only,
 * no I/O. Runs `rounds` rounds (effectively forever); the benchmark stops it by instruction budget. */
#include "hetvp_rt.h"

#define N 64
static uint32_t a[N * N / 16], b[N * N / 16], c[N * N / 16];
static uint8_t flags[4096];

static uint32_t kernel_matmul(void) {
  uint32_t s = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      uint32_t acc = 0;
      for (int k = 0; k < 16; ++k) acc += a[i * 16 + k] * b[k * 16 + j];
      c[i * 16 + j] = acc;
      s ^= acc;
    }
  return s;
}

static uint32_t kernel_sieve(void) {
  for (int i = 0; i < 4096; ++i) flags[i] = 0;
  uint32_t n = 0;
  for (int i = 2; i < 4096; ++i) {
    if (flags[i]) continue;
    ++n;
    for (int j = i + i; j < 4096; j += i) flags[j] = 1;
  }
  return n;
}

static uint32_t kernel_crc(uint32_t seed) {
  uint32_t crc = ~seed;
  const uint8_t* p = (const uint8_t*)a;
  for (unsigned i = 0; i < sizeof a; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

static uint32_t kernel_divmix(uint32_t x) {
  uint32_t s = 0;
  for (uint32_t i = 1; i < 200; ++i) {
    x = x * 1664525u + 1013904223u;
    s += x / i + x % (i + 3);
    s ^= (uint32_t)(((uint64_t)x * i) >> 32);
  }
  return s;
}

volatile uint32_t sink;

int main(void) {
  uint32_t x = 1;
  for (int i = 0; i < N * N / 16; ++i) {
    x = x * 69069u + 1;
    a[i] = x;
    b[i] = x >> 3;
  }
  uint32_t acc = 0;
  for (uint32_t round = 0; round < 0x7fffffffu; ++round) {
    acc += kernel_matmul();
    acc += kernel_sieve();
    acc ^= kernel_crc(acc);
    acc += kernel_divmix(acc);
    sink = acc;
  }
  return 0;
}
