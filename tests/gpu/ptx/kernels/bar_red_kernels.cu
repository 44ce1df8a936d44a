// __syncthreads_count / _and / _or: PTX bar.red.popc / .and / .or (sm_20 on), clang's NVPTX
// builtins. A barrier that also reduces a predicate over every thread of the block.
#include "ptx_test.h"

// Every thread gets the block's count of positive values, whether all are positive, whether any
// exceeds 5, then a second count that depends on the first (the barrier is used again).
extern "C" __global__ void bar_reductions(int* out, const int* in) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  const int c = __nvvm_bar0_popc(v > 0);
  const int a = __nvvm_bar0_and(v > 0);
  const int o = __nvvm_bar0_or(v > 5);
  const int c2 = __nvvm_bar0_popc(v > c - 40);
  out[t] = c * 1000000 + c2 * 1000 + a * 10 + o;
}
