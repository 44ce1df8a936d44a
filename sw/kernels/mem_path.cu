// mem_path's kernel (sw/workloads/mem_path.cpp, docs/kepler.md): each warp loads the Kepler seed's
// access pattern (seeds/kepler-memory-coalescing; the same as tests/gpu/test_coalescer_kepler.cpp)
// from its 16 KiB region `repeats` times, optionally round-trips its value through local memory
// (`local`: a per-thread array the compiler keeps in local memory), and stores the sum per thread.

// Byte offset of lane l's word in its warp's region, per pattern (mem_path.cpp's Pattern).
__device__ __forceinline__ unsigned pattern_offset(unsigned pattern, unsigned l) {
  switch (pattern) {
    case 0: return 4 * l;                      // one 128 B-aligned block, in lane order
    case 1: return 0x40 + 2 * (l & ~1u) % 64;  // inside two segments: pairs of lanes share a word
    case 2: return 64 * (l % 3);               // segments 0, 2 and 4: three, not contiguous
    case 3: return 4 * ((l * 7) % 32);         // one 128 B block, lanes out of order
    default: return 256 * l;                   // 32 different 128 B blocks
  }
}

extern "C" __global__ void mem_path(const unsigned char* global, unsigned pattern, unsigned repeats, unsigned local,
                                    unsigned* out) {
  const unsigned warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  const volatile unsigned* g =
      reinterpret_cast<const volatile unsigned*>(global + size_t(warp) * 16384 + pattern_offset(pattern, lane));
  unsigned sum = 0, v = 0;
  for (unsigned r = 0; r < repeats; ++r) {
    v = *g;  // volatile: one load per repeat, as the pattern's repeats ask
    sum += v;
  }
  if (local) {
    volatile unsigned slot[1];  // a volatile local array: stored to and loaded from local memory
    slot[0] = v;
    for (unsigned r = 0; r < repeats; ++r) sum += slot[0];
  }
  out[warp * 32 + lane] = sum;
}
