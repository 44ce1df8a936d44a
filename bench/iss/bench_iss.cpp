// bench_iss — ISS speed: instructions per host second on a CPU-bound RV32IM C program
// (firmware/tests/bench_loop.c), pure core (no SystemC), DMI on and off, on each of the core's run
// paths: blocks translated to host code (the default), threaded blocks, the interpreter (--no-jit).
// Time is the process's CPU time (the benchmark machines are shared).
//
// usage: bench_iss [--instructions N] [--repeat R] [ELF]
#include "models/mcu/rv32/core.h"
#include "platform/elf_image.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace hetvp::mcu;

namespace {

struct Mem {
  uint32_t base, size;
  std::vector<uint8_t> bytes;
};

// With DMI off the owner serves every data access; this is the cheapest such owner.
struct MemBus final : BusIf {
  std::vector<Mem>* mems = nullptr;
  uint8_t* at(uint32_t a, uint32_t n) {
    for (auto& m : *mems)
      if (a - m.base < m.size && m.size - (a - m.base) >= n) return m.bytes.data() + (a - m.base);
    return nullptr;
  }
  bool read(uint32_t a, uint32_t n, uint32_t& v, uint64_t&) override {
    uint8_t* p = at(a, n);
    if (!p) return false;
    v = 0;
    std::memcpy(&v, p, n);
    return true;
  }
  bool write(uint32_t a, uint32_t n, uint32_t v, uint64_t&) override {
    uint8_t* p = at(a, n);
    if (!p) return false;
    std::memcpy(p, &v, n);
    return true;
  }
};

struct Result {
  uint64_t instructions = 0, cycles = 0;
  double seconds = 0;
};

enum class Path { translated, threaded, interp };
const char* path_name(Path p) {
  return p == Path::translated ? "translated" : p == Path::threaded ? "threaded" : "interp";
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

Result run_once(const hetvp::ElfImage& img, bool dmi, Path path, uint64_t n) {
  std::vector<Mem> mems = {{0x00000000, 1u << 20, {}}, {0x10000000, 1u << 20, {}}};
  for (auto& m : mems) m.bytes.assign(m.size, 0);
  for (const auto& s : img.segments())
    for (auto& m : mems)
      if (s.vaddr - m.base < m.size) std::copy(s.data.begin(), s.data.end(), m.bytes.begin() + (s.vaddr - m.base));
  MemBus bus;
  bus.mems = &mems;
  rv32::Rv32Core core;
  core.add_region({mems[0].base, mems[0].size, mems[0].bytes.data(), false, true});
  core.add_region({mems[1].base, mems[1].size, mems[1].bytes.data(), true, false});
  core.set_bus(&bus);
  core.set_dmi(dmi);
  core.set_threaded_blocks(path != Path::interp);
  core.set_x86_translation(path == Path::translated);
  core.reset(img.entry());
  Result r;
  const double t0 = cpu_seconds();
  while (r.instructions < n) {
    // budget in cycles; every instruction costs >= 1 cycle
    const RunResult rr = core.run(std::min<uint64_t>(n - r.instructions, 50'000'000));
    r.instructions += rr.instructions;
    r.cycles += rr.cycles;
    if (rr.reason != RunResult::Reason::budget) {
      std::fprintf(stderr, "bench_iss: core stopped (%s): %s\n", to_string(rr.reason), core.halt_reason().c_str());
      std::exit(1);
    }
  }
  r.seconds = cpu_seconds() - t0;
  return r;
}

}  // namespace

// hetvp_lib links libsystemc, which references sc_main; this program never starts SystemC.
extern "C" int sc_main(int, char*[]) { return 0; }

int main(int argc, char** argv) {
  uint64_t n = 1'000'000'000ull;
  int repeat = 3;
  std::string elf = HETVP_BENCH_ELF;
  for (int k = 1; k < argc; ++k) {
    if (!std::strcmp(argv[k], "--instructions") && k + 1 < argc)
      n = std::strtoull(argv[++k], nullptr, 0);
    else if (!std::strcmp(argv[k], "--repeat") && k + 1 < argc)
      repeat = std::atoi(argv[++k]);
    else if (!std::strcmp(argv[k], "--help")) {
      std::printf(
          "usage: bench_iss [--instructions N] [--repeat R] [ELF]\n"
          "Runs ELF (default %s) for N instructions per run (DMI on; N/4 with DMI off),\n"
          "R times each, on each run path (translated, threaded, interp), and prints the best MIPS.\n",
          HETVP_BENCH_ELF);
      return 0;
    } else
      elf = argv[k];
  }
  hetvp::ElfImage img = [&] {
    try {
      return hetvp::ElfImage::from_file(elf);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_iss: %s\n", e.what());
      std::exit(2);
    }
  }();
  std::printf("bench_iss: %s\n", elf.c_str());
  for (Path path : {Path::translated, Path::threaded, Path::interp})
    for (bool dmi : {true, false}) {
      const uint64_t count = dmi ? n : n / 4;
      double best = 0;
      Result last;
      for (int k = 0; k < repeat; ++k) {
        last = run_once(img, dmi, path, count);
        best = std::max(best, last.instructions / last.seconds / 1e6);
      }
      std::printf("%-10s DMI %-3s: %llu instructions, %llu cycles (CPI %.2f), best of %d: %.1f MIPS (CPU time)\n",
                  path_name(path), dmi ? "on" : "off", static_cast<unsigned long long>(last.instructions),
                  static_cast<unsigned long long>(last.cycles), double(last.cycles) / double(last.instructions), repeat,
                  best);
    }
  return 0;
}
