// PTX executor speed (docs/benchmarks.md, "PTX executor"): thread instructions per wall second on one
// core, with the host-memory environment of the tests, for Gdev's mmul (256 x 256, 16 x 16 blocks)
// and a memory-bound vector add (4 Mi elements, 256-thread blocks).
//
//   bench_ptx <bench_kernels.sm_XX.ptx> [mmul_n] [vadd_n]
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/gpu/ptx/host_env.h"

using namespace hetvp::gpu::ptx;
using hetvp::gpu::ptx::test::HostEnv;
using hetvp::gpu::ptx::test::Params;

namespace {

// Wall time and this process's CPU time (the machine may be shared: CPU time is the one-core figure).
struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
};

void report(const char* name, uint64_t thread_instrs, uint64_t warp_instrs, const Clock& t0) {
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0.wall).count();
  double cpu = double(std::clock() - t0.cpu) / CLOCKS_PER_SEC;
  std::printf("%-5s %11llu thread-instr %10llu warp-instr  wall %7.3f s %7.1f M/s  cpu %7.3f s %7.1f M/s\n", name,
              static_cast<unsigned long long>(thread_instrs), static_cast<unsigned long long>(warp_instrs), wall,
              thread_instrs / wall / 1e6, cpu, thread_instrs / cpu / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s bench_kernels.sm_XX.ptx [mmul_n] [vadd_n]\n", argv[0]);
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream text;
  text << f.rdbuf();
  const int n = argc > 2 ? std::atoi(argv[2]) : 256;
  const int vn = argc > 3 ? std::atoi(argv[3]) : 4 << 20;
  try {
    Module m = load(text.str(), argv[1]);
    {
      HostEnv env(size_t(n) * n * 12 + 4096);
      std::vector<uint32_t> a(size_t(n) * n), b(size_t(n) * n);
      for (size_t i = 0; i < a.size(); ++i) a[i] = uint32_t(i), b[i] = uint32_t(i * 3);
      uint64_t da = env.upload(a), db = env.upload(b), dc = env.alloc(a.size() * 4);
      Launch l;
      l.module = &m;
      l.kernel = m.kernel_index(m.kernel("mmul"));
      l.grid = {uint32_t((n + 15) / 16), uint32_t((n + 15) / 16), 1};
      l.block = {16, 16, 1};
      l.params = Params(m.kernel("mmul")).set(0, dc).set(1, da).set(2, db).set(3, n).bytes();
      BlockExec e(l, env);
      Clock t0;
      for (uint32_t y = 0; y < l.grid.y; ++y)
        for (uint32_t x = 0; x < l.grid.x; ++x) {
          e.start({x, y, 0});
          e.run();
        }
      report("mmul", e.thread_instructions(), e.warp_instructions(), t0);
      // spot check
      uint32_t s = 0;
      for (int i = 0; i < n; ++i) s += a[size_t(n - 1) * n + i] * b[size_t(i) * n + n - 1];
      if (env.download<uint32_t>(dc + (size_t(n) * n - 1) * 4, 1)[0] != s) {
        std::fprintf(stderr, "mmul: wrong result\n");
        return 1;
      }
    }
    {
      HostEnv env(size_t(vn) * 12 + 4096);
      std::vector<float> a(vn, 1.5f), b(vn, 2.25f);
      uint64_t da = env.upload(a), db = env.upload(b), dc = env.alloc(size_t(vn) * 4);
      Launch l;
      l.module = &m;
      l.kernel = m.kernel_index(m.kernel("vadd"));
      l.grid = {uint32_t((vn + 255) / 256), 1, 1};
      l.block = {256, 1, 1};
      l.params = Params(m.kernel("vadd")).set(0, dc).set(1, da).set(2, db).set(3, vn).bytes();
      BlockExec e(l, env);
      Clock t0;
      for (uint32_t x = 0; x < l.grid.x; ++x) {
        e.start({x, 0, 0});
        e.run();
      }
      report("vadd", e.thread_instructions(), e.warp_instructions(), t0);
      if (env.download<float>(dc + (size_t(vn) - 1) * 4, 1)[0] != 3.75f) {
        std::fprintf(stderr, "vadd: wrong result\n");
        return 1;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
