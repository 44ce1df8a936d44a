// An allocator of one address range that frees and reuses (the driver's VRAM and the GPU virtual
// addresses of VRAM buffers: sw/driver/gpu_driver.h). Every allocation is one contiguous block:
// a buffer's bytes lie back to back (the copy engines, BAR1 and the coherence study's range
// invalidation see it as one range). Free blocks are kept sorted and coalesced with their free
// neighbours; `first_fit` takes the lowest block that holds a request (with no frees it places
// buffers exactly as a bump allocator does, so layouts without cuMemFree do not change),
// `best_fit` the smallest one (ties: the lowest), `next_fit` the first one at or after the end of
// the previous allocation, wrapping around (freed addresses come back only after the rest of the
// range is used: the driver's GPU virtual addresses, so that a stale pointer faults).
//
// It keeps the addresses it handed out, so a free names what is wrong: a second free of a block
// (double free) and a free of an address it never handed out (or one inside a live block) are told
// apart. Nothing here touches the GPU: the driver writes the page tables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace hetvp::sw {

enum class Fit { First, Best, Next };

class VramAllocator {
 public:
  // The range [base, base + size).
  VramAllocator(uint64_t base = 0, uint64_t size = 0, Fit fit = Fit::First);

  // `size` bytes (> 0) at an address that is a multiple of `align` (a power of two); nullopt
  // when no free block holds them.
  std::optional<uint64_t> alloc(uint64_t size, uint64_t align = 1);

  enum class FreeResult { Ok, DoubleFree, NeverAllocated };
  // Frees the block that starts at `addr`; its bytes join their free neighbours.
  FreeResult free(uint64_t addr);

  // The live block that starts at `addr` (its size), or 0 when none does.
  uint64_t size_of(uint64_t addr) const;
  // The start of the live block that holds `addr`, or nullopt.
  std::optional<uint64_t> block_containing(uint64_t addr) const;
  // Whether `addr` was the start of a block that was freed and not handed out again since.
  bool was_freed(uint64_t addr) const { return freed_.count(addr) != 0; }

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t used_bytes() const { return size_ - free_bytes_; }
  uint64_t largest_free() const;
  size_t free_blocks() const { return free_.size(); }
  size_t live_blocks() const { return used_.size(); }
  // "12582912 bytes free in 2 blocks, the largest 8388608 bytes": for out-of-memory messages.
  std::string describe_free() const;

 private:
  uint64_t base_ = 0, size_ = 0, free_bytes_ = 0;
  Fit fit_ = Fit::First;
  std::map<uint64_t, uint64_t> free_;  // start -> size: disjoint, never adjacent (coalesced)
  std::map<uint64_t, uint64_t> used_;  // start -> size of each live block
  std::set<uint64_t> freed_;           // starts of freed blocks not handed out again
  uint64_t cursor_ = 0;                // next_fit: where the previous allocation ended
};

}  // namespace hetvp::sw
