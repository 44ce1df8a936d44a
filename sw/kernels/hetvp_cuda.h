// hetvp's CUDA device header: CUDA's spelling of device code on top of clang's NVPTX builtins, so
// that a .cu file compiles to PTX with Debian's clang and no NVIDIA toolkit:
//
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_30 -nocudainc -nocudalib -include hetvp_cuda.h ...
//
// hetvp_add_gpu_kernels (cmake/HetvpGpuKernels.cmake, docs/gpu_kernels.md) passes it with -include,
// as nvcc includes its runtime header: a kernel file needs no #include. What it gives:
//   qualifiers   __global__ __device__ __host__ __shared__ __constant__ __forceinline__ __noinline__
//   built-ins    threadIdx blockIdx blockDim gridDim (.x .y .z) warpSize, dim3/uint3
//   barriers     __syncthreads __syncthreads_count/_and/_or __threadfence(_block) clock clock64 __trap
//   atomics      atomicAdd Sub Exch Min Max Inc Dec And Or Xor CAS (int, unsigned; Add/Exch also
//                float and unsigned long long; CAS also unsigned long long)
//   uncached     __ldcv __stwt (int, unsigned: system scope, past every cache)
//   warp         __shfl __shfl_up __shfl_down __shfl_xor (int, unsigned, float; sm_30 on)
//                __all __any __ballot
//   math         min max abs, fminf fmaxf fabsf sqrtf rsqrtf __fsqrt_rn __fdividef __expf __logf
//                __sinf __cosf __fmaf_rn fmaf, __popc __clz __brev __ffs __mul24 __umul24 __mulhi
//                __umulhi
// Not given: printf (hetvp's loader refuses a module calling vprintf), textures and surfaces.
// Written for hetvp; not derived from clang's or NVIDIA's wrapper headers.
#pragma once

#if !defined(__CUDA__) || !defined(__CUDA_ARCH__)
#error "hetvp_cuda.h is device code: compile with clang -x cuda --cuda-device-only (hetvp_add_gpu_kernels)"
#endif

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __hetvp_dev static __device__ __forceinline__

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

// ---- built-in variables: each field reads its special register (%tid.x ...) when used --------
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  __device__ __host__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __device__ __host__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

#define __HETVP_SREG_VAR(TYPE, SREG)                                                                       \
  struct TYPE {                                                                                            \
    __declspec(property(get = __get_x)) unsigned int x;                                                    \
    __declspec(property(get = __get_y)) unsigned int y;                                                    \
    __declspec(property(get = __get_z)) unsigned int z;                                                    \
    __hetvp_dev unsigned int __get_x() { return __nvvm_read_ptx_sreg_##SREG##_x(); }                      \
    __hetvp_dev unsigned int __get_y() { return __nvvm_read_ptx_sreg_##SREG##_y(); }                      \
    __hetvp_dev unsigned int __get_z() { return __nvvm_read_ptx_sreg_##SREG##_z(); }                      \
    __device__ operator uint3() const { return uint3{__get_x(), __get_y(), __get_z()}; }                   \
    __device__ operator dim3() const { return dim3(__get_x(), __get_y(), __get_z()); }                     \
  };
__HETVP_SREG_VAR(__hetvp_threadIdx_t, tid)
__HETVP_SREG_VAR(__hetvp_blockIdx_t, ctaid)
__HETVP_SREG_VAR(__hetvp_blockDim_t, ntid)
__HETVP_SREG_VAR(__hetvp_gridDim_t, nctaid)
#undef __HETVP_SREG_VAR
extern const __device__ __hetvp_threadIdx_t threadIdx;
extern const __device__ __hetvp_blockIdx_t blockIdx;
extern const __device__ __hetvp_blockDim_t blockDim;
extern const __device__ __hetvp_gridDim_t gridDim;
#define warpSize 32

// ---- barriers, fences, clocks ---------------------------------------------------------------
// __syncthreads() is clang's NVPTX builtin (bar.sync 0).
__hetvp_dev int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__hetvp_dev int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__hetvp_dev int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__hetvp_dev void __threadfence() { __nvvm_membar_gl(); }
__hetvp_dev void __threadfence_block() { __nvvm_membar_cta(); }
__hetvp_dev int clock() { return __nvvm_read_ptx_sreg_clock(); }
__hetvp_dev long long clock64() { return __nvvm_read_ptx_sreg_clock64(); }
__hetvp_dev void __trap() { asm volatile("trap;"); }  // ends the kernel with an error (hetvp: a kernel error)

// ---- atomics (relaxed, device scope: PTX atom.*) --------------------------------------------
#define __HETVP_RMW(NAME, BUILTIN, T) \
  __hetvp_dev T NAME(T* p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
__HETVP_RMW(atomicAdd, __atomic_fetch_add, int)
__HETVP_RMW(atomicAdd, __atomic_fetch_add, unsigned int)
__HETVP_RMW(atomicAdd, __atomic_fetch_add, unsigned long long)
__HETVP_RMW(atomicAdd, __atomic_fetch_add, float)
__HETVP_RMW(atomicSub, __atomic_fetch_sub, int)
__HETVP_RMW(atomicSub, __atomic_fetch_sub, unsigned int)
__HETVP_RMW(atomicExch, __atomic_exchange_n, int)
__HETVP_RMW(atomicExch, __atomic_exchange_n, unsigned int)
__HETVP_RMW(atomicExch, __atomic_exchange_n, unsigned long long)
__HETVP_RMW(atomicMin, __atomic_fetch_min, int)
__HETVP_RMW(atomicMin, __atomic_fetch_min, unsigned int)
__HETVP_RMW(atomicMax, __atomic_fetch_max, int)
__HETVP_RMW(atomicMax, __atomic_fetch_max, unsigned int)
__HETVP_RMW(atomicAnd, __atomic_fetch_and, int)
__HETVP_RMW(atomicAnd, __atomic_fetch_and, unsigned int)
__HETVP_RMW(atomicOr, __atomic_fetch_or, int)
__HETVP_RMW(atomicOr, __atomic_fetch_or, unsigned int)
__HETVP_RMW(atomicXor, __atomic_fetch_xor, int)
__HETVP_RMW(atomicXor, __atomic_fetch_xor, unsigned int)
#undef __HETVP_RMW
__hetvp_dev float atomicExch(float* p, float v) {
  unsigned int r = atomicExch(reinterpret_cast<unsigned int*>(p), __builtin_bit_cast(unsigned int, v));
  return __builtin_bit_cast(float, r);
}
// ((old >= v) ? 0 : old + 1) and ((old == 0 || old > v) ? v : old - 1): atom.inc / atom.dec.
__hetvp_dev unsigned int atomicInc(unsigned int* p, unsigned int v) { return __nvvm_atom_inc_gen_ui(p, v); }
__hetvp_dev unsigned int atomicDec(unsigned int* p, unsigned int v) { return __nvvm_atom_dec_gen_ui(p, v); }
__hetvp_dev int atomicCAS(int* p, int expected, int v) { return __nvvm_atom_cas_gen_i(p, expected, v); }
__hetvp_dev unsigned int atomicCAS(unsigned int* p, unsigned int expected, unsigned int v) {
  return static_cast<unsigned int>(
      __nvvm_atom_cas_gen_i(reinterpret_cast<int*>(p), static_cast<int>(expected), static_cast<int>(v)));
}
__hetvp_dev unsigned long long atomicCAS(unsigned long long* p, unsigned long long expected, unsigned long long v) {
  return static_cast<unsigned long long>(__nvvm_atom_cas_gen_ll(reinterpret_cast<long long*>(p),
                                                               static_cast<long long>(expected),
                                                               static_cast<long long>(v)));
}

// ---- uncached loads and stores at system scope: CUDA's __ldcv / __stwt ----------------------------
// ld.global.cv ("fetch again": never served by a cache) and st.global.wt ("write through to system
// memory"), PTX ISA cache operators: hetvp's compute units send them past every cache, lane by lane,
// at system scope -- the accesses of device code that polls and writes another agent's registers
// (the coherence directory: sw/kernels/coherence.cu). Other cache operators are hints.
__hetvp_dev unsigned int __ldcv(const unsigned int* p) {
  unsigned int v;
  asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__hetvp_dev int __ldcv(const int* p) { return static_cast<int>(__ldcv(reinterpret_cast<const unsigned int*>(p))); }
__hetvp_dev void __stwt(unsigned int* p, unsigned int v) {
  asm volatile("st.global.wt.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
__hetvp_dev void __stwt(int* p, int v) { __stwt(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v)); }

// ---- warp shuffles (sm_30 on) and votes -----------------------------------------------------
// PTX shfl's c operand: clamp lane in bits 4:0, segment mask in bits 12:8 (PTX ISA "shfl"); a
// `width` of 32, 16, ... shuffles within segments of that many lanes, as CUDA's __shfl.
#if __CUDA_ARCH__ >= 300
#define __HETVP_SHFL(NAME, BUILTIN, SRC_T, CLAMP)                                                 \
  __hetvp_dev int NAME(int v, SRC_T s, int width = warpSize) {                                    \
    return BUILTIN(v, static_cast<int>(s), ((warpSize - width) << 8) | (CLAMP));                 \
  }                                                                                               \
  __hetvp_dev unsigned int NAME(unsigned int v, SRC_T s, int width = warpSize) {                  \
    return static_cast<unsigned int>(NAME(static_cast<int>(v), s, width));                       \
  }                                                                                               \
  __hetvp_dev float NAME(float v, SRC_T s, int width = warpSize) {                                \
    return __builtin_bit_cast(float, NAME(__builtin_bit_cast(int, v), s, width));                 \
  }
__HETVP_SHFL(__shfl, __nvvm_shfl_idx_i32, int, 0x1f)
__HETVP_SHFL(__shfl_up, __nvvm_shfl_up_i32, unsigned int, 0)
__HETVP_SHFL(__shfl_down, __nvvm_shfl_down_i32, unsigned int, 0x1f)
__HETVP_SHFL(__shfl_xor, __nvvm_shfl_bfly_i32, int, 0x1f)
#undef __HETVP_SHFL
#else
#define __HETVP_NO_SHFL(NAME) template <class... A> \
  __attribute__((unavailable("warp shuffles need sm_30 or later (hetvp_add_gpu_kernels ARCH sm_30 or sm_35)"))) \
  __device__ int NAME(A...);
__HETVP_NO_SHFL(__shfl)
__HETVP_NO_SHFL(__shfl_up)
__HETVP_NO_SHFL(__shfl_down)
__HETVP_NO_SHFL(__shfl_xor)
#undef __HETVP_NO_SHFL
#endif
// vote.all/.any/.ballot over the warp's active threads (sm_20 on). Inline PTX, in a { } scope for
// its predicate registers: clang 14 selects its vote builtins only for sm_30 with PTX ISA 6.0.
#define __HETVP_VOTE(NAME, T, MODE)                                                        \
  __hetvp_dev T NAME(int p) {                                                                     \
    unsigned int r;                                                                               \
    asm volatile("{\n\t.reg .pred %%hetvp_p, %%hetvp_q;\n\tsetp.ne.u32 %%hetvp_p, %1, 0;\n\t"      \
                 "vote." MODE " %%hetvp_q, %%hetvp_p;\n\tselp.u32 %0, 1, 0, %%hetvp_q;\n\t}"            \
                 : "=r"(r) : "r"(p));                                                             \
    return static_cast<T>(r);                                                                     \
  }
__HETVP_VOTE(__all, int, "all.pred")
__HETVP_VOTE(__any, int, "any.pred")
#undef __HETVP_VOTE
__hetvp_dev unsigned int __ballot(int p) {
  unsigned int r;
  asm volatile("{\n\t.reg .pred %%hetvp_p;\n\tsetp.ne.u32 %%hetvp_p, %1, 0;\n\tvote.ballot.b32 %0, %%hetvp_p;\n\t}"
               : "=r"(r) : "r"(p));
  return r;
}

// ---- arithmetic -----------------------------------------------------------------------------
__hetvp_dev int min(int a, int b) { return a < b ? a : b; }
__hetvp_dev unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__hetvp_dev int max(int a, int b) { return a > b ? a : b; }
__hetvp_dev unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__hetvp_dev int abs(int a) { return a < 0 ? -a : a; }
__hetvp_dev float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
__hetvp_dev float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
__hetvp_dev float fabsf(float a) { return __nvvm_fabs_f(a); }
__hetvp_dev float sqrtf(float a) { return __nvvm_sqrt_rn_f(a); }
__hetvp_dev float __fsqrt_rn(float a) { return __nvvm_sqrt_rn_f(a); }
__hetvp_dev float rsqrtf(float a) { return __nvvm_rsqrt_approx_f(a); }
__hetvp_dev float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__hetvp_dev float __expf(float a) { return __nvvm_ex2_approx_f(a * 1.4426950408889634f); }
__hetvp_dev float __logf(float a) { return __nvvm_lg2_approx_f(a) * 0.6931471805599453f; }
__hetvp_dev float __sinf(float a) { return __nvvm_sin_approx_f(a); }
__hetvp_dev float __cosf(float a) { return __nvvm_cos_approx_f(a); }
__hetvp_dev float __fmaf_rn(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__hetvp_dev float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__hetvp_dev int __popc(unsigned int v) { return __builtin_popcount(v); }
__hetvp_dev int __clz(int v) { return v ? __builtin_clz(static_cast<unsigned int>(v)) : 32; }
__hetvp_dev unsigned int __brev(unsigned int v) { return __builtin_bitreverse32(v); }
__hetvp_dev int __ffs(int v) { return __builtin_ffs(v); }
__hetvp_dev int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
__hetvp_dev unsigned int __umul24(unsigned int a, unsigned int b) { return __nvvm_mul24_ui(a, b); }
__hetvp_dev int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
__hetvp_dev unsigned int __umulhi(unsigned int a, unsigned int b) { return __nvvm_mulhi_ui(a, b); }

#undef __hetvp_dev
