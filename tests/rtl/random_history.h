// hetvp tests — seeded random write histories mixing sequential runs, interleaved streams,
// duplicates of recent lines, jumps and short descending bursts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace hetvp::test {

inline std::vector<uint64_t> random_history(uint32_t seed, size_t n, uint64_t space) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v;
  uint64_t cur[3] = {rng() % space, rng() % space, rng() % space};
  while (v.size() < n) {
    switch (rng() % 6) {
      case 0:
      case 1: {  // sequential run on one stream
        auto& c = cur[rng() % 3];
        for (unsigned k = unsigned(rng() % 300); k-- && c < space;) v.push_back(c++);
        break;
      }
      case 2:  // interleave the three streams
        for (unsigned k = unsigned(rng() % 20); k--;)
          for (auto& c : cur)
            if (c < space) v.push_back(c++);
        break;
      case 3:  // duplicates of recent lines
        for (unsigned k = unsigned(rng() % 4); k-- && !v.empty();)
          v.push_back(v[v.size() - 1 - rng() % std::min<size_t>(v.size(), 64)]);
        break;
      case 4:  // jump
        cur[rng() % 3] = rng() % space;
        break;
      case 5: {  // short descending burst
        uint64_t b = rng() % space;
        for (unsigned k = unsigned(rng() % 5); k-- && b > 0;) v.push_back(b--);
        break;
      }
    }
  }
  v.resize(n);
  return v;
}

}  // namespace hetvp::test
