#include "platform/calendar.h"

#include <iterator>

namespace hetvp {

sc_core::sc_time Calendar::reserve(sc_core::sc_time at, const sc_core::sc_time& len) {
  auto next = busy_.upper_bound(at);  // first block starting after `at`
  if (next != busy_.begin()) {
    auto prev = std::prev(next);
    if (prev->second > at) at = prev->second;  // `at` falls inside a block: start after it
  }
  while (next != busy_.end() && next->first < at + len) {  // too short a gap: try after the block
    at = next->second;
    ++next;
  }
  // Insert [at, at + len), merging with the block ending at `at` and the one starting at its end.
  sc_core::sc_time start = at, end = at + len;
  if (next != busy_.begin()) {
    auto prev = std::prev(next);
    if (prev->second == start) {
      start = prev->first;
      busy_.erase(prev);
    }
  }
  if (next != busy_.end() && next->first == end) {
    end = next->second;
    busy_.erase(next);
  }
  busy_[start] = end;
  return at;
}

void Calendar::forget_before(const sc_core::sc_time& t) {
  while (!busy_.empty() && busy_.begin()->second <= t) busy_.erase(busy_.begin());
}

}  // namespace hetvp
