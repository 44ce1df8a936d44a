// The CUDA spelling the PTX executor's test kernels use, in two builds of the same source:
// clang's CUDA device compilation (to PTX, for the executor) and a plain C++ host build (the
// differential reference, run thread by thread). Not hetvp's public device header (that is the
// runtime's); just enough for the tests.
#pragma once

#ifdef __CUDA__
#include <__clang_cuda_builtin_vars.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
static __device__ inline int atomic_add(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ inline unsigned atomic_max(unsigned* p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }
static __device__ inline int atomic_min(int* p, int v) { return __nvvm_atom_min_gen_i(p, v); }
static __device__ inline unsigned atomic_or(unsigned* p, unsigned v) { return __nvvm_atom_or_gen_i((int*)p, (int)v); }
static __device__ inline float atomic_addf(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ inline unsigned atomic_inc(unsigned* p, unsigned lim) { return __nvvm_atom_inc_gen_ui(p, lim); }
static __device__ inline int atomic_cas(int* p, int cmp, int v) { return __nvvm_atom_cas_gen_i(p, cmp, v); }
static __device__ inline int atomic_exch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
#if __CUDA_ARCH__ >= 300
static __device__ inline int shfl_down(int v, int d) { return __nvvm_shfl_down_i32(v, d, 0x1f); }
static __device__ inline int shfl_xor(int v, int m) { return __nvvm_shfl_bfly_i32(v, m, 0x1f); }
static __device__ inline int shfl_idx(int v, int l) { return __nvvm_shfl_idx_i32(v, l, 0x1f); }
static __device__ inline int shfl_up(int v, int d) { return __nvvm_shfl_up_i32(v, d, 0); }
#endif
static __device__ inline unsigned ballot(bool p) {
  unsigned r;
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.ballot.b32 %0, q; }" : "=r"(r) : "r"((unsigned)p));
  return r;
}
static __device__ inline bool vote_all(bool p) {
  unsigned r;
  asm volatile("{ .reg .pred q, o; setp.ne.u32 q, %1, 0; vote.all.pred o, q; selp.u32 %0, 1, 0, o; }" : "=r"(r) : "r"((unsigned)p));
  return r;
}
#else  // the host reference: one thread at a time, these say which
struct HostDim3 {
  unsigned x, y, z;
};
extern HostDim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __noinline__ __attribute__((noinline))
static inline int atomic_add(int* p, int v) { int o = *p; *p = o + v; return o; }
static inline unsigned atomic_max(unsigned* p, unsigned v) { unsigned o = *p; *p = o > v ? o : v; return o; }
static inline int atomic_min(int* p, int v) { int o = *p; *p = o < v ? o : v; return o; }
static inline unsigned atomic_or(unsigned* p, unsigned v) { unsigned o = *p; *p = o | v; return o; }
#endif
