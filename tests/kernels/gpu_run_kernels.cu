// Kernels for gpu_run's tests (test_gpu_run.cpp), compiled for sm_20 and sm_30.

// y[i] = a * x[i] + y[i] (one fma.rn.f32 under -ffp-contract=fast).
extern "C" __global__ void saxpy(const float* x, float* y, unsigned n, float a) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// 64 KiB of shared memory: more than a block may use (48 KiB).
extern "C" __global__ void big_shared(unsigned* out) {
  __shared__ unsigned tile[16384];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[16383 - threadIdx.x];
}

// 48 values live at once: at 1024 threads a block, more registers than a Fermi SM has (32768).
extern "C" __global__ void many_registers(const unsigned* in, unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v[48];
#pragma unroll
  for (int k = 0; k < 48; ++k) v[k] = in[i * 48 + k];
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < 48; ++k) s = s * 31u + v[k] * v[47 - k];
  out[i] = s;
}

// Dynamic shared memory (extern __shared__): out[i] = in[n - 1 - i] through a reversed tile.
extern "C" __global__ void reverse(const unsigned* in, unsigned* out, unsigned n) {
  extern __shared__ unsigned tile[];
  const unsigned t = threadIdx.x;
  if (t < n) tile[t] = in[t];
  __syncthreads();
  if (t < n) out[t] = tile[n - 1 - t];
}

// 160 bytes of coefficients by value, then two pointers and a count: 184 bytes of parameters, more
// than the 64 the launch registers carry (they travel in a constant buffer: compute.h CMP_PARAM_*).
// y[i] = c[i % 40] * x[i] + c[39 - i % 40] (one fma.rn.f32).
struct Coeffs40 {
  float c[40];
};
extern "C" __global__ void coeffs40(Coeffs40 k, const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = k.c[i % 40] * x[i] + k.c[39 - i % 40];
}

// A 3-D grid of 3-D blocks: each thread writes its %tid, %ctaid, %ntid and %nctaid (10 bits a
// dimension) at its linear index (blocks in x, y, z order, threads likewise).
extern "C" __global__ void index3d(unsigned* out) {
  const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned* o = out + 4 * (block * threads + t);
  o[0] = threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20;
  o[1] = blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20;
  o[2] = blockDim.x | blockDim.y << 10 | blockDim.z << 20;
  o[3] = gridDim.x | gridDim.y << 10 | gridDim.z << 20;
}

// Traps in thread 5 of block 1 (__trap: PTX trap, a kernel error naming the block and thread).
extern "C" __global__ void trap_in_block1(unsigned* out) {
  if (blockIdx.x == 1 && threadIdx.x == 5) __trap();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
