// Kernels without barriers or shuffles: compiled to PTX (run by the executor) and for the host (run
// thread by thread as the reference); test_ptx_diff.cpp compares the two on random inputs.
#include "ptx_test.h"

extern "C" __global__ void saxpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void int_ops(int* out, const int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  int* o = out + i * 16;
  o[0] = x + y * 3 - (x >> 3);
  o[1] = y != 0 ? x / y : -7;
  o[2] = y != 0 ? x % y : 11;
  o[3] = uy != 0 ? (int)(ux / uy) : 5;
  o[4] = uy != 0 ? (int)(ux % uy) : 9;
  o[5] = (int)(((long long)x * y) >> 32);
  o[6] = (int)(((unsigned long long)ux * uy) >> 32);
  o[7] = __builtin_popcount(ux) + (ux ? __builtin_clz(ux) : 32);
  o[8] = x < y ? x : y;
  o[9] = (int)(ux > uy ? ux : uy);
  o[10] = (int)((ux << (uy & 31)) ^ (ux >> (uy & 15)) ^ (unsigned)(x >> (uy & 31)));
  o[11] = (int)((ux >> 5) & 0x3ff) | (int)((uy & 0xff) << 12);
  o[12] = x * 7 / 3 + (short)y / 5 + (signed char)x % 3;
  o[13] = (x > 0) + (y < 0) * 2 + (ux >= uy) * 4 + (x == y) * 8;
  long long w = (long long)x * (long long)y + (long long)ux;
  o[14] = (int)(w / 1000003) ^ (int)(w % 1000003);
  o[15] = x < 0 ? -x : x;
}

extern "C" __global__ void conversions(float* f_out, int* i_out, double* d_out, const float* f, const double* d,
                                       const int* k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  double y = d[i];
  int z = k[i];
  f_out[i * 4 + 0] = (float)z * 0.5f;
  f_out[i * 4 + 1] = (float)(unsigned)z;
  f_out[i * 4 + 2] = (float)y;
  f_out[i * 4 + 3] = (float)(long long)z + (float)(unsigned short)z;
  int xi = (x > -2e9f && x < 2e9f) ? (int)x : 0;
  i_out[i * 4 + 0] = xi;
  i_out[i * 4 + 1] = (x >= 0.f && x < 4e9f) ? (int)(unsigned)x : 1;
  i_out[i * 4 + 2] = (int)(short)z + (int)(unsigned char)z;
  i_out[i * 4 + 3] = (y > -9e18 && y < 9e18) ? (int)((long long)y % 100000) : 2;
  d_out[i * 3 + 0] = (double)x * y;
  d_out[i * 3 + 1] = y / (double)(z | 1);
  d_out[i * 3 + 2] = (double)z + (double)(unsigned)z;
}

extern "C" __global__ void float_math(float* out, double* dout, const float* a, const float* b, const double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + i * 8;
  o[0] = x * y + x;
  o[1] = x / y;
  o[2] = __builtin_sqrtf(x < 0 ? -x : x);
  o[3] = x < y ? y - x : x - y;
  o[4] = __builtin_fminf(x, y) + __builtin_fmaxf(x, y) * 2.f;
  o[5] = __builtin_fabsf(x) - y;
  o[6] = x > 0.5f && y <= 0.25f ? 1.f : (x != x ? 2.f : 3.f);
  o[7] = (x - y) * (x + y);
  double u = c[i];
  dout[i * 3 + 0] = u * u - u / 3.0;
  dout[i * 3 + 1] = __builtin_sqrt(u < 0 ? -u : u);
  dout[i * 3 + 2] = u < 1.0 ? u + 1.0 : u * 0.5;
}

// Divergent control flow: a data-dependent loop, nested branches, a switch.
extern "C" __global__ void branchy(int* out, const int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = (unsigned)a[i] % 1000 + 1;
  int steps = 0;
  while (v != 1 && steps < 500) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
    if (steps % 7 == 0 && (v & 3) == 2) continue;
  }
  int r;
  switch (a[i] & 7) {
    case 0: r = steps; break;
    case 1: r = steps * 2; break;
    case 2: r = -steps; break;
    case 5: r = steps ^ 0x55; break;
    default: r = steps + (a[i] & 7);
  }
  if (r > 50) {
    if (r & 1) r += 3;
    else r -= 1;
  }
  out[i] = r;
}

// A device function (not inlined) and a per-thread array indexed at run time (local memory).
__device__ __noinline__ int mix(int a, int b) {
  int t[8];
  for (int j = 0; j < 8; ++j) t[j] = a * (j + 1) + b;
  return t[(unsigned)b % 8] - t[(unsigned)a % 8];
}
__device__ __noinline__ float scale(float x, int k) { return k > 0 ? x * (float)k : x - 1.f; }

extern "C" __global__ void calls(int* out, float* fout, const int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  out[i] = mix(x, i) + ((x & 1) ? mix(i, x) : 0);
  fout[i] = scale((float)x, x % 5);
}

// Global atomics whose final values do not depend on the order.
extern "C" __global__ void atomics(int* sum, unsigned* mx, int* mn, unsigned* bits, const int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomic_add(sum, a[i]);
  atomic_max(mx, (unsigned)a[i]);
  atomic_min(mn, a[i]);
  atomic_or(bits, 1u << (a[i] & 31));
}
