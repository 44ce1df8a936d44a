// A warp shuffle compiled for sm_20 (Fermi has none): hetvp_cuda.h refuses it with a clear error
// (tests/kernels/shuffle_needs_sm30.sh).
extern "C" __global__ void k(int* p) { p[0] = __shfl(p[1], 2); }
