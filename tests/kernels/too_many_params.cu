// More kernel parameters than CUDA's 4 KiB (4160 + 8 bytes): the module loader refuses it
// (test_gpu_run.cpp). A module of its own: the refusal is the whole module's.
struct Floats1040 {
  float v[1040];
};
extern "C" __global__ void too_many_params(Floats1040 b, float* out) { out[threadIdx.x] = b.v[threadIdx.x]; }
