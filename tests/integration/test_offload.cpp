// Offloaded and overlapped transfers on the default (calibrated) topology: the qualitative results
// of Fujii 2014 §6.2-6.3 from simulated times, byte-exact data for odd sizes, and bad requests.
// Three default values have no source and were chosen for these shapes (docs/calibration.md,
// "Untuned values"): cpu.write_combine_line 8 ns, gpu0.microcontrollers.gpc.clock 350 MHz and
// reg_cycles 40. Each shape test names the assumption it rests on.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
struct Sweep {
  // direction -> size -> method -> ns
  std::map<std::string, std::map<uint64_t, std::map<std::string, double>>> t;
  std::string fastest(const std::string& dir, uint64_t size, bool pairs) const {
    std::string best;
    double b = 1e300;
    for (auto& [m, ns] : t.at(dir).at(size))
      if ((m.find('+') != std::string::npos) == pairs && ns < b) {
        b = ns;
        best = m;
      }
    return best;
  }
  double at(const std::string& dir, uint64_t size, const std::string& m) const { return t.at(dir).at(size).at(m); }
};

// The default configuration's own workload: every method and pair, both directions, 4 B .. 4 MiB.
const Sweep& default_sweep() {
  static Sweep s = [] {
    Sweep s;
    std::string csv = scratch() + "/default_sweep.csv";
    RunResult r = run_hetvp("run " + config("default.yaml") + " --quiet --csv " + csv);
    EXPECT_EQ(r.status, 0) << r.err;
    auto rows = read_csv(csv);
    for (size_t i = 1; i < rows.size(); ++i)
      s.t[rows[i][1]][std::stoull(rows[i][2])][rows[i][0]] = std::stod(rows[i][3]);
    return s;
  }();
  return s;
}
}  // namespace

TEST(Offload, HostToDeviceIorwFastestUpTo64KbThenDma) {
  // Rests on BAR1 write-combining (sourced: nouveau's ioremap_wc) and on the assumption
  // write_combine_line = 8 ns; at the schema's 20 ns it still holds, by 2.7 % at 64 KB.
  const Sweep& s = default_sweep();
  for (uint64_t size = 4; size <= (64 << 10); size *= 2) EXPECT_EQ(s.fastest("HtoD", size, false), "IORW") << size;
  for (uint64_t size = 256 << 10; size <= (4 << 20); size *= 2)
    EXPECT_EQ(s.fastest("HtoD", size, false), "DMA") << size;
  // The crossover lies within one power of two of 128 KB (here between 64 KB and 256 KB).
}

TEST(Offload, DeviceToHostHubFastestFrom256BTo4KbThenDmaFrom16Kb) {
  // Rests on the assumption gpc.clock = 350 MHz: at 700 MHz GPC4 beats the HUB at 4 KB.
  // reg_cycles = 40 (assumption) keeps the HUB from also winning 8 KB (by 29 % at 2).
  const Sweep& s = default_sweep();
  for (uint64_t size = 256; size <= 4096; size *= 2) EXPECT_EQ(s.fastest("DtoH", size, false), "HUB") << size;
  // At 8 KB DMA and HUB tie (41.9 vs 42.2 us, a 0.7 % margin: docs/transfers.md): a documented
  // result, not an assertion. From 16 KB DMA leads by 43 %.
  for (uint64_t size = 16384; size <= (4 << 20); size *= 2) EXPECT_EQ(s.fastest("DtoH", size, false), "DMA") << size;
  // IORW pays a round trip per 32-bit read: slowest of all from 256 B on.
  for (uint64_t size = 256; size <= (4 << 20); size *= 2)
    for (auto& m : {"DMA", "HUB", "GPC1", "GPC4"}) EXPECT_GT(s.at("DtoH", size, "IORW"), s.at("DtoH", size, m)) << size;
}

TEST(Offload, HubBeatsGpc1AndGpc4WinsOnlyWhenLarge) {
  // Holds at the tuned and the untuned GPC clock and reg_cycles alike (docs/calibration.md).
  const Sweep& s = default_sweep();
  for (const char* d : {"HtoD", "DtoH"}) {
    for (uint64_t size = 4096; size <= (4 << 20); size *= 2)
      EXPECT_LT(s.at(d, size, "HUB"), s.at(d, size, "GPC1")) << d << size;
    EXPECT_GT(s.at(d, 256, "GPC4"), s.at(d, 256, "GPC1")) << d << ": commanding four costs more than it saves";
    EXPECT_LT(s.at(d, 4 << 20, "GPC4"), s.at(d, 4 << 20, "GPC1")) << d << ": parallel transfers win";
  }
}

TEST(Offload, DeviceToHostOverlapBeatsSequentialSomewhereIn256BTo16Kb) {
  const Sweep& s = default_sweep();
  std::set<uint64_t> wins;
  for (uint64_t size = 256; size <= (16 << 10); size *= 2) {
    const std::string best = s.fastest("DtoH", size, true);
    bool offloaded = best.rfind("HUB", 0) == 0 || best.rfind("GPC", 0) == 0;
    if (offloaded && s.at("DtoH", size, best) < s.at("DtoH", size, "DMA+DMA") &&
        s.at("DtoH", size, best) < s.at("DtoH", size, "IORW+IORW"))
      wins.insert(size);
  }
  EXPECT_GE(wins.size(), 3u) << "overlap wins at " << wins.size() << " sizes";
}

TEST(Offload, OddSizesAndAlignmentsAreCopiedByteForByte) {
  // Every method and pair, both directions, each size checked byte for byte by the workload,
  // including 16 guard bytes on each side of every destination that must stay untouched. The
  // offsets put source and destination at different positions inside their 256-byte blocks
  // and 8-byte words: the firmware's shift and read-modify-write paths.
  for (const char* offsets : {"0 0", "3 5", "5 3", "8 1"}) {
    const std::string o(offsets);
    const std::string so = o.substr(0, o.find(' ')), dof = o.substr(o.find(' ') + 1);
    for (const char* size : {"1", "3", "255", "257", "4097"}) {
      RunResult r = run_hetvp("run " + config("default.yaml") + " --quiet --set workload.args.min_size=" + size +
                              " --set workload.args.max_size=" + size + " --set workload.args.src_offset=" + so +
                              " --set workload.args.dst_offset=" + dof);
      EXPECT_EQ(r.status, 0) << "size " << size << " offsets " << offsets << ": " << r.out << r.err;
    }
  }
}

TEST(Offload, Gpc4NeedsFourGpcs) {
  RunResult r =
      run_hetvp("run " + config("default.yaml") + " --quiet --set gpu0.gpcs=2 --set workload.args.max_size=64");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("method GPC4 needs four GPC microcontrollers; GPU 0 has 2"), std::string::npos) << r.err;
}

TEST(Offload, BadRequestsAreRefusedOrReported) {
  const std::string base = "run " + config("default.yaml") + " --workload offload ";
  RunResult unmapped = run_hetvp(base + "--set workload.args.dst=0x7700000000");
  EXPECT_EQ(unmapped.status, 1);
  EXPECT_NE(
      unmapped.err.find("hub: offloaded copy of 4096 bytes 0x4000002000 -> 0x7700000000 failed: firmware error 2"),
      std::string::npos)
      << unmapped.err;
  RunResult zero = run_hetvp(base + "--set workload.args.size=0");
  EXPECT_EQ(zero.status, 1);
  EXPECT_NE(zero.err.find("offloaded copy of zero bytes"), std::string::npos) << zero.err;
  RunResult overlap = run_hetvp(base + "--set workload.args.src=0x4000002000 --set workload.args.dst=0x4000002100");
  EXPECT_EQ(overlap.status, 1);
  EXPECT_NE(overlap.err.find("overlap"), std::string::npos) << overlap.err;
  // The microcontroller faults mid-copy: the second half of the source is not mapped.
  RunResult mid =
      run_hetvp(base + "--set workload.args.mcu=gpc1 --set workload.args.size=16KiB --set workload.args.map=8KiB");
  EXPECT_EQ(mid.status, 1);
  EXPECT_NE(mid.err.find("gpc1: offloaded copy of 16384 bytes"), std::string::npos) << mid.err;
  EXPECT_NE(mid.err.find("after 8192 bytes"), std::string::npos) << mid.err;
}
