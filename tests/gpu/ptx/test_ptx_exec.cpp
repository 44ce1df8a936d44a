// The executor on kernels with barriers, shared memory, shuffles, votes and atomics (hand-written
// host references), its errors (each message checked), bank conflicts, instruction fetch and timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <numeric>
#include <random>

#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

class Block : public ::testing::TestWithParam<const char*> {
 protected:
  Module m = load_file(std::string("block_kernels.") + GetParam() + ".ptx");
  HostEnv env{1 << 20};
  std::mt19937 gen{7};
  std::vector<int> ints(size_t n, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int> v(n);
    for (auto& x : v) x = d(gen);
    return v;
  }
  void run(const std::string& k, const Params& p, Dim3 grid, Dim3 block, uint32_t dyn = 0) {
    run_grid(make_launch(m, k, p, grid, block, dyn), env);
  }
  std::string error_of(const std::string& k, const Params& p, Dim3 grid, Dim3 block) {
    try {
      run(k, p, grid, block);
    } catch (const ExecError& e) {
      return e.what();
    }
    return "no error";
  }
};

TEST_P(Block, SharedTreeReductionWithBarriers) {
  auto a = ints(4 * 256, -1000, 1000);
  uint64_t da = env.upload(a), dout = env.alloc(4 * 4);
  run("reduce_sum", Params(m.kernel("reduce_sum")).set(0, dout).set(1, da), {4, 1, 1}, {256, 1, 1});
  auto out = env.download<int>(dout, 4);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(out[b], std::accumulate(a.begin() + b * 256, a.begin() + (b + 1) * 256, 0));
}

TEST_P(Block, TransposeAndBankConflicts) {
  const int n = 64;
  std::vector<float> in(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = float(i) * 0.5f;
  for (const char* k : {"transpose_conflicts", "transpose_padded"}) {
    HostEnv e{1 << 20};
    uint64_t din = e.upload(in), dout = e.alloc(n * n * 4);
    run_grid(make_launch(m, k, Params(m.kernel(k)).set(0, dout).set(1, din).set(2, n), {2, 2, 1}, {32, 8, 1}), e);
    auto out = e.download<float>(dout, n * n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) ASSERT_EQ(out[y * n + x], in[x * n + y]) << k << " at " << x << "," << y;
    if (std::string(k) == "transpose_conflicts") {
      EXPECT_EQ(e.max_degree, 32u) << "a column of a 32x32 float tile is in one bank";
      EXPECT_GT(e.shared_replays, 0u);
    } else {
      EXPECT_EQ(e.max_degree, 1u) << "the padded tile (33 columns) spreads a column over the 32 banks";
      EXPECT_EQ(e.shared_replays, 0u);
    }
  }
}

TEST_P(Block, WarpShufflesAndVotes) {
  const unsigned threads = 128;
  auto a = ints(threads, -50, 50);
  a[40] = -1;  // warp 1 has a negative value; make sure warps 0, 2, 3 do not
  for (unsigned i = 0; i < threads; ++i)
    if (i / 32 != 1) a[i] = std::abs(a[i]);
  uint64_t da = env.upload(a), ds = env.alloc(16), db = env.alloc(16), dm = env.alloc(threads * 4);
  run("warp_ops", Params(m.kernel("warp_ops")).set(0, ds).set(1, db).set(2, dm).set(3, da), {2, 1, 1}, {64, 1, 1});
  auto sums = env.download<int>(ds, 4);
  auto ballots = env.download<unsigned>(db, 4);
  auto mixed = env.download<int>(dm, threads);
  for (unsigned w = 0; w < 4; ++w) {
    int s = 0;
    unsigned b = 0;
    bool all = true;
    for (unsigned l = 0; l < 32; ++l) {
      s += a[w * 32 + l];
      b |= unsigned(a[w * 32 + l] & 1) << l;
      all = all && a[w * 32 + l] >= 0;
    }
    EXPECT_EQ(sums[w], s) << "warp " << w;
    EXPECT_EQ(ballots[w], b) << "warp " << w;
    for (unsigned l = 0; l < 32; ++l) {
      const int* v = &a[w * 32];
      int want = v[(l * 7) % 32] + (l >= 3 ? v[l - 3] : v[l]) * 3 + v[l ^ 5] * 5 + (all ? 1000 : 0);
      EXPECT_EQ(mixed[w * 32 + l], want) << "warp " << w << " lane " << l;
    }
  }
}

TEST_P(Block, SharedAndGlobalAtomicsHistogram) {
  const int n = 5000;
  std::vector<unsigned char> data(n);
  for (auto& x : data) x = uint8_t(gen());
  uint64_t dd = env.upload(data), dh = env.upload(std::vector<unsigned>(64, 0));
  run("histogram", Params(m.kernel("histogram")).set(0, dh).set(1, dd).set(2, n), {3, 1, 1}, {96, 1, 1});
  std::vector<unsigned> want(64, 0);
  for (auto x : data) ++want[(x >> 2) & 63];
  EXPECT_EQ(env.download<unsigned>(dh, 64), want);
}

TEST_P(Block, DynamicSharedMemory) {
  auto a = ints(3 * 100, 0, 1 << 20);
  uint64_t da = env.upload(a), dout = env.alloc(300 * 4);
  run("reverse_dyn", Params(m.kernel("reverse_dyn")).set(0, dout).set(1, da), {3, 1, 1}, {100, 1, 1}, 100 * 4);
  auto out = env.download<int>(dout, 300);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 100; ++t) EXPECT_EQ(out[b * 100 + t], a[b * 100 + 99 - t]);
  // Without the dynamic bytes the same kernel reads outside the shared window.
  HostEnv e;
  uint64_t ea = e.upload(a), eo = e.alloc(300 * 4);
  try {
    run_grid(make_launch(m, "reverse_dyn", Params(m.kernel("reverse_dyn")).set(0, eo).set(1, ea), {3, 1, 1}, {100, 1, 1}), e);
    ADD_FAILURE() << "no error";
  } catch (const ExecError& x) {
    EXPECT_NE(std::string(x.what()).find("out-of-bounds shared store of 4 bytes at shared address 0x0"), std::string::npos)
        << x.what();
  }
}

TEST_P(Block, SharedCompareAndSwapTickets) {
  uint64_t dout = env.alloc(2 * 64 * 4);
  run("tickets", Params(m.kernel("tickets")).set(0, dout), {2, 1, 1}, {64, 1, 1});
  auto out = env.download<int>(dout, 128);
  for (int b = 0; b < 2; ++b) {
    std::vector<int> t(out.begin() + b * 64, out.begin() + (b + 1) * 64);
    std::sort(t.begin(), t.end());
    for (int i = 0; i < 64; ++i) EXPECT_EQ(t[i], i);
  }
}

TEST_P(Block, BarrierOnlyPartOfAWarpReachesIsAnError) {
  uint64_t d = env.alloc(256);
  std::string e = error_of("bad_barrier", Params(m.kernel("bad_barrier")).set(0, d), {1, 1, 1}, {32, 1, 1});
  EXPECT_NE(e.find("kernel 'bad_barrier' block (0,0,0) threads (16,0,0), (17,0,0), (18,0,0), (19,0,0) and 12 more: "
                   "did not reach the barrier"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("block_kernels." + std::string(GetParam()) + ".ptx:"), std::string::npos) << e;
}

TEST_P(Block, ThreadsThatExitBeforeABarrierAreAnError) {
  uint64_t d = env.alloc(256);
  // A whole warp returns: the other waits at a barrier that never opens.
  std::string e =
      error_of("bad_early_exit", Params(m.kernel("bad_early_exit")).set(0, d).set(1, 32), {1, 1, 1}, {64, 1, 1});
  EXPECT_NE(e.find("kernel 'bad_early_exit' block (0,0,0) threads (32,0,0), (33,0,0), (34,0,0), (35,0,0) and 28 more "
                   "exited without reaching the barrier (bar.sync at block_kernels."),
            std::string::npos)
      << e;
  // Part of a warp returns: the rest of the warp reaches the barrier without them.
  e = error_of("bad_early_exit", Params(m.kernel("bad_early_exit")).set(0, d).set(1, 40), {1, 1, 1}, {64, 1, 1});
  EXPECT_NE(e.find("kernel 'bad_early_exit' block (0,0,0) threads (40,0,0), (41,0,0), (42,0,0), (43,0,0) and 20 more: "
                   "did not reach the barrier"),
            std::string::npos)
      << e;
}

TEST_P(Block, OutOfBoundsSharedLoadIsNamed) {
  uint64_t d = env.alloc(256);
  std::string e =
      error_of("bad_shared_index", Params(m.kernel("bad_shared_index")).set(0, d).set(1, 64), {1, 1, 1}, {64, 1, 1});
  EXPECT_NE(e.find("kernel 'bad_shared_index' block (0,0,0) thread (0,0,0): out-of-bounds shared load of 4 bytes at "
                   "shared address 0x100 (the shared window has 256 bytes)"),
            std::string::npos)
      << e;
}

TEST_P(Block, MisalignedSharedLoadIsNamed) {
  uint64_t d = env.alloc(256);
  std::string e =
      error_of("bad_shared_align", Params(m.kernel("bad_shared_align")).set(0, d).set(1, 2), {2, 1, 1}, {64, 1, 1});
  EXPECT_NE(e.find("kernel 'bad_shared_align' block (0,0,0) thread (0,0,0): misaligned shared load of 4 bytes at shared "
                   "address 0x2"),
            std::string::npos)
      << e;
}

INSTANTIATE_TEST_SUITE_P(Arch, Block, ::testing::Values("sm_30", "sm_35"));

// __syncthreads_count/_and/_or (bar.red) against a host reference: blocks of whole and partial
// warps, the results of one reduction feeding the next.
class BarRed : public ::testing::TestWithParam<const char*> {};

TEST_P(BarRed, ReductionsMatchTheHost) {
  const Module m = load_file(std::string("bar_red_kernels.") + GetParam() + ".ptx");
  std::mt19937 gen(11);
  for (const uint32_t threads : {96u, 40u, 1u}) {
    const uint32_t blocks = 3, n = threads * blocks;
    std::vector<int> in(n);
    for (int& v : in) v = int(gen() % 13) - 3;  // -3 .. 9
    in[0] = 7;                                   // block 0: some value > 5
    for (uint32_t t = threads; t < 2 * threads; ++t) in[t] = std::abs(in[t]) + 1;  // block 1: all positive,
    in[threads] = 8;                                                                   // one > 5
    HostEnv env;
    const uint64_t din = env.upload(in), dout = env.alloc(n * 4);
    run_grid(make_launch(m, "bar_reductions", Params(m.kernel("bar_reductions")).set(0, dout).set(1, din),
                         {blocks, 1, 1}, {threads, 1, 1}),
             env);
    const auto out = env.download<int>(dout, n);
    for (uint32_t b = 0; b < blocks; ++b) {
      int c = 0, c2 = 0, all = 1, any = 0;
      for (uint32_t t = b * threads; t < (b + 1) * threads; ++t) c += in[t] > 0, all &= in[t] > 0, any |= in[t] > 5;
      for (uint32_t t = b * threads; t < (b + 1) * threads; ++t) c2 += in[t] > c - 40;
      for (uint32_t t = b * threads; t < (b + 1) * threads; ++t)
        ASSERT_EQ(out[t], c * 1000000 + c2 * 1000 + all * 10 + any) << "threads " << threads << " block " << b << " t " << t;
    }
    EXPECT_EQ(out[threads] % 100, 11) << "block 1: all positive, one > 5";
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, BarRed, ::testing::Values("sm_20", "sm_35"));

// bar.red's forms: what the loader takes, what it refuses (located), and a block whose warps wait
// at different flavours of the barrier (PTX leaves it undefined: an error naming both).
TEST(BarRed, FormsAndMixedBarriers) {
  const std::string head = ".version 3.2\n.target sm_20\n.address_size 64\n.visible .entry k()\n{\n"
                           ".reg .pred %p<3>;\n.reg .b32 %r<3>;\nmov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n";
  auto error = [&](const std::string& body) -> std::string {
    try {
      const Module m = load(head + body + "ret;\n}\n", "k.ptx");
      HostEnv env;
      run_grid(make_launch(m, "k", Params(m.kernel("k")), {1, 1, 1}, {64, 1, 1}), env);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "ran";
  };
  EXPECT_EQ(error("bar.red.popc.u32 %r2, 0, %p1;\nbar.red.and.pred %p2, 0, !%p1;\nbar.red.or.pred %p2, 0, %p1;\n"),
            "ran");
  EXPECT_EQ(error("bar.red.popc.u64 %r2, 0, %p1;\n"), "k.ptx:10: unsupported instruction 'bar.red.popc.u64'");
  EXPECT_EQ(error("bar.red.and.u32 %r2, 0, %p1;\n"), "k.ptx:10: unsupported instruction 'bar.red.and.u32'");
  EXPECT_EQ(error("bar.red.u32 %r2, 0, %p1;\n"), "k.ptx:10: unsupported instruction 'bar.red.u32'");
  EXPECT_EQ(error("bar.red.popc.u32 %r2, 0, 64, %p1;\n"),
            "k.ptx:10: bar.red with a thread count is not supported (every thread of the block takes part)");
  EXPECT_EQ(error("bar.red.popc.u32 %r2, 1, %p1;\n"), "k.ptx:10: only barrier 0 is supported (named barriers are not)");
  // Warp 0 at bar.sync, warp 1 at bar.red.popc.
  EXPECT_EQ(error("setp.lt.u32 %p2, %r1, 32;\n@%p2 bra L1;\nbar.red.popc.u32 %r2, 0, %p1;\nbra.uni L2;\nL1:\n"
                  "bar.sync 0;\nL2:\n"),
            "kernel 'k' block (0,0,0) threads (32,0,0), (33,0,0), (34,0,0), (35,0,0) and 28 more: waits at a "
            "bar.red.popc while other threads of the block wait at a bar.sync (k.ptx:15) of the same barrier "
            "(k.ptx:12)");
}

TEST(PtxExec, MmulMatchesHostAndReportsFetchesAndClasses) {
  Module m = load_file("bench_kernels.sm_20.ptx");
  HostEnv env(1 << 20);
  const int n = 40;
  std::vector<unsigned> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = unsigned(i * 7 + 1), b[i] = unsigned(i * 3 + 5);
  uint64_t da = env.upload(a), db = env.upload(b), dc = env.alloc(n * n * 4);
  Launch l = make_launch(m, "mmul", Params(m.kernel("mmul")).set(0, dc).set(1, da).set(2, db).set(3, n), {3, 3, 1},
                         {16, 16, 1});
  uint64_t thread_instrs = run_grid(l, env);
  auto c = env.download<unsigned>(dc, n * n);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      unsigned s = 0;
      for (int i = 0; i < n; ++i) s += a[r * n + i] * b[i * n + col];
      ASSERT_EQ(c[r * n + col], s);
    }
  const FunctionInfo& k = m.kernel("mmul");
  EXPECT_EQ(env.lanes, thread_instrs);
  EXPECT_GE(env.last_fetch, l.code_base + k.code_offset);
  EXPECT_LT(env.last_fetch, l.code_base + k.code_offset + k.instr_count * kBytesPerInstr);
  EXPECT_EQ((env.last_fetch - l.code_base) % kBytesPerInstr, 0u);
  EXPECT_GT(env.issued[size_t(InstrClass::IntMul)], 0u);
  EXPECT_GT(env.issued[size_t(InstrClass::LdGlobal)], 0u);
  EXPECT_GT(env.issued[size_t(InstrClass::StGlobal)], 0u);
  EXPECT_GT(env.issued[size_t(InstrClass::Branch)], 0u);
}

uint32_t rev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1) << (31 - i);
  return r;
}

TEST(PtxExec, BuiltinsGivePtxResults) {
  Module m = load_file("builtin_kernels.sm_30.ptx");
  HostEnv env;
  std::mt19937 g(3);
  std::vector<int> a(32), b(32);
  for (int i = 0; i < 32; ++i) a[i] = int(g()), b[i] = int(g());
  a[0] = 0, b[0] = -1, a[1] = -5, b[1] = 9;
  uint64_t da = env.upload(a), db = env.upload(b), dout = env.alloc(32 * 8 * 4);
  run_grid(make_launch(m, "int_builtins", Params(m.kernel("int_builtins")).set(0, dout).set(1, da).set(2, db), {1, 1, 1},
                       {32, 1, 1}),
           env);
  auto out = env.download<int>(dout, 32 * 8);
  auto sext24 = [](int v) { return int64_t(int32_t(uint32_t(v) << 8) >> 8); };
  for (int i = 0; i < 32; ++i) {
    uint32_t x = uint32_t(a[i]), y = uint32_t(b[i]);
    uint64_t bytes = uint64_t(y) << 32 | x;
    uint32_t prmt = 0;
    const unsigned sel[4] = {6, 0, 7, 1};  // 0x1706, low nibble first
    for (int k = 0; k < 4; ++k) prmt |= uint32_t((bytes >> (8 * sel[k])) & 0xff) << (8 * k);
    const int* o = &out[i * 8];
    EXPECT_EQ(uint32_t(o[0]), rev32(x)) << i;
    EXPECT_EQ(uint32_t(o[1]), prmt) << i;
    EXPECT_EQ(o[2], int32_t(uint32_t(sext24(a[i]) * sext24(b[i])))) << i;
    EXPECT_EQ(uint32_t(o[3]), 7u + (a[i] < b[i] ? y - x : x - y)) << i;
    EXPECT_EQ(o[4], int32_t((int64_t(a[i]) * b[i]) >> 32)) << i;
    EXPECT_EQ(o[5], __builtin_clz(x | 1) + __builtin_popcount(y)) << i;
    EXPECT_EQ(uint32_t(o[6]), rev32(uint32_t(uint64_t(int64_t(a[i])) >> 32))) << i;
    EXPECT_EQ(uint32_t(o[7]), (x & 0xffffff) * (y & 0xffffff)) << i;
  }
  std::vector<float> f(32);
  std::vector<double> d(32);
  for (int i = 0; i < 32; ++i) f[i] = (float(i) - 15.5f) * 0.75f, d[i] = (double(i) - 10.25) * 1e3 + 0.1;
  f[3] = 2.5f, f[4] = -2.5f, f[5] = 0.5f, f[6] = 3e9f;
  uint64_t dio = env.alloc(32 * 16), dfo = env.alloc(32 * 16), ddo = env.alloc(32 * 16), df = env.upload(f), dd = env.upload(d);
  run_grid(make_launch(m, "float_builtins",
                       Params(m.kernel("float_builtins")).set(0, dio).set(1, dfo).set(2, ddo).set(3, df).set(4, dd),
                       {1, 1, 1}, {32, 1, 1}),
           env);
  auto io = env.download<int>(dio, 32 * 4);
  auto fo = env.download<float>(dfo, 32 * 4);
  auto dout2 = env.download<double>(ddo, 32 * 2);
  auto to_int = [](double v) { return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : int(v); };
  for (int i = 0; i < 32; ++i) {
    float x = f[i];
    EXPECT_EQ(io[i * 4 + 0], to_int(std::nearbyint(double(x)))) << i;  // .rni: to nearest even
    EXPECT_EQ(io[i * 4 + 1], to_int(std::floor(double(x)))) << i;
    EXPECT_EQ(io[i * 4 + 2], to_int(std::ceil(double(x)))) << i;
    EXPECT_EQ(io[i * 4 + 3], to_int(std::trunc(d[i]))) << i;
    EXPECT_EQ(fo[i * 4 + 0], std::min(1.f, std::max(0.f, x))) << i;
    float approx = std::exp2(x * 0.01f) + std::sin(x) + 1.f / std::sqrt(x * x + 1.f);
    if (std::isfinite(approx)) EXPECT_NEAR(fo[i * 4 + 1], approx, 1e-5 * (1 + std::fabs(approx))) << i;
    else EXPECT_EQ(fo[i * 4 + 1], approx) << i;
    std::fesetround(FE_TOWARDZERO);
    volatile float one_e9 = 1e-9f, xv = x;
    float rz = xv + one_e9;
    volatile double zv = d[i];
    float d2f = float(zv);
    std::fesetround(FE_TONEAREST);
    EXPECT_EQ(fo[i * 4 + 2], rz) << i;
    EXPECT_EQ(fo[i * 4 + 3], std::copysign(2.5f, x)) << i;
    EXPECT_EQ(dout2[i * 2 + 0], 1.0 / d[i] + std::fma(d[i], d[i], 1.0)) << i;
    EXPECT_EQ(dout2[i * 2 + 1], double(d2f)) << i;
  }
  EXPECT_EQ(io[3 * 4 + 0], 2) << "2.5 rounds to even";
  EXPECT_EQ(io[4 * 4 + 0], -2);
  EXPECT_EQ(io[6 * 4 + 2], INT32_MAX) << "float to int saturates";
}

TEST(PtxExec, LaunchChecks) {
  Module m = load_file("bench_kernels.sm_20.ptx");
  HostEnv env;
  Launch l = make_launch(m, "vadd", Params(m.kernel("vadd")), {1, 1, 1}, {2048, 1, 1});
  EXPECT_THROW(BlockExec(l, env), ExecError);
  l.block = {64, 1, 1};
  l.params.resize(4);
  try {
    BlockExec b(l, env);
    ADD_FAILURE();
  } catch (const ExecError& e) {
    EXPECT_STREQ(e.what(), "kernel 'vadd': parameter buffer of 4 bytes, the kernel takes 32");
  }
}

TEST(PtxTiming, IssueCostsFromTheThroughputTable) {
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm20, InstrClass::F32), 1.0);       // 32 ops/clk/SM
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm30, InstrClass::F32), 32.0 / 192);
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm20, InstrClass::IntMul), 2.0);    // 16
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm30, InstrClass::F64), 4.0);       // 8
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm35, InstrClass::F64), 0.5);       // 64
  EXPECT_DOUBLE_EQ(issue_cycles(Arch::Sm20, InstrClass::Sfu), 8.0);       // 4
  EXPECT_GT(issue_cycles(Arch::Sm20, InstrClass::F32Div), issue_cycles(Arch::Sm20, InstrClass::Sfu));
  EXPECT_GT(issue_cycles(Arch::Sm20, InstrClass::IntDiv), issue_cycles(Arch::Sm20, InstrClass::IntMul));
  EXPECT_STREQ(to_string(InstrClass::LdShared), "ld_shared");
}

}  // namespace
}  // namespace hetvp::gpu::ptx::test
