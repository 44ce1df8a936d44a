// Kernels of the gpu_bench microbenchmarks, modelled on Gdev's CUDA tests (test/cuda/user/madd,
// fmadd, mmul, loop, idle: the shapes; hetvp's own code). Arguments (CMP_ARG words): 64-bit
// pointers then sizes. madd/fmadd/mmul multiply by the module constant cb(0) (the GPC constant
// buffer, per-GPC GR context state; 1 in a correct context), so a context switch that loses the
// constant-buffer binding shows in the results.
#include "models/gpu/compute/kernel.h"

namespace hetvp::sw {
namespace {
using gpu::Lanes;
using gpu::Warp;

// c[y*n+x] = (a + b) * scale, n x n elements of T: unsigned ints for Gdev's madd
// (a[i][j] = b[i][j] = i), floats for its fmadd.
template <class T>
void madd_of(Warp& w) {
  const uint32_t n = w.arg(6);
  const T scale = T(w.cb(0));
  const auto x = w.global_x(), y = w.global_y();
  uint32_t m = w.active() & w.lt(x, n) & w.lt(y, n);
  Lanes<uint32_t> idx;
  for (unsigned l = 0; l < gpu::kLanes; ++l) idx[l] = y[l] * n + x[l];
  auto a = w.load<T>(w.addr(w.arg64(0), idx, 4), m);
  auto b = w.load<T>(w.addr(w.arg64(2), idx, 4), m);
  Lanes<T> c;
  for (unsigned l = 0; l < gpu::kLanes; ++l) c[l] = (a[l] + b[l]) * scale;
  w.alu(2);
  w.store<T>(w.addr(w.arg64(4), idx, 4), c, m);
}
void k_madd(Warp& w) { madd_of<uint32_t>(w); }
void k_fmadd(Warp& w) { madd_of<float>(w); }

// c = a x b, n x n unsigned ints (Gdev mmul): each thread one element, n loads of a row and column.
void k_mmul(Warp& w) {
  const uint32_t n = w.arg(6), scale = w.cb(0);
  const auto x = w.global_x(), y = w.global_y();
  uint32_t m = w.active() & w.lt(x, n) & w.lt(y, n);
  Lanes<uint32_t> sum{};
  for (uint32_t k = 0; k < n; ++k) {
    Lanes<uint32_t> ia, ib;
    for (unsigned l = 0; l < gpu::kLanes; ++l) {
      ia[l] = y[l] * n + k;
      ib[l] = k * n + x[l];
    }
    auto a = w.load<uint32_t>(w.addr(w.arg64(0), ia, 4), m);
    auto b = w.load<uint32_t>(w.addr(w.arg64(2), ib, 4), m);
    for (unsigned l = 0; l < gpu::kLanes; ++l) sum[l] += a[l] * b[l];
    w.alu(1);
  }
  Lanes<uint32_t> idx;
  for (unsigned l = 0; l < gpu::kLanes; ++l) {
    idx[l] = y[l] * n + x[l];
    sum[l] *= scale;
  }
  w.store<uint32_t>(w.addr(w.arg64(4), idx, 4), sum, m);
}

// Every thread loops n times (Gdev loop): out[t] = t + n.
void k_loop(Warp& w) {
  const uint32_t n = w.arg(2), threads = w.arg(3);
  const auto x = w.global_x();
  uint32_t m = w.active() & w.lt(x, threads);
  w.alu(n);
  Lanes<uint32_t> v;
  for (unsigned l = 0; l < gpu::kLanes; ++l) v[l] = x[l] + n;
  w.store<uint32_t>(w.addr(w.arg64(0), x, 4), v, m);
}

// One thread idles n cycles, then writes n (Gdev idle).
void k_idle(Warp& w) {
  const uint32_t n = w.arg(2);
  const auto x = w.global_x(), y = w.global_y();
  if (!(w.active() & 1) || x[0] != 0 || y[0] != 0) return;
  w.idle(n);
  Lanes<uint32_t> v{};
  v[0] = n;
  Lanes<uint32_t> zero{};
  w.store<uint32_t>(w.addr(w.arg64(0), zero, 4), v, 1);
}

}  // namespace

HETVP_REGISTER_KERNEL("gdev_madd", k_madd);
HETVP_REGISTER_KERNEL("gdev_fmadd", k_fmadd);
HETVP_REGISTER_KERNEL("gdev_mmul", k_mmul);
HETVP_REGISTER_KERNEL("gdev_loop", k_loop);
HETVP_REGISTER_KERNEL("gdev_idle", k_idle);

}  // namespace hetvp::sw
