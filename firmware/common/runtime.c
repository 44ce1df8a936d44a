/* hetvp — tiny runtime: mem* (GCC may emit calls to them), exit and the standalone console. */
#include "hetvp_rt.h"

extern void _hetvp_halt(int code) __attribute__((noreturn));

void hetvp_exit(int code) { _hetvp_halt(code); }

void sa_putc(char c) { *(volatile uint32_t*)(uintptr_t)MCU_SA_CONSOLE_ADDR = (uint8_t)c; }
void sa_puts(const char* s) {
  while (*s) sa_putc(*s++);
}
void sa_puthex(uint32_t v) {
  for (int k = 28; k >= 0; k -= 4) sa_putc("0123456789abcdef"[(v >> k) & 15]);
}

void* memcpy(void* dst, const void* src, size_t n) {
  uint8_t* d = dst;
  const uint8_t* s = src;
  if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
    for (; n >= 4; n -= 4, d += 4, s += 4) *(uint32_t*)d = *(const uint32_t*)s;
  }
  while (n--) *d++ = *s++;
  return dst;
}
void* memmove(void* dst, const void* src, size_t n) {
  uint8_t* d = dst;
  const uint8_t* s = src;
  if (d <= s || d >= s + n) return memcpy(dst, src, n);
  while (n--) d[n] = s[n];
  return dst;
}
void* memset(void* dst, int c, size_t n) {
  uint8_t* d = dst;
  while (n--) *d++ = (uint8_t)c;
  return dst;
}
int memcmp(const void* a, const void* b, size_t n) {
  const uint8_t *x = a, *y = b;
  for (; n; --n, ++x, ++y)
    if (*x != *y) return *x - *y;
  return 0;
}
