// Kepler's memory path (issue #25, docs/kepler.md): the coalescing examples of the Kepler seed
// (seeds/kepler-memory-coalescing) on the Kepler config and on the Fermi config, in one test.
// The load mode comes from the chip each config names (gpu_chips.h L1_GLOBAL), not from the test.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/coalescer.h"
#include "tests/common/run_hetvp.h"

namespace hetvp::gpu {
namespace {

// The chip a configuration's gpu0 names ("hetvp" when it names none: GF100's layout).
const GpuChip* chip_of(const std::string& config) {
  const YAML::Node root = YAML::LoadFile(hetvp::test::source_dir() + "/configs/" + config);
  const YAML::Node c = root["gpu0"]["chip"];
  return c ? find_gpu_chip(c.as<std::string>()) : nullptr;
}

WarpRequest warp(AccessMode mode, uint64_t (*addr)(unsigned)) {
  WarpRequest r;
  r.mode = mode;
  for (unsigned l = 0; l < kWarpSize; ++l) r.addr[l] = addr(l);
  return r;
}

struct Counts {
  size_t transactions;
  uint64_t bytes;
};
Counts run(AccessMode mode, uint64_t (*addr)(unsigned)) {
  const CoalesceResult r = coalesce(warp(mode, addr));
  EXPECT_EQ(r.replays, r.transactions.size() - 1);
  return {r.transactions.size(), r.bytes};
}

// The seed's patterns (32 threads x 4 B):
uint64_t contiguous(unsigned l) { return 0x1000 + 4 * l; }                    // one 128 B-aligned block
uint64_t two_segments(unsigned l) { return 0x1040 + 2 * (l & ~1u) % 64; }     // all inside 64 B (64 B-aligned)
uint64_t three_segments(unsigned l) { return 0x1000 + 64 * (l % 3) + 0; }     // segments 0, 2 and 4: not contiguous
uint64_t permuted(unsigned l) { return 0x1000 + 4 * ((l * 7) % 32); }         // same block, lanes out of order
uint64_t scattered(unsigned l) { return 0x10000 + 256 * l; }                  // 32 different 128 B blocks

TEST(CoalescerKepler, SeedExamplesOnTheKeplerAndFermiConfigs) {
  const GpuChip* kepler = chip_of("gk104_nouveau.yaml");
  const GpuChip* fermi = chip_of("gf100_nouveau.yaml");
  ASSERT_NE(kepler, nullptr);
  EXPECT_STREQ(kepler->name, "gk104");
  EXPECT_EQ(fermi, nullptr);  // hetvp's generic GPU: GF100's
  const AccessMode k = global_load_mode(kepler), f = global_load_mode(fermi);
  // Kepler: global loads bypass L1 and go to L2 in 32 B segments (non-caching); Fermi: L1, 128 B.
  EXPECT_EQ(k, AccessMode::NonCachingLoad);
  EXPECT_EQ(f, AccessMode::CachingLoad);

  // Contiguous, 128 B-aligned: one 4-segment access on Kepler, one 128 B line on Fermi.
  EXPECT_EQ(run(k, contiguous).transactions, 1u);
  EXPECT_EQ(run(k, contiguous).bytes, 128u);
  EXPECT_EQ(run(f, contiguous).transactions, 1u);
  // Within two contiguous segments, 64 B-aligned: one 2-segment access (64 B) on Kepler; Fermi
  // still reads the whole 128 B line.
  EXPECT_EQ(run(k, two_segments).transactions, 1u);
  EXPECT_EQ(run(k, two_segments).bytes, 64u);
  EXPECT_EQ(run(f, two_segments).transactions, 1u);
  EXPECT_EQ(run(f, two_segments).bytes, 128u);
  // Three non-contiguous segments: three 1-segment accesses (2 replays) on Kepler; they lie in two
  // 128 B lines (0x1000, 0x1080), so two accesses on Fermi.
  EXPECT_EQ(run(k, three_segments).transactions, 3u);
  EXPECT_EQ(run(k, three_segments).bytes, 96u);
  EXPECT_EQ(run(f, three_segments).transactions, 2u);
  // Permuted inside one 128 B block: one access on both, no replay.
  EXPECT_EQ(run(k, permuted).transactions, 1u);
  EXPECT_EQ(run(f, permuted).transactions, 1u);
  // Fully scattered: 32 accesses on both, 32 B each on Kepler, 128 B each on Fermi.
  EXPECT_EQ(run(k, scattered).transactions, 32u);
  EXPECT_EQ(run(k, scattered).bytes, 32u * 32);
  EXPECT_EQ(run(f, scattered).bytes, 32u * 128);
}

TEST(CoalescerKepler, YamlOverrideAndBadMode) {
  const GpuChip* kepler = find_gpu_chip("gk110");
  ASSERT_NE(kepler, nullptr);
  EXPECT_EQ(global_load_mode(kepler, "caching"), AccessMode::CachingLoad);
  EXPECT_EQ(global_load_mode(nullptr, "non_caching"), AccessMode::NonCachingLoad);
  EXPECT_THROW(global_load_mode(kepler, "sometimes"), std::invalid_argument);
  // Every Kepler row of the table bypasses L1 for global loads, every Fermi row caches them.
  for (unsigned i = 0; i < gpu_chip_count(); ++i) {
    const GpuChip& c = gpu_chips_begin()[i];
    EXPECT_EQ(c.l1_caches_global_loads, c.name[1] == 'f') << c.name;
  }
}

}  // namespace
}  // namespace hetvp::gpu
