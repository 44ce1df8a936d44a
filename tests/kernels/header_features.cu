// Every name hetvp_cuda.h gives, used once: compiled for sm_20, sm_30 and sm_35 at build time
// (tests/kernels/CMakeLists.txt), and the PTX loaded by hetvp's loader (test_device_header.cpp).
__constant__ unsigned scale = 1;
extern "C" __constant__ unsigned hetvp_context_word;
__device__ unsigned counter;

__device__ __noinline__ unsigned helper(unsigned x) { return x * 3u + 1u; }

extern "C" __global__ void features(unsigned* out, float* f, int n) {
  __shared__ unsigned tile[64];
  const dim3 b = blockDim;
  const uint3 t3 = threadIdx;
  const unsigned t = threadIdx.x + blockIdx.x * b.x + gridDim.y * blockIdx.y + t3.z + blockIdx.z + gridDim.z;
  tile[threadIdx.x % 64] = t * scale + hetvp_context_word;
  __syncthreads();
  int c = __syncthreads_count(int(t & 1)) + __syncthreads_and(int(t)) + __syncthreads_or(int(t & 2));  // bar.red
  if (t & 1) atomicAdd(&counter, 1u); else atomicMax(out + 1, t);
  atomicAdd(f, 1.5f);
  atomicCAS(out + 2, 3u, 4u);
  atomicInc(out + 3, 9u);
  atomicDec(out + 3, 9u);
  atomicExch(f + 1, 2.f);
  atomicSub(out + 4, 1u);
  atomicMin(reinterpret_cast<int*>(out) + 5, n);
  atomicAnd(out + 6, 0xffu);
  atomicOr(out + 6, 0x100u);
  atomicXor(out + 6, 0x3u);
  unsigned long long* q = reinterpret_cast<unsigned long long*>(out + 8);
  atomicAdd(q, 5ull);
  atomicCAS(q, 5ull, 6ull);
  int v = int(tile[(threadIdx.x ^ 1) % 64]);
  float fv = f[t];
#if __CUDA_ARCH__ >= 300
  v += __shfl_down(v, 1) + __shfl_xor(int(t), 3, 16) + __shfl_up(int(t), 2) + __shfl(int(t), 5);
  fv = __shfl(fv, 0);
#endif
  v += int(__ballot(v > 3)) + __all(v) + __any(v) + c + __popc(t) + __clz(int(t)) + __ffs(v) + min(v, n) +
       max(n, 3) + abs(v) + int(__brev(t)) + __mul24(v, 3) + int(__umul24(t, 5u)) + __mulhi(v, n) +
       int(__umulhi(t, 7u)) + int(min(t, 9u)) + int(max(t, 2u)) + int(helper(t));
  const float r = fminf(fv, sqrtf(fv)) * __expf(fv) + __sinf(fv) + __cosf(fv) + __logf(fv) + fmaf(fv, fv, 1.f) +
                  fmaxf(fv, 0.5f) + fabsf(fv) + rsqrtf(fv) + __fdividef(fv, 3.f) + __fsqrt_rn(fv) +
                  __fmaf_rn(fv, 2.f, 1.f);
  out[t] = unsigned(v) + unsigned(r) + unsigned(clock()) + unsigned(clock64());
  __threadfence();
  __threadfence_block();
  __stwt(out + 7, __ldcv(out + 7) + 1u);  // uncached, system scope
  __stwt(reinterpret_cast<int*>(out) + 7, __ldcv(reinterpret_cast<const int*>(out) + 7));
  if (n < -1000) __trap();
}
