// What the executor hands the environment for memory (docs/ptx.md, "Memory"): local memory laid out
// as Fermi and Kepler lay it out (exec.h local_address()), word-interleaved across the lanes of a
// warp, so a warp's access to the same local word is 128 contiguous bytes, 8- and 16-byte accesses
// as one 4-byte access per word; ld.cv / st.wt as uncached system-scope accesses (EnvSpace::System).
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

// A HostEnv that records every access it is given.
struct RecordingEnv : HostEnv {
  struct Access {
    bool store;
    unsigned size;
    uint32_t mask;
    LaneArray<uint64_t> addr;
    EnvSpace space;
  };
  std::vector<Access> local, all;
  void mem(bool store, EnvSpace space, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
           uint8_t* data) override {
    all.push_back({store, size, mask, addr, space});
    if (space == EnvSpace::Local) local.push_back(all.back());
    HostEnv::mem(store, space, addr, mask, size, data);
  }
};

TEST(PtxLocal, AddressesInterleaveWordsAcrossTheLanesOfAWarp) {
  // Thread 37 (warp 1, lane 5) of a block with 12-byte frames (rounded: whole words).
  EXPECT_EQ(local_address(0x1000, 12, 37, 0), 0x1000u + 32 * 12 + 5 * 4);
  EXPECT_EQ(local_address(0x1000, 12, 37, 9), 0x1000u + 32 * 12 + 2 * 128 + 5 * 4 + 1);
  EXPECT_EQ(local_address(0, 10, 32, 0), 32u * 12) << "a frame is whole words";
  EXPECT_EQ(local_block_bytes(12, 40), 2u * 32 * 12) << "a partial warp keeps the 32-lane interleave";
  EXPECT_EQ(local_block_bytes(0, 64), 0u);
}

TEST(PtxLocal, AccessesOfTwoToSixteenBytesAreCorrectAndWordInterleaved) {
  const Module m = load_file("local_kernels.sm_30.ptx");
  const FunctionInfo& k = m.kernel("local_layout");
  const uint32_t threads = 40, frame = k.local_bytes;  // a full warp and a partial one
  ASSERT_GT(frame, 0u);
  RecordingEnv env;
  std::mt19937 gen(5);
  std::vector<int> idx(threads);
  for (int& x : idx) x = int(gen() % 64);
  const uint64_t didx = env.upload(idx), d32 = env.alloc(threads * 4), d64 = env.alloc(threads * 8),
                 d128 = env.alloc(threads * 16), d16 = env.alloc(threads * 4);
  Params p(k);
  p.set(0, d32).set(1, d64).set(2, d128).set(3, d16).set(4, didx);
  run_grid(make_launch(m, "local_layout", p, {1, 1, 1}, {threads, 1, 1}), env);

  const auto o32 = env.download<int>(d32, threads), o16 = env.download<int>(d16, threads),
             o128 = env.download<int>(d128, threads * 4);
  const auto o64 = env.download<long long>(d64, threads);
  for (uint32_t t = 0; t < threads; ++t) {
    const int kk = idx[t], c = (kk >> 2) & 3;
    EXPECT_EQ(o32[t], int(t * 100 + (kk & 7))) << t;
    EXPECT_EQ(o64[t], (long long)t << 33 | (kk & 3)) << t;
    EXPECT_EQ(o16[t], int(short(t * 4 + ((kk >> 1) & 3)))) << t;
    EXPECT_EQ(o128[4 * t], int(t)) << t;
    EXPECT_EQ(o128[4 * t + 1], c) << t;
    EXPECT_EQ(o128[4 * t + 2], -int(t)) << t;
    EXPECT_EQ(o128[4 * t + 3], 7 * c) << t;
  }

  // Every access the environment saw: at most 4 bytes, each lane inside its own word of its warp's
  // area, inside the block's local memory.
  const uint64_t base = HostEnv::kLocalBase, frame_b = local_frame_bytes(frame);
  std::map<unsigned, unsigned> by_size;
  for (const RecordingEnv::Access& a : env.local) {
    ++by_size[a.size];
    ASSERT_LE(a.size, 4u);
    for (unsigned l = 0; l < kWarpLanes; ++l) {
      if (!(a.mask >> l & 1)) continue;
      ASSERT_GE(a.addr[l], base);
      const uint64_t rel = a.addr[l] - base, warp = rel / (kWarpLanes * frame_b), in_warp = rel % (kWarpLanes * frame_b);
      ASSERT_LT(rel, local_block_bytes(frame, threads));
      EXPECT_EQ(in_warp % 128 / 4, l) << "lane " << l << " outside its word column";
      EXPECT_LE(in_warp % 4 + a.size, 4u) << "an access crosses its lane's word";
      EXPECT_LT(warp, 2u);
    }
  }
  // The stores of the first warp (full): 8 x 4 B + 4 x 8 B (2 words each) + 4 x 2 B + 4 x 16 B (4 words
  // each) = 36 accesses of one 128-byte row each: lane l in the row's word l.
  unsigned rows = 0;
  for (const RecordingEnv::Access& a : env.local) {
    if (!a.store || a.mask != 0xffffffffu) continue;
    ++rows;
    for (unsigned l = 0; l < kWarpLanes; ++l) EXPECT_EQ((a.addr[l] & ~uint64_t(3)) - (a.addr[0] & ~uint64_t(3)), 4 * l) << l;
    EXPECT_EQ((a.addr[0] - base) % 128, a.addr[0] % 4) << "rows are 128-byte aligned";
  }
  EXPECT_EQ(rows, 8u + 4 * 2 + 4 + 4 * 4);
  EXPECT_EQ(by_size.count(8), 0u);
  EXPECT_EQ(by_size.count(16), 0u);
  EXPECT_GT(by_size[2], 0u);
}

// ld.cv ("fetch again") and st.wt ("write through to system memory") are uncached system-scope
// accesses; every other cache operator (.volatile, .ca, .cg, ...) is a hint on an ordinary access.
TEST(PtxSystemScope, CvLoadsAndWtStoresAreUncachedOthersAreOrdinary) {
  const Module m = load(R"(.version 3.2
.target sm_30
.address_size 64
.visible .entry sys(.param .u64 p)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	ld.global.cv.u32 %r1, [%rd1];
	add.s32 %r2, %r1, 1;
	st.global.wt.u32 [%rd1+4], %r2;
	ld.volatile.global.u32 %r3, [%rd1+4];
	ld.global.ca.u32 %r4, [%rd1];
	add.s32 %r3, %r3, %r4;
	st.global.cg.u32 [%rd1+8], %r3;
	ret;
}
)", "sys.ptx");
  RecordingEnv env;
  const uint64_t d = env.upload(std::vector<uint32_t>{41, 0, 0});
  Params p(m.kernel("sys"));
  p.set(0, d);
  run_grid(make_launch(m, "sys", p, {1, 1, 1}, {1, 1, 1}), env);
  EXPECT_EQ(env.download<uint32_t>(d, 3), (std::vector<uint32_t>{41, 42, 83}));
  ASSERT_EQ(env.all.size(), 5u);
  const EnvSpace want[] = {EnvSpace::System, EnvSpace::System, EnvSpace::Global, EnvSpace::Global, EnvSpace::Global};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(int(env.all[i].space), int(want[i])) << i;
  EXPECT_EQ(env.system_accesses, 2u);
  // PTX has no st.cv or ld.wt: refused at load time, located.
  for (const char* bad : {"st.global.cv.u32 [%rd1], %r1;", "ld.global.wt.u32 %r1, [%rd1];"}) {
    try {
      load(std::string(".version 3.2\n.target sm_30\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                       ".reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n") +
               bad + "\nret;\n}\n",
           "k.ptx");
      ADD_FAILURE() << bad << " loaded";
    } catch (const LoadError& e) {
      const std::string op = std::string(bad).substr(0, std::string(bad).find(' '));
      EXPECT_EQ(std::string(e.what()), "k.ptx:9: unsupported instruction '" + op + "'");
    }
  }
}

}  // namespace
}  // namespace hetvp::gpu::ptx::test
