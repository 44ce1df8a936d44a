// Differential test (issue #40, must-show 3): each kernel of kernels/diff_kernels.cu compiled to PTX
// for sm_20, sm_30 and sm_35 (-O2; also -O0 and -O3) and run by the executor, and compiled for the host and run thread by
// thread; the results must be equal bit for bit (integers and floats: no contraction on either
// side, so the same operations round the same way) on random inputs.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "tests/gpu/ptx/kernels/ptx_test.h"
#include "tests/gpu/ptx/ptx_files.h"

extern "C" {
void saxpy(float* y, const float* x, float a, int n);
void int_ops(int* out, const int* a, const int* b, int n);
void conversions(float* f_out, int* i_out, double* d_out, const float* f, const double* d, const int* k, int n);
void float_math(float* out, double* dout, const float* a, const float* b, const double* c, int n);
void branchy(int* out, const int* a, int n);
void calls(int* out, float* fout, const int* a, int n);
void atomics(int* sum, unsigned* mx, int* mn, unsigned* bits, const int* a, int n);
}

namespace hetvp::gpu::ptx::test {
namespace {

constexpr int kN = 1000;             // threads (the last block partly full)
constexpr unsigned kBlock = 128;
const Dim3 kGrid{(kN + kBlock - 1) / kBlock, 1, 1};

template <class F>
void host_grid(F call) {
  gridDim = {kGrid.x, 1, 1};
  blockDim = {kBlock, 1, 1};
  for (unsigned b = 0; b < kGrid.x; ++b)
    for (unsigned t = 0; t < kBlock; ++t) {
      blockIdx = {b, 0, 0};
      threadIdx = {t, 0, 0};
      call();
    }
}

template <class T>
void expect_same(const std::vector<T>& dev, const std::vector<T>& host, const std::string& what) {
  ASSERT_EQ(dev.size(), host.size());
  for (size_t i = 0; i < dev.size(); ++i)
    if (std::memcmp(&dev[i], &host[i], sizeof(T)) != 0) {
      ADD_FAILURE() << what << ": element " << i << " differs: executor " << dev[i] << ", host " << host[i];
      return;
    }
}

std::vector<int> random_ints(std::mt19937& g, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(n);
  for (auto& x : v) x = d(g);
  for (size_t i = 0; i < n; i += 17) v[i] = int(i % 5) - 2;  // small values and zeros too
  return v;
}
template <class T>
std::vector<T> random_reals(std::mt19937& g, size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = T(d(g));
  return v;
}

class Diff : public ::testing::TestWithParam<const char*> {
 protected:
  Module m = load_file(std::string("diff_kernels.") + GetParam() + ".ptx");
  HostEnv env{1 << 20};
  std::mt19937 gen{42};
  void run(const std::string& kernel, const Params& p) { run_grid(make_launch(m, kernel, p, kGrid, {kBlock, 1, 1}), env); }
};

TEST_P(Diff, Saxpy) {
  auto x = random_reals<float>(gen, kN, -100, 100), y = random_reals<float>(gen, kN, -100, 100);
  uint64_t dx = env.upload(x), dy = env.upload(y);
  run("saxpy", Params(m.kernel("saxpy")).set(0, dy).set(1, dx).set(2, 1.75f).set(3, kN));
  host_grid([&] { saxpy(y.data(), x.data(), 1.75f, kN); });
  expect_same(env.download<float>(dy, kN), y, "saxpy");
}

TEST_P(Diff, IntegerOps) {
  auto a = random_ints(gen, kN, -(1 << 30), 1 << 30), b = random_ints(gen, kN, -(1 << 30), 1 << 30);
  for (int i = 0; i < kN; i += 3) b[i] = b[i] % 1000;  // divisors of every size
  std::vector<int> out(kN * 16, 0);
  uint64_t da = env.upload(a), db = env.upload(b), dout = env.upload(out);
  run("int_ops", Params(m.kernel("int_ops")).set(0, dout).set(1, da).set(2, db).set(3, kN));
  host_grid([&] { int_ops(out.data(), a.data(), b.data(), kN); });
  expect_same(env.download<int>(dout, kN * 16), out, "int_ops");
}

TEST_P(Diff, Conversions) {
  auto f = random_reals<float>(gen, kN, -3e9, 5e9);
  auto d = random_reals<double>(gen, kN, -1e12, 1e12);
  auto k = random_ints(gen, kN, -(1 << 30), 1 << 30);
  for (int i = 0; i < kN; i += 7) f[i] = float(i) * 0.37f - 100.f;
  std::vector<float> fo(kN * 4, 0);
  std::vector<int> io(kN * 4, 0);
  std::vector<double> dout(kN * 3, 0);
  uint64_t a0 = env.upload(fo), a1 = env.upload(io), a2 = env.upload(dout), a3 = env.upload(f), a4 = env.upload(d),
           a5 = env.upload(k);
  run("conversions",
      Params(m.kernel("conversions")).set(0, a0).set(1, a1).set(2, a2).set(3, a3).set(4, a4).set(5, a5).set(6, kN));
  host_grid([&] { conversions(fo.data(), io.data(), dout.data(), f.data(), d.data(), k.data(), kN); });
  expect_same(env.download<float>(a0, kN * 4), fo, "conversions f32");
  expect_same(env.download<int>(a1, kN * 4), io, "conversions int");
  expect_same(env.download<double>(a2, kN * 3), dout, "conversions f64");
}

TEST_P(Diff, FloatMath) {
  auto a = random_reals<float>(gen, kN, -10, 10), b = random_reals<float>(gen, kN, -10, 10);
  auto c = random_reals<double>(gen, kN, -1e3, 1e3);
  std::vector<float> out(kN * 8, 0);
  std::vector<double> dout(kN * 3, 0);
  uint64_t a0 = env.upload(out), a1 = env.upload(dout), a2 = env.upload(a), a3 = env.upload(b), a4 = env.upload(c);
  run("float_math", Params(m.kernel("float_math")).set(0, a0).set(1, a1).set(2, a2).set(3, a3).set(4, a4).set(5, kN));
  host_grid([&] { float_math(out.data(), dout.data(), a.data(), b.data(), c.data(), kN); });
  expect_same(env.download<float>(a0, kN * 8), out, "float_math f32");
  expect_same(env.download<double>(a1, kN * 3), dout, "float_math f64");
}

TEST_P(Diff, DivergentBranches) {
  auto a = random_ints(gen, kN, 0, 1 << 30);
  std::vector<int> out(kN, 0);
  uint64_t da = env.upload(a), dout = env.upload(out);
  run("branchy", Params(m.kernel("branchy")).set(0, dout).set(1, da).set(2, kN));
  host_grid([&] { branchy(out.data(), a.data(), kN); });
  expect_same(env.download<int>(dout, kN), out, "branchy");
}

TEST_P(Diff, CallsAndLocalMemory) {
  auto a = random_ints(gen, kN, -1000, 1000);
  std::vector<int> out(kN, 0);
  std::vector<float> fout(kN, 0);
  uint64_t da = env.upload(a), dout = env.upload(out), dfout = env.upload(fout);
  run("calls", Params(m.kernel("calls")).set(0, dout).set(1, dfout).set(2, da).set(3, kN));
  host_grid([&] { calls(out.data(), fout.data(), a.data(), kN); });
  expect_same(env.download<int>(dout, kN), out, "calls int");
  expect_same(env.download<float>(dfout, kN), fout, "calls float");
  EXPECT_GT(m.kernel("calls").local_bytes, 0u);
  EXPECT_GT(env.local_accesses, 0u) << "the per-thread array lives in local memory";
}

TEST_P(Diff, GlobalAtomics) {
  auto a = random_ints(gen, kN, -100000, 100000);
  std::vector<int> sum{0}, mn{1 << 30};
  std::vector<unsigned> mx{0}, bits{0};
  uint64_t d0 = env.upload(sum), d1 = env.upload(mx), d2 = env.upload(mn), d3 = env.upload(bits), d4 = env.upload(a);
  run("atomics", Params(m.kernel("atomics")).set(0, d0).set(1, d1).set(2, d2).set(3, d3).set(4, d4).set(5, kN));
  host_grid([&] { atomics(sum.data(), mx.data(), mn.data(), bits.data(), a.data(), kN); });
  expect_same(env.download<int>(d0, 1), sum, "atomic add");
  expect_same(env.download<unsigned>(d1, 1), mx, "atomic max");
  expect_same(env.download<int>(d2, 1), mn, "atomic min");
  expect_same(env.download<unsigned>(d3, 1), bits, "atomic or");
}

INSTANTIATE_TEST_SUITE_P(Arch, Diff, ::testing::Values("sm_20", "sm_30", "sm_35", "O0.sm_35", "O3.sm_30"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (auto& c : s)
                             if (c == '.') c = '_';
                           return s;
                         });

}  // namespace
}  // namespace hetvp::gpu::ptx::test
