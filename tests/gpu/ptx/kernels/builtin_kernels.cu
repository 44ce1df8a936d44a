// clang's NVPTX builtins and math that lower to single PTX instructions (bit manipulation, 24-bit
// multiply, sad, rounding conversions, approximate functions, directed rounding): they load, run,
// and the exactly-defined ones give PTX's results (test_ptx_exec.cpp, BuiltinsGivePtxResults).
#include "ptx_test.h"

extern "C" __global__ void int_builtins(int* out, const int* a, const int* b) {
  int i = threadIdx.x;
  int x = a[i], y = b[i];
  int* o = out + i * 8;
  o[0] = (int)__builtin_bitreverse32((unsigned)x);
  o[1] = (int)__nvvm_prmt((unsigned)x, (unsigned)y, 0x1706);
  o[2] = __nvvm_mul24_i(x, y);
  o[3] = __nvvm_sad_i(x, y, 7);
  o[4] = __nvvm_mulhi_i(x, y);
  o[5] = __builtin_clz((unsigned)x | 1) + __builtin_popcount((unsigned)y);
  o[6] = (int)__builtin_bitreverse64((unsigned long long)(long long)x);
  o[7] = __nvvm_mul24_ui((unsigned)x, (unsigned)y);
}

extern "C" __global__ void float_builtins(int* iout, float* fout, double* dout, const float* f, const double* d) {
  int i = threadIdx.x;
  float x = f[i];
  double z = d[i];
  iout[i * 4 + 0] = __nvvm_f2i_rn(x);
  iout[i * 4 + 1] = __nvvm_f2i_rm(x);
  iout[i * 4 + 2] = __nvvm_f2i_rp(x);
  iout[i * 4 + 3] = __nvvm_d2i_rz(z);
  fout[i * 4 + 0] = __nvvm_saturate_f(x);
  fout[i * 4 + 1] = __nvvm_ex2_approx_f(x * 0.01f) + __nvvm_sin_approx_f(x) + __nvvm_rsqrt_approx_f(x * x + 1.f);
  fout[i * 4 + 2] = __nvvm_add_rz_f(x, 1e-9f);
  fout[i * 4 + 3] = __builtin_copysignf(2.5f, x);
  dout[i * 2 + 0] = __nvvm_rcp_rn_d(z) + __nvvm_fma_rn_d(z, z, 1.0);
  dout[i * 2 + 1] = (double)__nvvm_d2f_rz(z);
}
