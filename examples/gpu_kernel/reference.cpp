// The host reference of tile_sum.cu: writes in.bin (n pseudo-random words), and the outputs the
// kernel must give, out.expected (n words) and total.expected (one word), for blocks of `block`
// threads. usage: tile_sum_reference N [BLOCK]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void write(const char* name, const std::vector<uint32_t>& v) {
  FILE* f = std::fopen(name, "wb");
  if (!f || std::fwrite(v.data(), 4, v.size(), f) != v.size()) {
    std::perror(name);
    std::exit(1);
  }
  std::fclose(f);
}

int main(int argc, char** argv) {
  const uint32_t n = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 0)) : 1000;
  const uint32_t block = argc > 2 ? uint32_t(std::strtoul(argv[2], nullptr, 0)) : 128;
  std::vector<uint32_t> in(n), out(n);
  uint32_t x = 12345;
  for (auto& w : in) w = (x = x * 1103515245u + 12345u) >> 8;
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t t = i % block, base = i - t;
    const uint32_t j = base + (t + 1) % block;
    uint32_t v = in[i] + (j < n ? in[j] : 0u);
    v = (t & 1) ? v * 3u + 1u : v ^ 0x5555u;
    out[i] = v;
    total += v;
  }
  write("in.bin", in);
  write("out.expected", out);
  write("total.expected", {total});
  std::printf("tile_sum reference: n %u, block %u, total %u\n", n, block, total);
  return 0;
}
