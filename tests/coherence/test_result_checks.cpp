// The coherence workloads' own result checks: every element is compared, corners included.
#include <gtest/gtest.h>

#include "sw/coherence/result_checks.h"

using namespace hetvp::sw;

namespace {
std::vector<float> transpose(const std::vector<float>& in, uint64_t W) {
  std::vector<float> out(W * W);
  for (uint64_t y = 0; y < W; ++y)
    for (uint64_t x = 0; x < W; ++x) out[y * W + x] = in[x * W + y];
  return out;
}
}  // namespace

TEST(ResultChecks, SquaredFindsEveryWrongElement) {
  std::vector<float> a{1, 2, 3, 4}, c{1, 4, 9, 16};
  EXPECT_EQ(check_squared(a, c).count, 0u);
  c[3] = 15;
  c[0] = 0;
  const Mismatches m = check_squared(a, c);
  EXPECT_EQ(m.count, 2u);
  EXPECT_EQ(m.first, 0u);
  EXPECT_EQ(m.got, 0.0f);
  EXPECT_EQ(m.want, 1.0f);
  EXPECT_EQ(check_squared(a, {1, 4, 9}).count, 1u) << "a missing result is wrong";
}

TEST(ResultChecks, TransposedChecksEveryCornerAndNamesTheFirst) {
  const uint64_t W = 5;
  std::vector<float> in(W * W);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i * 7 % 23);
  const std::vector<float> good = transpose(in, W);
  EXPECT_EQ(check_transposed(in, good, W).count, 0u);
  for (uint64_t bad : {uint64_t(0), W - 1, (W - 1) * W, W * W - 1, W + 2}) {
    std::vector<float> out = good;
    out[bad] += 1;
    const Mismatches m = check_transposed(in, out, W);
    EXPECT_EQ(m.count, 1u) << bad;
    EXPECT_EQ(m.first, bad);
    EXPECT_EQ(m.got, good[bad] + 1);
    EXPECT_EQ(m.want, good[bad]);
  }
  EXPECT_GT(check_transposed(in, in, W).count, 0u) << "an untransposed matrix is wrong";
  EXPECT_EQ(check_transposed(in, std::vector<float>(good.begin(), good.end() - 1), W).count, 1u)
      << "a missing result is wrong";
}
