// Kernels of the gpu_bench microbenchmarks (sw/gdev/gpu_bench.cpp), modelled on Gdev's CUDA tests
// (github shinpei0208/gdev test/cuda/common/{madd,fmadd,mmul,loop,idle}_gpu.cu: the shapes; hetvp's
// own code). Compiled to PTX for every chip at build time (sw/kernels/CMakeLists.txt).
//
// madd/fmadd/mmul multiply by hetvp_context_scale, the first word of the context's constant bank
// (bank 1: the GPC constant buffer the channel binds, GR context state; 1 in a correct context), so
// that a context switch that loses the binding shows in the results.
extern "C" __constant__ unsigned hetvp_context_scale;

// c[y*n+x] = (a + b) * scale over n x n elements: unsigned ints (Gdev madd: a[i][j] = b[i][j] = i).
extern "C" __global__ void gdev_madd(const unsigned* a, const unsigned* b, unsigned* c, unsigned n) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) c[y * n + x] = (a[y * n + x] + b[y * n + x]) * hetvp_context_scale;
}

// The same on floats (Gdev fmadd: a = b = i + 0.1).
extern "C" __global__ void gdev_fmadd(const float* a, const float* b, float* c, unsigned n) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) c[y * n + x] = (a[y * n + x] + b[y * n + x]) * float(hetvp_context_scale);
}

// c = a x b, n x n unsigned ints (Gdev mmul): each thread one element, a row of a and a column of b.
extern "C" __global__ void gdev_mmul(const unsigned* a, const unsigned* b, unsigned* c, unsigned n) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  unsigned sum = 0;
  for (unsigned k = 0; k < n; ++k) sum += a[y * n + k] * b[k * n + x];
  c[y * n + x] = sum * hetvp_context_scale;
}

// Every thread counts to n in a loop (Gdev loop), then out[t] = t + n. The empty asm makes the
// count a loop the compiler keeps (an add per iteration), not one addition.
extern "C" __global__ void gdev_loop(unsigned* out, unsigned n, unsigned threads) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  unsigned v = t;
  for (unsigned i = 0; i < n; ++i) {
    v += 1;
    asm volatile("" : "+r"(v));
  }
  out[t] = v;
}

// Thread (0,0) spins n times doing nothing (Gdev idle), then writes n. clang deletes an empty loop:
// the asm volatile in the body keeps it (its iterations are the loop counter's add, compare, branch).
extern "C" __global__ void gdev_idle(unsigned* out, unsigned n) {
  if (blockIdx.x || blockIdx.y || threadIdx.x || threadIdx.y) return;
  for (unsigned i = 0; i < n; ++i) asm volatile("");
  out[0] = n;
}
