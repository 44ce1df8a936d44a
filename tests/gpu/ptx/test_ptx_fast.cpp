// The executor's fast paths (exec_fast.cpp's specialised handlers, straight runs fetched and issued
// at once) against its general path (Launch::general_path_only): the same results in memory, the
// same counters and the same sequence of calls to the environment (every fetch address, issue
// class and lane count, memory access with its addresses and data), in the same order.
#include <gtest/gtest.h>

#include <random>

#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

// HostEnv that folds every call it gets, in order, into a hash.
class TracingEnv : public HostEnv {
 public:
  using HostEnv::HostEnv;
  uint64_t trace = 1469598103934665603ull;
  uint64_t calls = 0;

  void fetch(uint64_t address) override {
    mix(1, address);
    HostEnv::fetch(address);
  }
  void issue(InstrClass c, unsigned active_lanes) override {
    mix(2, uint64_t(c) << 8 | active_lanes);
    HostEnv::issue(c, active_lanes);
  }
  void mem(bool store, EnvSpace space, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
           uint8_t* data) override {
    if (store) mix_data(mask, size, data);
    HostEnv::mem(store, space, addr, mask, size, data);
    mix(3, uint64_t(store) << 40 | uint64_t(space) << 36 | uint64_t(size) << 32 | mask);
    for (unsigned l = 0; l < kWarpLanes; ++l)
      if (mask >> l & 1) mix(4, addr[l]);
    if (!store) mix_data(mask, size, data);
  }
  void shared_access(bool store, unsigned degree) override {
    mix(5, uint64_t(store) << 32 | degree);
    HostEnv::shared_access(store, degree);
  }

 private:
  void mix(uint64_t kind, uint64_t v) {
    ++calls;
    for (uint64_t x : {kind, v})
      for (int i = 0; i < 8; ++i) trace = (trace ^ ((x >> (8 * i)) & 0xff)) * 1099511628211ull;
  }
  void mix_data(uint32_t mask, unsigned size, const uint8_t* data) {
    for (unsigned l = 0; l < kWarpLanes; ++l)
      if (mask >> l & 1)
        for (unsigned b = 0; b < size; ++b) trace = (trace ^ data[l * size + b]) * 1099511628211ull;
  }
};

struct Outcome {
  uint64_t trace, calls, warp_instrs, thread_instrs;
  std::vector<uint8_t> memory;
};

// Runs `kernel` on a fresh environment holding `inputs` (uploaded in order; the first `outputs`
// bytes of the heap are read back), through the fast paths or the general path only.
Outcome run_kernel(const Module& m, const std::string& kernel, const std::vector<std::vector<uint8_t>>& inputs,
                   const std::vector<uint64_t>& scalars, Dim3 grid, Dim3 block, bool general) {
  TracingEnv env(1 << 20);
  const FunctionInfo& k = m.kernel(kernel);
  Params p(k);
  unsigned i = 0;
  std::vector<uint64_t> addrs;
  for (const auto& in : inputs) addrs.push_back(env.upload(in));
  for (uint64_t a : addrs) p.set(i++, a);
  for (uint64_t s : scalars) {
    if (k.params[i].size == 4) p.set(i++, uint32_t(s));
    else p.set(i++, s);
  }
  Launch l = make_launch(m, kernel, p, grid, block);
  l.general_path_only = general;
  BlockExec b(l, env);
  for (uint32_t y = 0; y < grid.y; ++y)
    for (uint32_t x = 0; x < grid.x; ++x) {
      b.start({x, y, 0}, HostEnv::kLocalBase);
      b.run();
    }
  Outcome o{env.trace, env.calls, b.warp_instructions(), b.thread_instructions(), {}};
  size_t bytes = 0;
  for (const auto& in : inputs) bytes += (in.size() + 255) / 256 * 256;
  o.memory = env.download<uint8_t>(HostEnv::kGlobalBase, bytes);
  return o;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

void expect_same_path(const Module& m, const std::string& kernel, const std::vector<std::vector<uint8_t>>& inputs,
                      const std::vector<uint64_t>& scalars, Dim3 grid, Dim3 block) {
  SCOPED_TRACE(kernel);
  const Outcome fast = run_kernel(m, kernel, inputs, scalars, grid, block, false);
  const Outcome general = run_kernel(m, kernel, inputs, scalars, grid, block, true);
  EXPECT_GT(fast.calls, 0u);
  EXPECT_EQ(fast.calls, general.calls);
  EXPECT_EQ(fast.trace, general.trace) << "the environment saw another sequence of calls";
  EXPECT_EQ(fast.warp_instrs, general.warp_instrs);
  EXPECT_EQ(fast.thread_instrs, general.thread_instrs);
  EXPECT_TRUE(fast.memory == general.memory) << "results in memory differ";
}

class Fast : public ::testing::TestWithParam<const char*> {
 protected:
  std::mt19937 gen{11};
  std::vector<int> ints(size_t n, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int> v(n);
    for (auto& x : v) x = d(gen);
    for (size_t i = 0; i < n; i += 13) v[i] = int(i % 7) - 3;  // zeros, -1, small values
    return v;
  }
  std::vector<float> reals(size_t n, float lo, float hi) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = d(gen);
    return v;
  }
};

// 300 threads in blocks of 128: a partly full last warp and block; divergent branches and loops,
// guards, calls, integer/float arithmetic of every width the fast handlers take.
TEST_P(Fast, DiffKernelsMatchTheGeneralPath) {
  const Module m = load_file(std::string("diff_kernels.") + GetParam() + ".ptx");
  const int n = 300;
  const Dim3 grid{3, 1, 1}, block{128, 1, 1};
  auto a = ints(n, -(1 << 30), 1 << 30), b = ints(n, -1000, 1000);
  std::vector<int> out(n * 16, 0), small(n, 0);
  std::vector<float> fo(n * 8, 0), x = reals(n, -100, 100), y = reals(n, -100, 100);
  std::vector<double> dout(n * 3, 0), d(n, 1.25);
  expect_same_path(m, "int_ops", {bytes_of(out), bytes_of(a), bytes_of(b)}, {n}, grid, block);
  expect_same_path(m, "branchy", {bytes_of(small), bytes_of(a)}, {n}, grid, block);
  expect_same_path(m, "saxpy", {bytes_of(y), bytes_of(x)}, {0x3fe00000u /* 1.75f */, n}, grid, block);
  expect_same_path(m, "float_math", {bytes_of(fo), bytes_of(dout), bytes_of(x), bytes_of(y), bytes_of(d)}, {n}, grid,
                   block);
  expect_same_path(m, "calls", {bytes_of(small), bytes_of(fo), bytes_of(b)}, {n}, grid, block);
}

INSTANTIATE_TEST_SUITE_P(Arch, Fast, ::testing::Values("sm_20", "sm_35", "O0.sm_35"), [](const auto& info) {
  std::string s = info.param;
  for (auto& c : s)
    if (c == '.') c = '_';
  return s;
});

// Gdev's mmul (bench kernels): 16x16 blocks (8 warps each), a loop of loads, mad and compares.
TEST(FastPath, MmulMatchesTheGeneralPath) {
  const Module m = load_file("bench_kernels.sm_20.ptx");
  const unsigned n = 24;
  std::vector<unsigned> a(n * n), b(n * n), c(n * n, 0);
  for (unsigned i = 0; i < n * n; ++i) a[i] = i * 7 + 1, b[i] = i * 3 + 5;
  expect_same_path(m, "mmul", {bytes_of(c), bytes_of(a), bytes_of(b)}, {n}, {2, 2, 1}, {16, 16, 1});
}

}  // namespace
}  // namespace hetvp::gpu::ptx::test
