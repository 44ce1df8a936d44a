// hetvp bench — invalidation engine speed: RTL cycles per wall second on a long random history,
// and TLM vs RTL vs lockstep wall time on a square N=300,000-like history
// (3 arrays x 18,750 lines of 64 B, written sequentially). Numbers: docs/benchmarks.md "RTL engine".
//   bench_rtl_engine [--lines N] [--reps R] [--vcd-lines N]
#include "models/coherence/invalidation_engine.h"
#include "rtl/lockstep_invalidation_engine.h"
#include "rtl/rtl_invalidation_engine.h"
#include "tests/rtl/random_history.h"

#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

using namespace hetvp;
using coherence::EngineParams;
using Clock = std::chrono::steady_clock;

namespace {

struct Bench : sc_core::sc_module {
  SC_HAS_PROCESS(Bench);
  uint64_t lines = 2000000, reps = 20, vcd_lines = 100000;
  std::unique_ptr<coherence::InvalidationEngine> tlm, rtl, lockstep, vcd;
  Bench(sc_core::sc_module_name n, int argc, char** argv) : sc_module(n) {
    for (int i = 1; i + 1 < argc; i += 2) {
      if (!std::strcmp(argv[i], "--lines"))
        lines = std::strtoull(argv[i + 1], nullptr, 0);
      else if (!std::strcmp(argv[i], "--reps"))
        reps = std::strtoull(argv[i + 1], nullptr, 0);
      else if (!std::strcmp(argv[i], "--vcd-lines"))
        vcd_lines = std::strtoull(argv[i + 1], nullptr, 0);
    }
    EngineParams p;  // defaults: 64 B lines, max_range 256, 4 runs, 48-bit addresses, 1 GHz
    tlm = coherence::make_tlm_engine(p);
    rtl = rtl::make_rtl_engine(p, "rtl");
    lockstep = rtl::make_lockstep_engine(p, "lockstep");
    EngineParams vp = p;
    vp.vcd_file = "bench_rtl_engine";
    if (vcd_lines) vcd = rtl::make_rtl_engine(vp, "rtl_vcd");
    SC_THREAD(run);
  }

  static double secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

  void run() {
    // 1. RTL cycles per wall second, long random history
    {
      const auto h = test::random_history(1, lines, uint64_t(1) << 30);
      sc_core::sc_time d;
      const uint64_t c0 = rtl->cycles();
      const auto t0 = Clock::now();
      const auto out = rtl->translate(h, d);
      const auto t1 = Clock::now();
      const uint64_t c = rtl->cycles() - c0;
      std::printf("random history: %llu lines -> %zu ranges\n", (unsigned long long)h.size(), out.size());
      std::printf("  rtl      : %llu cycles in %.3f s = %.2f M cycles/s (simulated %s)\n", (unsigned long long)c,
                  secs(t0, t1), c / secs(t0, t1) / 1e6, d.to_string().c_str());
      sc_core::sc_time dt;
      const auto t2 = Clock::now();
      tlm->translate(h, dt);
      const auto t3 = Clock::now();
      std::printf("  tlm      : %.3f s = %.2f M lines/s (modelled %s)\n", secs(t2, t3), h.size() / secs(t2, t3) / 1e6,
                  dt.to_string().c_str());
      sc_core::sc_time dl;
      const auto t4 = Clock::now();
      lockstep->translate(h, dl);
      const auto t5 = Clock::now();
      std::printf("  lockstep : %.3f s\n", secs(t4, t5));
    }
    // 2. square N=300,000-like history
    {
      std::vector<uint64_t> h;
      for (uint64_t a = 0; a < 3; ++a)
        for (uint64_t i = 0; i < 18750; ++i) h.push_back(0x100000 + a * 0x10000 + i);
      std::printf("square-like history: %zu lines, %llu repetitions\n", h.size(), (unsigned long long)reps);
      struct E {
        const char* name;
        coherence::InvalidationEngine* e;
      };
      for (E x : {E{"tlm", tlm.get()}, E{"rtl", rtl.get()}, E{"lockstep", lockstep.get()}}) {
        sc_core::sc_time d;
        size_t ranges = 0;
        const uint64_t c0 = x.e->cycles();
        const auto t0 = Clock::now();
        for (uint64_t r = 0; r < reps; ++r) ranges = x.e->translate(h, d).size();
        const auto t1 = Clock::now();
        std::printf("  %-8s: %zu ranges, %llu cycles/history, %.3f ms/history (wall)\n", x.name, ranges,
                    (unsigned long long)((x.e->cycles() - c0) / reps), secs(t0, t1) * 1e3 / reps);
      }
      EngineParams pl;
      pl.max_range = 1;
      std::printf("  per-line mode (max_range=1): %zu requests\n", coherence::RangeBuilder::run(pl, h).size());
    }
    // 3. timed mode with VCD
    if (vcd) {
      const auto h = test::random_history(2, vcd_lines, uint64_t(1) << 30);
      sc_core::sc_time d;
      const auto t0 = Clock::now();
      vcd->translate(h, d);
      const auto t1 = Clock::now();
      std::printf("timed mode + VCD (bench_rtl_engine.vcd): %llu cycles in %.3f s = %.2f M cycles/s\n",
                  (unsigned long long)vcd->cycles(), secs(t0, t1), vcd->cycles() / secs(t0, t1) / 1e6);
    }
    sc_core::sc_stop();
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  Bench b("bench", argc, argv);
  sc_core::sc_start();
  return 0;
}
