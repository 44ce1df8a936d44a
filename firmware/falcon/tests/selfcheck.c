/* Standalone C program for the Falcon core (translated by rv2fuc.py): exercises every translation
 * rule — ALU, immediates of every size, compares and branches of every kind, set-on-compare, byte/half
 * loads with and without sign, stores, data/rodata/bss, strings, function pointers, recursion,
 * switch, 32-bit mul/div/mod (arith.fuc, arith.c) and 64-bit arithmetic. main returns 0x600d when
 * its own consistency checks pass, else the number of the first failed one; `out` (found by its magic
 * word) holds the values for the host test (tests/mcu/falcon/test_falcon_c.cpp) to recompute. */
#include <stdint.h>

#define NRES 24
struct out {
  uint32_t magic; /* 'FALC' */
  uint32_t n;
  uint32_t v[NRES];
};
struct out out = {0x464c4143u, NRES, {0}};

static volatile uint32_t in_a = 0x12345678u, in_b = 0x9abcu, in_c = 0xfffffff9u; /* c = -7 */
static volatile int32_t in_neg = -1000;
static const uint8_t bytes[8] = {0x80, 0x7f, 0xff, 0x01, 0x34, 0x12, 0xfe, 0xff};
static uint32_t bss_words[5];
static const char text[] = "Falcon\n";

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static uint32_t add3(uint32_t x) { return x + 3; }
static uint32_t dbl(uint32_t x) { return x * 2; }
static uint32_t (*const ops[2])(uint32_t) = {add3, dbl};

static __attribute__((noinline)) uint32_t classify(int32_t x) {
  switch (x) {
    case -2: return 11;
    case 0: return 22;
    case 3: return 33;
    case 100: return 44;
    case 1000: return 55;
    default: return 66;
  }
}

static uint32_t cmpbits(uint32_t a, uint32_t b) {
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  uint32_t r = 0;
  if (a == b) r |= 1;
  if (a != b) r |= 2;
  if (sa < sb) r |= 4;
  if (sa >= sb) r |= 8;
  if (a < b) r |= 16;
  if (a >= b) r |= 32;
  if (sa > sb) r |= 64;
  if (sa <= sb) r |= 128;
  if (a > b) r |= 256;
  if (a <= b) r |= 512;
  r |= (uint32_t)(sa < sb) << 10;
  r |= (uint32_t)(a < b) << 11;
  r |= (uint32_t)(sa < 5) << 12;
  r |= (uint32_t)(a < 5u) << 13;
  r |= (uint32_t)(a == 0) << 14;
  r |= (uint32_t)(a != 0) << 15;
  r |= (uint32_t)(sa < 0) << 16;
  r |= (uint32_t)(sa > 0) << 17;
  return r;
}

int main(void) {
  uint32_t a = in_a, b = in_b, c = in_c;
  int32_t n = in_neg;
  uint32_t* v = out.v;
  v[0] = a + b;
  v[1] = a - b;
  v[2] = (a & 0xff00ffu) | (b ^ 0x5555u);
  v[3] = (a << 7) ^ (a >> 9) ^ (uint32_t)((int32_t)c >> 2);
  v[4] = a * b;                       /* __mulsi3 */
  v[5] = a / b + (a % b) * 3u;        /* __udivsi3, __umodsi3 */
  v[6] = (uint32_t)(n / 7 + n % 7);   /* __divsi3, __modsi3 */
  v[7] = (uint32_t)((int32_t)c * n);
  uint64_t w = (uint64_t)a * b + ((uint64_t)c << 33);
  v[8] = (uint32_t)w;
  v[9] = (uint32_t)(w >> 32);
  v[10] = (uint32_t)(w / 1000003u);   /* __udivdi3 */
  v[11] = cmpbits(a, b) ^ (cmpbits(c, 5) << 1) ^ (cmpbits(b, b) << 3);
  v[12] = (uint32_t)(int8_t)bytes[a & 1 ? 1 : 0] + (uint32_t)(int8_t)bytes[(b & 3) + 2] * 256u;
  volatile const uint16_t* h = (volatile const uint16_t*)bytes;
  v[13] = h[2] | (uint32_t)(int16_t)h[3] << 16;
  for (uint32_t i = 0; i < 5; ++i) bss_words[i] = i * a;
  volatile uint8_t* bb = (volatile uint8_t*)bss_words;
  bb[1] = 0xab;
  ((volatile uint16_t*)bss_words)[3] = 0xcdef;
  v[14] = bss_words[0] ^ bss_words[1] ^ bss_words[4];
  uint32_t s = 0;
  for (const char* p = text; *p; ++p) s = s * 31u + (uint8_t)*p;
  v[15] = s;
  v[16] = fib(12);
  v[17] = ops[a & 1](b) + ops[(a >> 3) & 1](b);
  v[18] = classify(-2) + classify(0) * 10 + classify(3) * 100 + classify(100) * 1000 + classify(1000) * 10000 +
          classify(n) * 100000;
  v[19] = 0x12345678u + a;            /* 32-bit constant */
  v[20] = a + 0xfff;                  /* 12-bit immediate */
  v[21] = a - 2048;
  v[22] = a & 0xfffffff0u;
  v[23] = (uint32_t)((int64_t)n * (int64_t)(int32_t)c / 3);   /* __muldi3, __divdi3 */
  /* self-consistency: catches a wrong translation even without the host's values */
  if ((a / b) * b + a % b != a) return 1;
  if ((uint32_t)((n / 7) * 7 + n % 7) != (uint32_t)n) return 2;
  if (fib(10) != 55) return 3;
  if (v[16] != 144) return 4;
  if (cmpbits(1, 2) != (2 | 4 | 16 | 128 | 512 | 1024 | 2048 | 4096 | 8192 | 32768 | 131072)) return 5;
  if (w % 1000003u + (w / 1000003u) * 1000003u != w) return 6;
  return 0x600d;
}
