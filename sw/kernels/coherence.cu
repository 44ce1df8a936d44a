// The coherence workloads' kernels (sw/coherence: SPEC §7, Misaki 2026 §4.1.3). square,
// matrix_transpose and shfl2d are the HIP samples the thesis ran (hip-tests samples/2_Cookbook/
// 0_MatrixTranspose, 5_2dshfl; square from HIP's introduction), rewritten in CUDA for hetvp.
// shfl2d needs warp shuffles (sm_30 on): the coherence configs' GPU declares a Kepler-class
// architecture (gpu0.compute.arch: sm_30).

// square: C[i] = A[i]^2.
extern "C" __global__ void square(const float* A, float* C, unsigned N) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] * A[i];
}

// MatrixTranspose: one thread per element, out[y*W + x] = in[x*W + y] -- a transposed (strided)
// read and a row-order store.
extern "C" __global__ void matrix_transpose(const float* in, float* out, unsigned W) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < W) out[y * W + x] = in[x * W + y];
}

#if __CUDA_ARCH__ >= 300
// 2dshfl: val = in[y*W + x] (a row-order, coalesced read), out[x*W + y] = __shfl(val, y*W + x) --
// the source lane is the thread's own linear index modulo the warp size, its own lane, so the value
// stays in registers -- and a transposed (strided) store. The sample launches one W x W block
// (HIP's limit: 1024 threads); here blocks are W wide and as many rows as fit, and the index in
// the block is what __shfl takes.
extern "C" __global__ void shfl2d(const float* in, float* out, unsigned W) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= W) return;
  float v = in[y * W + x];
  v = __shfl(v, int(threadIdx.y * blockDim.x + threadIdx.x));
  out[x * W + y] = v;
}
#endif

// coh_random: every thread reads one pseudo-random word that no thread writes in this launch and
// writes word (global id * stride) = f(read value, seed): no two threads write the same word and no
// thread reads a word written in the same launch (data-race-free; stride >= 2).
extern "C" __global__ void coh_random(unsigned* buf, unsigned words, unsigned seed, unsigned stride) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= words / stride) return;
  unsigned h = (g + 1) * 2654435761u ^ seed;
  h ^= h >> 13;
  unsigned rd = h % words;
  if (rd % stride == 0) rd = rd + 1 < words ? rd + 1 : rd - 1;  // never a word written here
  buf[g * stride] = buf[rd] * 3u + seed;
}

// coalesce_probe: thread t accesses base + t * stride: one load and one store per warp.
extern "C" __global__ void coalesce_probe(unsigned char* base, unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* p = reinterpret_cast<unsigned*>(base + size_t(t) * stride);
  *p = *p + 1;
}

// ---- the GPU side of the release-consistency protocol (sw/coherence/runtime.h, SPEC §7) ------------
// One thread writes and polls the directory's registers, whose window the runtime mapped at `dir` in
// the GPU's address space, with uncached system-scope accesses (__stwt / __ldcv: past every GPU
// cache, across PCIe), as the HUB firmware does the same protocol (firmware/lib/coh.c). Launched
// 1 x 1 by CoherenceRuntime::gpu_acquire / gpu_release (args.rt.gpu_sync: kernel).
#include "hetvp/coherence.h"  // DIR_* register offsets

__device__ __forceinline__ void dir_write(unsigned char* dir, unsigned off, unsigned v) {
  __stwt(reinterpret_cast<unsigned*>(dir + off), v);
}

// Polls a status register until bit 0 is set, about 200 cycles between polls; a status that never
// comes is a kernel error (trap) after 10^6 polls rather than a hang.
// (Loops not unrolled: the code stays small, so the module image and its instruction fetches do too.)
__device__ __forceinline__ void dir_wait(unsigned char* dir, unsigned off) {
#pragma unroll 1
  for (unsigned i = 0; i < 1000000; ++i) {
    if (__ldcv(reinterpret_cast<const unsigned*>(dir + off)) & 1) return;
    const long long t0 = clock64();
    while (clock64() - t0 < 200) {
    }
  }
  __trap();
}

// CPU_ACQUIRE's counterpart: take the lock (the directory fails the run if the CPU holds it), start
// tracking the GPU's writes.
extern "C" __global__ void coh_gpu_acquire(unsigned char* dir) {
  dir_write(dir, DIR_LOCK, 1);  // take it
  dir_write(dir, DIR_GPU_TRACK, 1);
}

// Stop tracking, hand the GPU's history to the directory, have it invalidate the CPU's caches
// with it, release the lock.
extern "C" __global__ void coh_gpu_release(unsigned char* dir) {
  dir_write(dir, DIR_GPU_TRACK, 0);
  dir_write(dir, DIR_HISTORY, 2);  // 2 = the GPU's history
  dir_wait(dir, DIR_HIST_STATUS);
  dir_write(dir, DIR_INVALIDATE, 2);  // 2 = the CPU's caches, with the GPU's history
  dir_wait(dir, DIR_INVAL_STATUS);
  dir_write(dir, DIR_LOCK, 0);
}
