/* RV32IM(C) self-check for the ISS: sieve, CRC-32, mul/div (incl. 64-bit via libgcc), sorting,
 * interrupts-off trap round trip via ecall. Exits 0 only when every check passes; otherwise the
 * exit code names the first failing check. */
#include "hetvp_rt.h"

static uint8_t composite[20000];
static uint32_t data_words[64];
static volatile uint32_t trap_seen;
static uint32_t initialised = 0x12345678; /* .data must arrive pre-loaded */

static int sieve(int n) {
  int count = 0;
  for (int i = 2; i < n; ++i) {
    if (composite[i]) continue;
    ++count;
    for (int j = i * i; j < n; j += i) composite[j] = 1;
  }
  return count;
}

static uint32_t crc32(const uint8_t* p, size_t n) {
  uint32_t c = 0xffffffffu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
  }
  return ~c;
}

static void sort(uint32_t* a, int n) {
  for (int i = 1; i < n; ++i) {
    uint32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

/* division checked against shift-subtract long division */
static uint32_t slow_div(uint32_t a, uint32_t b, uint32_t* rem) {
  uint32_t q = 0, r = 0;
  for (int k = 31; k >= 0; --k) {
    r = (r << 1) | ((a >> k) & 1);
    if (r >= b) {
      r -= b;
      q |= 1u << k;
    }
  }
  *rem = r;
  return q;
}

__attribute__((aligned(4))) static void trap_handler(void) __attribute__((interrupt("machine")));
static void trap_handler(void) {
  uint32_t cause = CSR_READ(mcause);
  trap_seen = cause;
  CSR_WRITE(mepc, CSR_READ(mepc) + 4); /* skip the ecall */
}

int main(void) {
  if (initialised != 0x12345678u) return 1;
  if (sieve(20000) != 2262) return 2;
  static const char msg[] = "123456789";
  if (crc32((const uint8_t*)msg, 9) != 0xcbf43926u) return 3;

  uint32_t seed = 1;
  for (int i = 0; i < 64; ++i) {
    seed = seed * 1664525u + 1013904223u;
    data_words[i] = seed;
  }
  sort(data_words, 64);
  for (int i = 1; i < 64; ++i)
    if (data_words[i - 1] > data_words[i]) return 4;

  seed = 7;
  for (int i = 0; i < 500; ++i) {
    seed = seed * 1103515245u + 12345u;
    uint32_t a = seed, b = (seed >> 7) | 1, r;
    if (i % 5 == 0) b = (b & 0xff) + 1;
    uint32_t q = slow_div(a, b, &r);
    if (a / b != q || a % b != r) return 5;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    if (sa / sb * sb + sa % sb != sa) return 6;
    uint64_t p = (uint64_t)a * b;
    if ((uint32_t)p != a * b) return 7;
    if (p / b != a) return 8; /* __udivdi3 from libgcc */
  }
  volatile int32_t zero = 0, m1 = -1, minv = (int32_t)0x80000000;
  if ((uint32_t)(7 / zero) != 0xffffffffu || 7 % zero != 7) return 9;
  if (minv / m1 != minv || minv % m1 != 0) return 10;

  CSR_WRITE(mtvec, (uint32_t)(uintptr_t)trap_handler);
  __asm__ volatile("ecall");
  if (trap_seen != 11) return 11;
  if (CSR_READ(minstret) == 0 || CSR_READ(mcycle) < CSR_READ(minstret)) return 12;

  sa_puts("selfcheck ok\n");
  return 0;
}
