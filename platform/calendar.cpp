#include "platform/calendar.h"

#include <algorithm>

namespace hetvp {

sc_core::sc_time Calendar::reserve(sc_core::sc_time at_time, const sc_core::sc_time& len_time) {
  uint64_t at = at_time.value();
  const uint64_t len = len_time.value();
  // Common case: at or after the last block (a stream, or an idle resource).
  if (head_ == busy_.size() || at >= busy_.back().end) {
    if (head_ != busy_.size() && busy_.back().end == at)
      busy_.back().end = at + len;
    else
      busy_.push_back({at, at + len});
    return at_time;
  }
  // The first block that ends after `at` (ends are sorted too: the blocks are disjoint).
  auto next = std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(head_), busy_.end(), at,
                               [](uint64_t t, const Block& b) { return t < b.end; });
  if (next->start <= at) at = next->end, ++next;         // `at` falls inside a block: start after it
  while (next != busy_.end() && next->start < at + len) {  // too short a gap: try after the block
    at = next->end;
    ++next;
  }
  // Insert [at, at + len) before `next`, merging with the block ending at `at` and the one
  // starting at its end.
  const uint64_t end = at + len;
  const auto first = busy_.begin() + static_cast<std::ptrdiff_t>(head_);
  const bool joins_prev = next != first && std::prev(next)->end == at;
  const bool joins_next = next != busy_.end() && next->start == end;
  if (joins_prev && joins_next) {
    std::prev(next)->end = next->end;
    busy_.erase(next);
  } else if (joins_prev) {
    std::prev(next)->end = end;
  } else if (joins_next) {
    next->start = at;
  } else {
    busy_.insert(next, {at, end});
  }
  return sc_core::sc_time::from_value(at);
}

void Calendar::forget_before(const sc_core::sc_time& t) {
  const uint64_t v = t.value();
  while (head_ < busy_.size() && busy_[head_].end <= v) ++head_;
  if (head_ == busy_.size()) {
    busy_.clear();
    head_ = 0;
  } else if (head_ > 64 && head_ * 2 > busy_.size()) {
    busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

}  // namespace hetvp
