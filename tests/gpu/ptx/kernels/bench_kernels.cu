// bench/ptx's kernels (and test_ptx_exec.cpp's mmul check): Gdev's mmul and a memory-bound vector add.
#include "ptx_test.h"

extern "C" __global__ void mmul(unsigned* c, const unsigned* a, const unsigned* b, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    unsigned s = 0;
    for (int i = 0; i < n; ++i) s += a[row * n + i] * b[i * n + col];
    c[row * n + col] = s;
  }
}

extern "C" __global__ void vadd(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
