// The coherence workloads' result checks, as pure functions (unit-tested on their own in
// tests/coherence/test_result_checks.cpp): how many results are wrong and the first wrong index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetvp::sw {

struct Mismatches {
  size_t count = 0;
  uint64_t first = 0;  // index into the result of the first wrong element (valid if count > 0)
  float got = 0, want = 0;
  void add(uint64_t index, float g, float w) {
    if (!count++) {
      first = index;
      got = g;
      want = w;
    }
  }
};

// square: c[i] == a[i]^2 for every i.
inline Mismatches check_squared(const std::vector<float>& a, const std::vector<float>& c) {
  Mismatches m;
  for (size_t i = 0; i < a.size(); ++i) {
    const float got = i < c.size() ? c[i] : 0.0f;
    if (i >= c.size() || got != a[i] * a[i]) m.add(i, got, a[i] * a[i]);
  }
  return m;
}

// MatrixTranspose and 2dshfl: out[y*W + x] == in[x*W + y] for every x, y < W.
inline Mismatches check_transposed(const std::vector<float>& in, const std::vector<float>& out, uint64_t W) {
  Mismatches m;
  for (uint64_t y = 0; y < W; ++y)
    for (uint64_t x = 0; x < W; ++x) {
      const uint64_t i = y * W + x;
      const float want = in[x * W + y], got = i < out.size() ? out[i] : 0.0f;
      if (i >= out.size() || got != want) m.add(i, got, want);
    }
  return m;
}

}  // namespace hetvp::sw
