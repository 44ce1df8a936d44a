#include "platform/calendar.h"

#include <algorithm>

namespace hetvp {

// A binary search whose step is a conditional move, not a branch: the branches of
// std::partition_point were mispredicted half the time, and this search within a run was half of
// Calendar::reserve's time (#31).
size_t Calendar::first_ending_after(const Block* b, size_t n, uint64_t at) {
  const Block* first = b;
  while (n > 1) {
    const size_t half = n / 2;
    first += half * static_cast<size_t>(first[half - 1].end <= at);  // arithmetic, so no branch
    n -= half;
  }
  return static_cast<size_t>(first - b) + (n == 1 && first->end <= at);
}

sc_core::sc_time Calendar::reserve(sc_core::sc_time at_time, const sc_core::sc_time& len_time) {
  uint64_t at = at_time.value();
  const uint64_t len = len_time.value();
  // Common case: at or after the last block (a stream, or an idle resource).
  if (at >= last_end_) {  // (also when there is no block: last_end_ is 0 then)
    if (!runs_.empty() && last_end_ == at) {
      runs_.back().back().end = at + len;
    } else {
      if (runs_.empty() || runs_.back().size() == kMaxRun) runs_.push_back(new_run());
      runs_.back().push_back(Block{at, at + len});
      ++blocks_;
      first_end_ = std::min(first_end_, at + len);
    }
    last_end_ = at + len;
    return at_time;
  }
  // The first block that ends after `at` (ends are sorted too: the blocks are disjoint): first
  // its run, then its place in the run.
  Pos next;
  next.r = static_cast<size_t>(
      std::partition_point(runs_.begin(), runs_.end(), [at](const Run& run) { return run.back().end <= at; }) -
      runs_.begin());
  const Run& run = runs_[next.r];
  const size_t lo = next.r ? 0 : head_;
  next.i = lo + first_ending_after(run.data() + lo, run.size() - lo, at);
  if (blk(next).start <= at) at = blk(next).end, advance(next);  // `at` falls inside a block: start after it
  while (!is_end(next) && blk(next).start < at + len) {          // too short a gap: try after the block
    at = blk(next).end;
    advance(next);
  }
  // Insert [at, at + len) before `next`, merging with the block ending at `at` and the one
  // starting at its end.
  const uint64_t end = at + len;
  const bool first = next.r == 0 && next.i == head_;
  Block* prev = first ? nullptr : next.i ? &runs_[next.r][next.i - 1] : &runs_[next.r - 1].back();
  const bool joins_prev = prev && prev->end == at;
  const bool joins_next = !is_end(next) && blk(next).start == end;
  if (joins_prev && joins_next) {
    prev->end = blk(next).end;
    erase(next);
  } else if (joins_prev) {
    prev->end = end;
  } else if (joins_next) {
    blk(next).start = at;
  } else {
    insert(next, Block{at, end});
    first_end_ = std::min(first_end_, end);
  }
  last_end_ = runs_.back().back().end;  // changed if the request went past the last block
  return sc_core::sc_time::from_value(at);
}

void Calendar::insert(Pos p, Block b) {
  ++blocks_;
  if (is_end(p)) {  // after the last block: the last run, or a new one when it is full
    if (runs_.empty() || runs_.back().size() == kMaxRun) runs_.push_back(new_run());
    runs_.back().push_back(b);
    return;
  }
  Run& run = runs_[p.r];
  if (p.r == 0 && head_) {  // drop runs_[0]'s forgotten blocks before moving the rest
    run.erase(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(head_));
    p.i -= head_;
    head_ = 0;
  }
  run.insert(run.begin() + static_cast<std::ptrdiff_t>(p.i), b);
  if (run.size() > kMaxRun) {  // split the run in two halves
    Run upper = new_run();
    upper.assign(run.begin() + static_cast<std::ptrdiff_t>(kMaxRun / 2), run.end());
    run.resize(kMaxRun / 2);
    runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(p.r + 1), std::move(upper));
  }
}

void Calendar::erase(Pos p) {
  --blocks_;
  Run& run = runs_[p.r];
  run.erase(run.begin() + static_cast<std::ptrdiff_t>(p.i));
  if (p.r == 0 && head_ == run.size()) {  // nothing live left in the first run
    drop_run(0);
    head_ = 0;
  } else if (run.empty()) {
    drop_run(p.r);
  }
}

Calendar::Run Calendar::new_run() {
  if (spare_.empty()) {
    Run run;
    run.reserve(kMaxRun + 1);
    return run;
  }
  Run run = std::move(spare_.back());
  spare_.pop_back();
  run.clear();
  return run;
}

void Calendar::drop_run(size_t r) {
  spare_.push_back(std::move(runs_[r]));
  runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(r));
}

void Calendar::forget_before(const sc_core::sc_time& t) {
  const uint64_t v = t.value();
  if (first_end_ > v) return;
  while (!runs_.empty() && runs_[0][head_].end <= v) {
    --blocks_;
    if (++head_ == runs_[0].size()) {
      drop_run(0);
      head_ = 0;
    }
  }
  first_end_ = runs_.empty() ? UINT64_MAX : runs_[0][head_].end;
  if (runs_.empty()) last_end_ = 0;
}

}  // namespace hetvp
