// tile_sum: each block loads a tile of `in` into shared memory; after __syncthreads each thread
// combines its element with its right neighbour in the tile, odd and even threads differently (a
// divergent branch); each warp sums its values with shuffles and adds the sum to *total with one
// atomic. Device code for hetvp's GPU: hetvp_cuda.h (included by hetvp_add_gpu_kernels) gives the
// CUDA names. reference.cpp computes the same on the host.
extern "C" __global__ void tile_sum(const unsigned* in, unsigned* out, unsigned* total, unsigned n) {
  __shared__ unsigned tile[1024];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0u;
  __syncthreads();
  unsigned v = tile[t] + tile[(t + 1) % blockDim.x];
  if (t & 1)
    v = v * 3u + 1u;
  else
    v ^= 0x5555u;
  if (i >= n) v = 0;
  else out[i] = v;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (t % warpSize == 0) atomicAdd(total, v);
}
