// The driver's VRAM allocator (sw/driver/vram_allocator.h): first fit and best fit, alignment,
// coalescing of free neighbours, reuse, and the errors a free can meet.
#include <gtest/gtest.h>

#include "sw/driver/vram_allocator.h"

using hetvp::sw::Fit;
using hetvp::sw::VramAllocator;
using R = VramAllocator::FreeResult;

TEST(VramAllocator, WithoutFreesFirstFitPlacesBuffersLikeABumpAllocator) {
  VramAllocator a(0x1000000, 0x100000);
  EXPECT_EQ(a.alloc(0x1000, 0x1000), 0x1000000u);
  EXPECT_EQ(a.alloc(0x3000, 0x1000), 0x1001000u);
  EXPECT_EQ(a.alloc(0x1000, 0x1000), 0x1004000u);
  EXPECT_EQ(a.used_bytes(), 0x5000u);
  EXPECT_EQ(a.free_blocks(), 1u);
}

TEST(VramAllocator, AFreedBlockIsReusedAndItsNeighboursCoalesce) {
  VramAllocator a(0, 0x10000);
  const uint64_t x = *a.alloc(0x1000), y = *a.alloc(0x2000), z = *a.alloc(0x1000);
  EXPECT_EQ(a.free(y), R::Ok);
  EXPECT_EQ(a.free_blocks(), 2u);  // the hole and the tail
  EXPECT_EQ(a.alloc(0x1000), y) << "first fit takes the hole";
  EXPECT_EQ(a.free(x), R::Ok);
  EXPECT_EQ(a.free(y), R::Ok);  // joins x's block: one hole [0, 0x3000)
  EXPECT_EQ(a.free_blocks(), 2u);
  EXPECT_EQ(a.largest_free(), 0x10000u - 0x4000u);
  EXPECT_EQ(a.alloc(0x3000), 0u) << "the coalesced hole holds what neither part did";
  EXPECT_EQ(a.free(z), R::Ok);
  EXPECT_EQ(a.free(0), R::Ok);
  EXPECT_EQ(a.free_blocks(), 1u) << "everything free is one block again";
  EXPECT_EQ(a.free_bytes(), 0x10000u);
  EXPECT_EQ(a.live_blocks(), 0u);
}

TEST(VramAllocator, AlignmentLeavesThePaddingFree) {
  VramAllocator a(0, 0x10000);
  EXPECT_EQ(a.alloc(0x100), 0u);
  EXPECT_EQ(a.alloc(0x1000, 0x1000), 0x1000u);
  EXPECT_EQ(a.alloc(0x800, 0x100), 0x100u) << "the padding before the aligned block is still free";
  EXPECT_EQ(a.alloc(0x1000, 0x3000), std::nullopt) << "not a power of two";
  EXPECT_EQ(a.alloc(0), std::nullopt);
}

TEST(VramAllocator, BestFitTakesTheSmallestHoleThatHolds) {
  VramAllocator a(0, 0x20000, Fit::Best);
  const uint64_t big = *a.alloc(0x4000);
  a.alloc(0x1000);
  const uint64_t small = *a.alloc(0x2000);
  a.alloc(0x1000);
  a.free(big);
  a.free(small);
  EXPECT_EQ(a.alloc(0x2000), small) << "best fit: the 8 KiB hole, not the 16 KiB one before it";
  VramAllocator f(0, 0x20000, Fit::First);
  const uint64_t fbig = *f.alloc(0x4000);
  f.alloc(0x1000);
  const uint64_t fsmall = *f.alloc(0x2000);
  f.alloc(0x1000);
  f.free(fbig);
  f.free(fsmall);
  EXPECT_EQ(f.alloc(0x2000), fbig) << "first fit: the lowest hole";
}

TEST(VramAllocator, DoubleFreeAndNeverAllocatedAreToldApart) {
  VramAllocator a(0x1000, 0x10000);
  const uint64_t x = *a.alloc(0x2000);
  EXPECT_EQ(a.free(x + 0x1000), R::NeverAllocated) << "inside a live block";
  EXPECT_EQ(a.block_containing(x + 0x1000), x);
  EXPECT_EQ(a.free(0x50000), R::NeverAllocated);
  EXPECT_EQ(a.free(x), R::Ok);
  EXPECT_TRUE(a.was_freed(x));
  EXPECT_EQ(a.free(x), R::DoubleFree);
  EXPECT_EQ(a.alloc(0x1000), x) << "reused";
  EXPECT_FALSE(a.was_freed(x)) << "handed out again: freeing it is legal once more";
  EXPECT_EQ(a.free(x), R::Ok);
}

TEST(VramAllocator, OutOfSpaceIsNulloptAndTheFreeSpaceIsDescribed) {
  VramAllocator a(0, 0x10000);
  const uint64_t x = *a.alloc(0x4000);
  a.alloc(0x4000);
  const uint64_t z = *a.alloc(0x4000);
  a.free(x);
  a.free(z);
  EXPECT_EQ(a.free_bytes(), 0xc000u);
  EXPECT_EQ(a.alloc(0x9000), std::nullopt) << "enough bytes free, but no block holds them";
  EXPECT_EQ(a.describe_free(), "49152 bytes free in 2 blocks, the largest 32768 bytes");
}

// Many allocations and frees in a fixed pseudo-random order: the books always balance and the
// free blocks stay coalesced (freeing everything leaves one block).
TEST(VramAllocator, RandomTrafficKeepsTheBooksBalanced) {
  VramAllocator a(0x10000, 1 << 20);
  std::vector<uint64_t> live;
  uint32_t s = 12345;
  auto rnd = [&] { return s = s * 1103515245u + 12345u, s >> 8; };
  for (int i = 0; i < 2000; ++i) {
    if (live.empty() || rnd() % 3) {
      const uint64_t size = 1 + rnd() % 0x3000, align = 1ull << (rnd() % 13);
      if (auto at = a.alloc(size, align)) {
        EXPECT_EQ(*at % align, 0u);
        live.push_back(*at);
      }
    } else {
      const size_t k = rnd() % live.size();
      EXPECT_EQ(a.free(live[k]), R::Ok);
      live.erase(live.begin() + long(k));
    }
    uint64_t used = 0;
    for (uint64_t b : live) used += a.size_of(b);
    ASSERT_EQ(a.used_bytes(), used) << "step " << i;
  }
  for (uint64_t b : live) EXPECT_EQ(a.free(b), R::Ok);
  EXPECT_EQ(a.free_blocks(), 1u);
  EXPECT_EQ(a.free_bytes(), 1u << 20);
}

// Next fit (the driver's GPU virtual addresses): a freed block comes back only once the allocations
// have gone round the range, so a stale address stays unmapped for as long as possible.
TEST(VramAllocator, NextFitReusesAFreedBlockOnlyAfterWrappingAround) {
  VramAllocator a(0, 0x10000, Fit::Next);
  const uint64_t x = *a.alloc(0x4000);
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(a.alloc(0x4000), 0x4000u) << "without frees: back to back, as first fit";
  a.free(x);
  EXPECT_EQ(a.alloc(0x4000), 0x8000u) << "not the freed block at 0: the cursor is at 0x8000";
  EXPECT_EQ(a.alloc(0x4000), 0xc000u);
  EXPECT_EQ(a.alloc(0x4000), 0u) << "the range is used up to its end: wrap around to the freed block";
  EXPECT_EQ(a.alloc(0x1000), std::nullopt);
  a.free(0x8000);
  EXPECT_EQ(a.alloc(0x1000, 0x2000), 0x8000u);
  EXPECT_EQ(a.alloc(0x1000), 0x9000u) << "continues after the previous allocation, inside the same free block";
}
