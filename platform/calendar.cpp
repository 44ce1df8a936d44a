#include "platform/calendar.h"

#include <algorithm>

namespace hetvp {

sc_core::sc_time Calendar::reserve(sc_core::sc_time at, const sc_core::sc_time& len) {
  // Common case: at or after the last block (a stream, or an idle resource).
  if (busy_.empty() || at >= busy_.back().second) {
    if (!busy_.empty() && busy_.back().second == at)
      busy_.back().second = at + len;
    else
      busy_.emplace_back(at, at + len);
    return at;
  }
  // The first block that ends after `at` (ends are sorted too: the blocks are disjoint).
  auto next = std::upper_bound(busy_.begin(), busy_.end(), at,
                               [](const sc_core::sc_time& t, const auto& b) { return t < b.second; });
  if (next->first <= at) at = next->second, ++next;        // `at` falls inside a block: start after it
  while (next != busy_.end() && next->first < at + len) {  // too short a gap: try after the block
    at = next->second;
    ++next;
  }
  // Insert [at, at + len) before `next`, merging with the block ending at `at` and the one
  // starting at its end.
  const sc_core::sc_time end = at + len;
  const bool joins_prev = next != busy_.begin() && std::prev(next)->second == at;
  const bool joins_next = next != busy_.end() && next->first == end;
  if (joins_prev && joins_next) {
    std::prev(next)->second = next->second;
    busy_.erase(next);
  } else if (joins_prev) {
    std::prev(next)->second = end;
  } else if (joins_next) {
    next->first = at;
  } else {
    busy_.emplace(next, at, end);
  }
  return at;
}

void Calendar::forget_before(const sc_core::sc_time& t) {
  while (!busy_.empty() && busy_.front().second <= t) busy_.pop_front();
}

}  // namespace hetvp
