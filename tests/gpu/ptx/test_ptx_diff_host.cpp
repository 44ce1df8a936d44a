// The differential kernels built for the host (the reference): plain C++, one thread at a time;
// test_ptx_diff.cpp sets threadIdx/blockIdx/blockDim/gridDim before each call.
#include "tests/gpu/ptx/kernels/ptx_test.h"

HostDim3 threadIdx, blockIdx, blockDim, gridDim;

#include "tests/gpu/ptx/kernels/diff_kernels.cu"
