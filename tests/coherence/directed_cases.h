// hetvp tests — directed cases for the invalidation engine, shared by the RangeBuilder/TLM tests
// (tests/coherence) and the RTL tests (tests/rtl). Expected outputs are written out by hand from
// the rules in docs/invalidation_engine.md.
#pragma once

#include "models/coherence/invalidation_engine.h"

#include <string>
#include <vector>

namespace hetvp::test {

using coherence::EngineParams;
using coherence::LineRange;

struct DirectedCase {
  std::string name;
  EngineParams params;
  std::vector<uint64_t> lines;
  std::vector<LineRange> expected;  // {first, count, input_pos}
};

inline EngineParams params(unsigned max_range = 256, unsigned open_runs = 4, unsigned addr_bits = 48,
                           unsigned line_bytes = 64) {
  EngineParams p;
  p.max_range = max_range;
  p.open_runs = open_runs;
  p.addr_bits = addr_bits;
  p.line_bytes = line_bytes;
  return p;
}

inline std::vector<uint64_t> iota(uint64_t from, uint64_t n) {
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}

inline std::vector<DirectedCase> directed_cases() {
  const uint64_t top42 = (uint64_t(1) << 42) - 1;  // default: 48-bit addresses, 64 B lines
  const uint64_t top62 = (uint64_t(1) << 62) - 1;  // widest supported: 64-bit addresses, 4 B lines
  std::vector<DirectedCase> c;
  c.push_back({"empty", params(), {}, {}});
  c.push_back({"one_line", params(), {5}, {{5, 1, 1}}});
  c.push_back({"long_run", params(), iota(1000, 200), {{1000, 200, 200}}});
  // duplicates of lines inside the open run are dropped
  c.push_back({"dup_inside_run", params(), {10, 11, 12, 11, 10, 13, 12}, {{10, 4, 7}}});
  // one slot: 20 evicts [10,12); the later write to 10 is not remembered -> a second request
  c.push_back({"dup_after_emission", params(256, 1), {10, 11, 20, 10, 11}, {{10, 2, 2}, {20, 1, 3}, {10, 2, 5}}});
  // descending: one run per line; the 5th and 6th new runs evict the oldest (9 then 8)
  c.push_back(
      {"descending", params(), {9, 8, 7, 6, 5, 4}, {{9, 1, 4}, {8, 1, 5}, {7, 1, 6}, {6, 1, 6}, {5, 1, 6}, {4, 1, 6}}});
  c.push_back({"two_interleaved", params(), {100, 200, 101, 201, 102, 202, 103}, {{100, 4, 7}, {200, 3, 7}}});
  // two slots, runs 10/20/30/40: a growing run keeps its age (10 stays the oldest after 11)
  c.push_back(
      {"eviction_order", params(256, 2), {10, 20, 11, 30, 21, 40}, {{10, 2, 3}, {20, 2, 5}, {30, 1, 6}, {40, 1, 6}}});
  // split at max_range=4: a full run is emitted by the next line, which starts a new run
  c.push_back({"split_max_range", params(4), iota(0, 10), {{0, 4, 4}, {4, 4, 8}, {8, 2, 10}}});
  // split then the rest of the slots keep their age order: run A=[0,..) full at 2 lines
  c.push_back({"split_age", params(2, 2), {0, 50, 1, 2, 51, 52}, {{0, 2, 3}, {50, 2, 5}, {2, 1, 6}, {52, 1, 6}}});
  // top of the 42-bit line space: the run ending at 2^42 does not wrap to line 0
  c.push_back({"top_of_space_42", params(), {top42 - 2, top42 - 1, top42, 0, 1}, {{top42 - 2, 3, 5}, {0, 2, 5}}});
  c.push_back({"top_of_space_62", params(256, 4, 64, 4), {top62 - 1, top62, 0, top62}, {{top62 - 1, 2, 4}, {0, 1, 4}}});
  // per-line mode (max_range = 1): every line that is not a duplicate of an open run is a request
  c.push_back(
      {"per_line", params(1), {1, 2, 3, 2, 1, 5}, {{1, 1, 1}, {2, 1, 2}, {3, 1, 6}, {2, 1, 6}, {1, 1, 6}, {5, 1, 6}}});
  c.push_back({"per_line_dup_in_window", params(1), {7, 7, 9, 7}, {{7, 1, 4}, {9, 1, 4}}});
  return c;
}

}  // namespace hetvp::test
