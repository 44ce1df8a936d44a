/* hetvp — runtime helpers for the Falcon build of the firmware that are C: the signed 32-bit and the
 * 64-bit operations GCC (RV32E, no M) calls. They use only 32-bit unsigned operations, which
 * arith.fuc's __mulsi3/__udivsi3/__umodsi3 provide; rv2fuc.py keeps only those something calls. */
#include <stdint.h>

uint32_t __udivsi3(uint32_t a, uint32_t b);
uint32_t __umodsi3(uint32_t a, uint32_t b);

int32_t __divsi3(int32_t a, int32_t b) {
  uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a, ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
  uint32_t q = __udivsi3(ua, ub);
  return (int32_t)(((a < 0) != (b < 0)) ? 0u - q : q);
}
int32_t __modsi3(int32_t a, int32_t b) {
  uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a, ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
  uint32_t r = __umodsi3(ua, ub);
  return (int32_t)(a < 0 ? 0u - r : r);
}

typedef union {
  uint64_t v;
  struct {
    uint32_t lo, hi;
  } w;
} dw;

uint64_t __ashldi3(uint64_t a, int n) {
  dw x = {a}, r;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.lo = 0;
    r.w.hi = x.w.lo << (n - 32);
  } else {
    r.w.lo = x.w.lo << n;
    r.w.hi = (x.w.hi << n) | (x.w.lo >> (32 - n));
  }
  return r.v;
}
uint64_t __lshrdi3(uint64_t a, int n) {
  dw x = {a}, r;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.hi = 0;
    r.w.lo = x.w.hi >> (n - 32);
  } else {
    r.w.hi = x.w.hi >> n;
    r.w.lo = (x.w.lo >> n) | (x.w.hi << (32 - n));
  }
  return r.v;
}
int64_t __ashrdi3(int64_t a, int n) {
  dw x = {(uint64_t)a}, r;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.hi = (uint32_t)((int32_t)x.w.hi >> 31);
    r.w.lo = (uint32_t)((int32_t)x.w.hi >> (n - 32));
  } else {
    r.w.hi = (uint32_t)((int32_t)x.w.hi >> n);
    r.w.lo = (x.w.lo >> n) | (x.w.hi << (32 - n));
  }
  return (int64_t)r.v;
}

/* 32 x 32 -> 64 from 16-bit halves (each partial product fits 32 bits). */
static uint64_t mul32x32(uint32_t a, uint32_t b) {
  uint32_t al = a & 0xffff, ah = a >> 16, bl = b & 0xffff, bh = b >> 16;
  uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint32_t mid = (ll >> 16) + (lh & 0xffff) + (hl & 0xffff);
  dw r;
  r.w.lo = (ll & 0xffff) | (mid << 16);
  r.w.hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
  return r.v;
}
uint64_t __muldi3(uint64_t a, uint64_t b) {
  dw x = {a}, y = {b}, r;
  r.v = mul32x32(x.w.lo, y.w.lo);
  r.w.hi += x.w.lo * y.w.hi + x.w.hi * y.w.lo;
  return r.v;
}

/* Restoring shift-subtract division, one quotient bit per step. */
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t* rem) {
  uint64_t q = 0, r = 0;
  if (d == 0) {
    if (rem) *rem = n;
    return ~(uint64_t)0;
  }
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) {
      r -= d;
      q |= (uint64_t)1 << i;
    }
  }
  if (rem) *rem = r;
  return q;
}
uint64_t __udivdi3(uint64_t a, uint64_t b) { return udivmod64(a, b, 0); }
uint64_t __umoddi3(uint64_t a, uint64_t b) {
  uint64_t r;
  udivmod64(a, b, &r);
  return r;
}
int64_t __divdi3(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
  uint64_t q = udivmod64(ua, ub, 0);
  return (int64_t)(((a < 0) != (b < 0)) ? 0 - q : q);
}
int64_t __moddi3(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b, r;
  udivmod64(ua, ub, &r);
  return (int64_t)(a < 0 ? 0 - r : r);
}
