// Per-thread arrays the compiler keeps in local memory (volatile, or indexed at run time), read and
// written with 2-, 4-, 8- and 16-byte accesses (st.local.u16/u32/u64/v4.u32): the executor's
// word-interleaved local layout (docs/ptx.md, "Memory").
#include "ptx_test.h"

struct alignas(16) I4 {
  int x, y, z, w;
};

// Thread t (of the grid) writes its arrays, then reads back the elements idx[t] selects.
extern "C" __global__ void local_layout(int* out, long long* out64, int* out128, int* out16, const int* idx) {
  volatile int a[8];
  volatile long long b[4];
  volatile short s[4];
  I4 c[4];
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i) a[i] = int(t * 100 + i);
  for (int i = 0; i < 4; ++i) b[i] = (long long)t << 33 | i;
  for (int i = 0; i < 4; ++i) s[i] = short(t * 4 + i);
  for (int i = 0; i < 4; ++i) c[i] = I4{int(t), i, -int(t), 7 * i};
  const int k = idx[t];
  out[t] = a[k & 7];
  out64[t] = b[k & 3];
  out16[t] = s[(k >> 1) & 3];
  const I4 v = c[(k >> 2) & 3];
  out128[4 * t] = v.x;
  out128[4 * t + 1] = v.y;
  out128[4 * t + 2] = v.z;
  out128[4 * t + 3] = v.w;
}
