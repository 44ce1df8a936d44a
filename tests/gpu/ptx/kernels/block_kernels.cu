// Kernels with barriers, shared memory, warp shuffles, votes and shared atomics: checked against
// hand-written host references (test_ptx_exec.cpp).
#include "ptx_test.h"

// Block sum by a shared-memory tree; one result per block.
extern "C" __global__ void reduce_sum(int* out, const int* a) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = a[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Tiled transpose of an n x n matrix through a (32 x PAD) shared tile (2D blocks of 32 x 8).
#define TRANSPOSE(NAME, PAD)                                                       \
  extern "C" __global__ void NAME(float* out, const float* in, int n) {           \
    __shared__ float tile[32][PAD];                                                \
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;     \
    for (int j = 0; j < 32; j += 8)                                                \
      if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x]; \
    __syncthreads();                                                               \
    x = blockIdx.y * 32 + threadIdx.x;                                             \
    y = blockIdx.x * 32 + threadIdx.y;                                             \
    for (int j = 0; j < 32; j += 8)                                                \
      if (x < n && y + j < n) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; \
  }
TRANSPOSE(transpose_conflicts, 32)
TRANSPOSE(transpose_padded, 33)

// Warp sum by shuffles, a ballot of the odd values, and an idx/up/xor shuffle mix.
extern "C" __global__ void warp_ops(int* sums, unsigned* ballots, int* mixed, const int* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  int v = a[i];
  int s = v;
  for (int d = 16; d > 0; d /= 2) s += shfl_down(s, d);
  unsigned b = ballot(v & 1);
  if (lane == 0) {
    sums[i / 32] = s;
    ballots[i / 32] = b;
  }
  mixed[i] = shfl_idx(v, (lane * 7) % 32) + shfl_up(v, 3) * 3 + shfl_xor(v, 5) * 5 + (int)vote_all(v >= 0) * 1000;
}

// Histogram of bytes: shared atomics per block, then global atomics; a divergent branch between.
extern "C" __global__ void histogram(unsigned* hist, const unsigned char* data, int n) {
  __shared__ unsigned h[64];
  unsigned t = threadIdx.x;
  if (t < 64) h[t] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
    unsigned v = data[i];
    if (v & 1) atomic_inc(&h[(v >> 2) & 63], 0xffffffffu);
    else atomic_add((int*)&h[(v >> 2) & 63], 1);
  }
  __syncthreads();
  if (t < 64) atomic_add((int*)&hist[t], (int)h[t]);
}

// Dynamic shared memory: reverse each block's elements.
extern "C" __global__ void reverse_dyn(int* out, const int* a) {
  extern __shared__ int buf[];
  unsigned t = threadIdx.x, n = blockDim.x;
  buf[t] = a[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = buf[n - 1 - t];
}

// Shared exchange/cas: a ticket per thread, in some order.
extern "C" __global__ void tickets(int* out) {
  __shared__ int next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  int mine;
  for (;;) {
    int cur = next;
    if (atomic_cas(&next, cur, cur + 1) == cur) {
      mine = cur;
      break;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = mine;
}

// Kernels that misbehave (test_ptx_exec.cpp checks each error's message).
extern "C" __global__ void bad_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = 1;
}
extern "C" __global__ void bad_early_exit(int* out, int n) {
  if ((int)threadIdx.x >= n) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}
extern "C" __global__ void bad_shared_index(int* out, int k) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + k];
}
extern "C" __global__ void bad_shared_align(int* out, int k) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = *(int*)((char*)s + k);
}
