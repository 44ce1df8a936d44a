#include "sw/driver/vram_allocator.h"

#include <iterator>

namespace hetvp::sw {

VramAllocator::VramAllocator(uint64_t base, uint64_t size, Fit fit)
    : base_(base), size_(size), free_bytes_(size), fit_(fit), cursor_(base) {
  if (size) free_[base] = size;
}

std::optional<uint64_t> VramAllocator::alloc(uint64_t size, uint64_t align) {
  if (size == 0 || align == 0 || (align & (align - 1))) return std::nullopt;
  // Where in a free block [start, start + bytes) the request fits (its aligned address), if it does.
  auto fits = [&](uint64_t start, uint64_t bytes) -> std::optional<uint64_t> {
    const uint64_t pad = (align - start % align) % align;
    if (pad > bytes || size > bytes - pad) return std::nullopt;
    return start + pad;
  };
  auto chosen = free_.end();
  uint64_t at = 0;
  if (fit_ == Fit::Next) {
    // From the cursor to the end (the block holding the cursor counts from the cursor), then from
    // the start of the range.
    auto it = free_.upper_bound(cursor_);
    if (it != free_.begin()) {
      const auto prev = std::prev(it);
      if (cursor_ - prev->first < prev->second)
        if (const auto a = fits(cursor_, prev->first + prev->second - cursor_)) chosen = prev, at = *a;
    }
    for (auto i = it; chosen == free_.end() && i != free_.end(); ++i)
      if (const auto a = fits(i->first, i->second)) chosen = i, at = *a;
    for (auto i = free_.begin(); chosen == free_.end() && i != it; ++i)
      if (const auto a = fits(i->first, i->second)) chosen = i, at = *a;
  } else {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const auto a = fits(it->first, it->second);
      if (!a) continue;
      if (chosen == free_.end() || (fit_ == Fit::Best && it->second < chosen->second)) {
        chosen = it;
        at = *a;
        if (fit_ == Fit::First) break;
      }
    }
  }
  if (chosen == free_.end()) return std::nullopt;
  cursor_ = at + size;
  // Split the block: what lies before the aligned address and after the request stays free.
  const uint64_t start = chosen->first, bytes = chosen->second;
  free_.erase(chosen);
  if (at > start) free_[start] = at - start;
  if (at + size < start + bytes) free_[at + size] = start + bytes - (at + size);
  used_[at] = size;
  free_bytes_ -= size;
  // Addresses of freed blocks inside the new one are live again: a free of them is no double free.
  freed_.erase(freed_.lower_bound(at), freed_.lower_bound(at + size));
  return at;
}

VramAllocator::FreeResult VramAllocator::free(uint64_t addr) {
  const auto u = used_.find(addr);
  if (u == used_.end()) return freed_.count(addr) ? FreeResult::DoubleFree : FreeResult::NeverAllocated;
  const uint64_t end = addr + u->second;
  free_bytes_ += u->second;
  used_.erase(u);
  freed_.insert(addr);
  // Coalesce with the free block that ends where this one starts and the one that starts where it ends.
  uint64_t start = addr;
  const auto next = free_.lower_bound(addr);
  if (next != free_.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second == addr) {
      start = prev->first;
      free_.erase(prev);
    }
  }
  uint64_t stop = end;
  const auto after = free_.find(end);
  if (after != free_.end()) {
    stop = end + after->second;
    free_.erase(after);
  }
  free_[start] = stop - start;
  return FreeResult::Ok;
}

uint64_t VramAllocator::size_of(uint64_t addr) const {
  const auto u = used_.find(addr);
  return u == used_.end() ? 0 : u->second;
}

std::optional<uint64_t> VramAllocator::block_containing(uint64_t addr) const {
  auto it = used_.upper_bound(addr);
  if (it == used_.begin()) return std::nullopt;
  --it;
  if (addr - it->first < it->second) return it->first;
  return std::nullopt;
}

uint64_t VramAllocator::largest_free() const {
  uint64_t m = 0;
  for (const auto& [start, bytes] : free_) m = bytes > m ? bytes : m;
  return m;
}

std::string VramAllocator::describe_free() const {
  return std::to_string(free_bytes_) + " bytes free in " + std::to_string(free_.size()) +
         (free_.size() == 1 ? " block" : " blocks") + ", the largest " + std::to_string(largest_free()) + " bytes";
}

}  // namespace hetvp::sw
