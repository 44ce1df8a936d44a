// Local memory laid out as Fermi and Kepler lay it out (exec.h local_address(), docs/ptx.md):
// word-interleaved across the lanes of a warp, so a warp's access to the same local word is 128
// contiguous bytes; 8- and 16-byte accesses reach the environment as one 4-byte access per word.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/gpu/ptx/ptx_files.h"

namespace hetvp::gpu::ptx::test {
namespace {

// A HostEnv that records every local access it is given.
struct RecordingEnv : HostEnv {
  struct Access {
    bool store;
    unsigned size;
    uint32_t mask;
    LaneArray<uint64_t> addr;
  };
  std::vector<Access> local;
  void mem(bool store, EnvSpace space, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
           uint8_t* data) override {
    if (space == EnvSpace::Local) local.push_back({store, size, mask, addr});
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

}  // namespace
}  // namespace hetvp::gpu::ptx::test
