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
