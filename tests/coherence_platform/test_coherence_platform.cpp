// The coherence platform end to end (configs/coherence.yaml): shapes of the thesis' results,
// per-line vs range equivalence, the coherence checker (and a broken invalidation it must catch),
// coalescer counters, protocol misuse, and the invalidation engine choice (tlm / rtl / lockstep).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "common/run_hetvp.h"
#include "common/stats_json.h"
#include "models/gpu/coalescer.h"

using namespace hetvp::test;

namespace {

struct Out {
  int status;
  std::string stats, out, err;
};

Out run(const std::string& args) {
  static int n = 0;
  std::string stats = scratch() + "/s" + std::to_string(n++) + ".json";
  RunResult r = run_hetvp("run " + config("coherence.yaml") + " --quiet --stats " + stats + " " + args);
  return {r.status, components_section(read_file(stats)), r.out, r.err};
}

double dir(const Out& o, const std::string& key) { return stats_number(o.stats, {"directory", key}); }

// directory.syncs[i].key
double sync_at(const Out& o, unsigned i, const std::string& key) {
  size_t pos = o.stats.find("\"syncs\": [");
  for (unsigned k = 0; pos != std::string::npos && k <= i; ++k) pos = o.stats.find('{', pos + 1);
  EXPECT_NE(pos, std::string::npos) << "no directory.syncs[" << i << "]";
  return pos == std::string::npos ? -1 : stats_number(o.stats.substr(pos, o.stats.find('}', pos) - pos + 1), {key});
}

}  // namespace

// --- shapes (thesis §4.1.3) ------------------------------------------------------------------
TEST(CoherenceShapes, Square300kRangeSendsAtMostTenPercentOfPerLineProbes) {
  Out pl = run("--workload square --set workload.args.n=300000 --set directory.mode=per_line");
  Out rg = run("--workload square --set workload.args.n=300000 --set directory.mode=range");
  ASSERT_EQ(pl.status, 0) << pl.err;
  ASSERT_EQ(rg.status, 0) << rg.err;
  const double p0 = dir(pl, "probes"), p1 = dir(rg, "probes"), t0 = dir(pl, "ticks"), t1 = dir(rg, "ticks");
  EXPECT_GT(p0, 37000);  // 2 x 18,750 lines
  EXPECT_LE(p1, 0.10 * p0);
  // Tag walks still cost one access per line: time falls less than the probe count.
  EXPECT_LT(t1, t0);
  EXPECT_GT(t1 / t0, p1 / p0);
  EXPECT_EQ(dir(pl, "tag_accesses"), dir(rg, "tag_accesses"));
  // The default per-side chains (docs/coherence.md): -59.2 % (thesis -70.1 %, Table 4.4), per-line
  // ticks 0.70x the thesis' 3,914,588,000.
  EXPECT_LT(t1 / t0, 0.50);
  EXPECT_GT(t0 / 3914588000.0, 0.5);
  EXPECT_LT(t0 / 3914588000.0, 2.0);
}

TEST(CoherenceShapes, MatrixTranspose512RangeSendsAtMostTwentyPercent) {
  Out pl = run("--workload matrix_transpose --set workload.args.width=512 --set directory.mode=per_line");
  Out rg = run("--workload matrix_transpose --set workload.args.width=512 --set directory.mode=range");
  ASSERT_EQ(pl.status, 0) << pl.err;
  ASSERT_EQ(rg.status, 0) << rg.err;
  EXPECT_LE(dir(rg, "probes"), 0.20 * dir(pl, "probes"));
  EXPECT_LT(dir(rg, "ticks"), dir(pl, "ticks"));
  // The default per-side chains: within 10 points of the thesis' -57 % (Table 4.8), per-line
  // ticks within 2x of its 2,479,544,000 (docs/coherence.md: -52.2 %, 1.10x).
  EXPECT_NEAR(1 - dir(rg, "ticks") / dir(pl, "ticks"), 0.57, 0.10);
  EXPECT_GT(dir(pl, "ticks") / 2479544000.0, 0.5);
  EXPECT_LT(dir(pl, "ticks") / 2479544000.0, 2.0);
}

TEST(CoherenceShapes, ProbeReductionGrowsWithSize) {
  auto reduction = [](unsigned n) {
    Out pl = run("--workload square --set workload.args.n=" + std::to_string(n) + " --set directory.mode=per_line");
    Out rg = run("--workload square --set workload.args.n=" + std::to_string(n) + " --set directory.mode=range");
    EXPECT_EQ(pl.status, 0);
    EXPECT_EQ(rg.status, 0);
    return 1.0 - dir(rg, "probes") / dir(pl, "probes");
  };
  const double small = reduction(200), large = reduction(300000);
  EXPECT_LT(small, large);
}

// 2dshfl gains little time (thesis: 5-10 %, SPEC: under 20 %). Why, in hetvp: its kernel stores
// the transposed matrix, so the GPU's history (a FIFO of written lines) has no consecutive lines
// and the GPU -> CPU hand-over sends as many probes in range mode as per line; the CPU's history
// (row-order writes of four arrays: the input, its host copy, the output's host copy, the CPU
// reference) becomes one probe per array, but each of those probes only saves the GPU side's
// per-probe cost (directory.to_gpu: 2.5 ns), small next to the 18 ns walk of every line.
TEST(CoherenceShapes, Shfl2dGainsLittleTime) {
  for (unsigned w : {30u, 50u}) {
    const std::string args = "--workload shfl2d --set workload.args.width=" + std::to_string(w);
    Out pl = run(args + " --set directory.mode=per_line");
    Out rg = run(args + " --set directory.mode=range");
    ASSERT_EQ(pl.status, 0) << pl.err;
    ASSERT_EQ(rg.status, 0) << rg.err;
    const double probe_gain = 1 - dir(rg, "probes") / dir(pl, "probes");
    const double time_gain = 1 - dir(rg, "ticks") / dir(pl, "ticks");
    EXPECT_GE(time_gain, 0) << w;
    EXPECT_LT(time_gain, 0.20) << w;
    EXPECT_GT(probe_gain, 0.40) << w;
    EXPECT_EQ(stats_number(rg.stats, {"directory", "to_gpu", "probes"}), 4)
        << "CPU history: row-order writes, a range per array";
    EXPECT_GT(stats_number(rg.stats, {"directory", "to_cpu", "probes"}),
              0.4 * stats_number(pl.stats, {"directory", "to_cpu", "probes"}))
        << "GPU history: transposed stores, few consecutive lines";
    if (w == 50) {  // per-line ticks within 2x of the thesis' 16,451,500 (Table 4.6; hetvp 1.60x)
      EXPECT_GT(dir(pl, "ticks") / 16451500.0, 0.5);
      EXPECT_LT(dir(pl, "ticks") / 16451500.0, 2.0);
    }
  }
}

// probe_walk (probe_timing: pipelined): with the TCPs checked in parallel the GPU's range walk is
// faster than per-line probes (the directory's issue interval bounds those); checked serially it is not.
TEST(CoherenceShapes, ParallelProbeWalkMakesGpuRangesCheaper) {
  auto to_gpu_ticks = [](const std::string& walk, const std::string& mode) {
    Out o = run("--workload square --set workload.args.n=20000 --set directory.probe_timing=pipelined "
                "--set gpu0.compute.probe_walk=" + walk + " --set directory.mode=" + mode);
    EXPECT_EQ(o.status, 0) << o.err;
    return stats_number(o.stats, {"directory", "to_gpu", "ticks"});
  };
  const double sp = to_gpu_ticks("serial", "per_line"), sr = to_gpu_ticks("serial", "range");
  const double pp = to_gpu_ticks("parallel", "per_line"), pr = to_gpu_ticks("parallel", "range");
  EXPECT_LT(pr, 0.6 * pp);
  EXPECT_GT(sr, 0.95 * sp);
  EXPECT_LT(pr, sr);
}

// --- the cost model: each latency adds exactly its share ------------------------------------------
// probe_timing: pipelined, square N=200 without host copies in range mode: the CPU's history (13
// lines of A) is one probe to the GPU, the GPU's (13 lines of C) one probe to the CPU, the final
// CPU release has an empty history.
TEST(CoherenceCost, EachLatencyAddsExactlyItsShare) {
  const std::string base =
      "--workload square --set workload.args.n=200 --set workload.args.host_copies=false "
      "--set directory.probe_timing=pipelined";
  Out o = run(base), tcc = run(base + " --set gpu0.compute.tcc.tag_cycles=4"),
      hop = run(base + " --set directory.cpu_hop=0ns");
  ASSERT_EQ(o.status, 0) << o.err;
  ASSERT_EQ(tcc.status, 0) << tcc.err;
  ASSERT_EQ(hop.status, 0) << hop.err;
  ASSERT_EQ(sync_at(o, 0, "history_lines"), 13);
  // The GPU walks each line in the TCC after the TCPs: 2 more cycles at 1 GHz per line.
  EXPECT_EQ(sync_at(tcc, 0, "ticks") - sync_at(o, 0, "ticks"), 13 * 2000);
  // The CPU side is one on-chip hop away: the probe's way there and PROBE_DONE's way back.
  EXPECT_EQ(sync_at(o, 1, "ticks") - sync_at(hop, 1, "ticks"), 2 * 60000);
  // Nothing to invalidate: no probe, no completion to wait for -- only the engine's 2 cycles.
  EXPECT_EQ(sync_at(o, 2, "probes"), 0);
  EXPECT_EQ(sync_at(o, 2, "ticks"), 2000);
}

// directory.probe_timing: serial_ack (the gem5 APU chain) charges per probe response + hops out +
// the receiver's walk + its ack delay + hops back, and the completion once: change one term (in
// the group directory.serial_ack), and each invalidation's ticks change by exactly that term x its
// probes (the completion, a directory key shared with per_side: once).
class SerialAckTerm : public ::testing::Test {
 protected:
  static const Out& base() {
    static const Out o = run(args(""));
    return o;
  }
  static std::string args(const std::string& more) {
    return "--workload square --set workload.args.n=200 --set directory.mode=per_line "
           "--set directory.probe_timing=serial_ack " +
           more;
  }
  // ticks(changed) - ticks(base) for syncs 0 (GPU caches probed) and 1 (CPU caches probed)
  static void expect_delta(const std::string& set, double gpu_per_probe, double cpu_per_probe, double once = 0) {
    const Out& o = base();
    Out c = run(args(set));
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_EQ(c.status, 0) << c.err;
    for (unsigned i = 0; i < 2; ++i) {
      const double probes = sync_at(o, i, "probes");
      ASSERT_GT(probes, 0);
      EXPECT_EQ(sync_at(c, i, "probes"), probes);
      EXPECT_EQ(sync_at(c, i, "lines_invalidated"), sync_at(o, i, "lines_invalidated"));
      EXPECT_EQ(sync_at(c, i, "ticks") - sync_at(o, i, "ticks"),
                (i == 0 ? gpu_per_probe : cpu_per_probe) * probes + once)
          << set << ", sync " << i;
    }
  }
};

TEST_F(SerialAckTerm, ResponseLatency) {  // 30 -> 40 cycles at 2 GHz: 5 ns per probe
  expect_delta("--set directory.serial_ack.response_cycles=40", 5000, 5000);
}
TEST_F(SerialAckTerm, HopLatency) {  // 0.5 -> 1.5 ns, 4 hops each way: 8 ns per probe
  expect_delta("--set directory.serial_ack.hop_latency=1.5ns", 8000, 8000);
}
TEST_F(SerialAckTerm, HopCount) {  // 4 -> 6 hops each way at 0.5 ns: 2 ns per probe
  expect_delta("--set directory.serial_ack.hops=6", 2000, 2000);
}
TEST_F(SerialAckTerm, GpuAckDelay) {  // 1.5 -> 4.5 ns: only the GPU side's probes
  expect_delta("--set directory.serial_ack.gpu_ack=4.5ns", 3000, 0);
}
TEST_F(SerialAckTerm, CpuAckDelay) {  // 0.5 -> 2.5 ns: only the CPU side's probes
  expect_delta("--set directory.serial_ack.cpu_ack=2.5ns", 0, 2000);
}
TEST_F(SerialAckTerm, CompletionOncePerInvalidation) {  // 0.5 -> 10.5 ns, once
  expect_delta("--set directory.completion=10.5ns", 0, 0, 10000);
}
TEST_F(SerialAckTerm, ReceiverWalk) {  // the TCC's tag walk, 2 -> 4 cycles at 1 GHz: 2 ns per GPU probe
  expect_delta("--set gpu0.compute.tcc.tag_cycles=4", 2000, 0);
}

// directory.probe_timing: per_side (the default): each target side has its own chain. Towards the
// CPU (wait: ack) every probe pays response + hops out + walk + ack + hops back + the directory's
// completion (the last probe's completion is the invalidation's); towards the GPU
// (wait: receiver) the probes stream: the chain's latency once, per probe the walk + occupancy.
// Change one term of one side, and each invalidation's ticks change by exactly its share.
class PerSideTerm : public ::testing::Test {
 protected:
  static std::string args(const std::string& more) {
    return "--workload square --set workload.args.n=200 --set workload.args.host_copies=false "
           "--set directory.mode=per_line " +
           more;
  }
  static const Out& base() {
    static const Out o = run(args(""));
    return o;
  }
  // ticks(changed) - ticks(base) of sync 0 (GPU caches, 13 probes) and sync 1 (CPU caches, 13)
  // must be per_probe x probes + once, per side.
  static void expect_delta(const std::string& set, double gpu_per_probe, double gpu_once, double cpu_per_probe,
                           double cpu_once = 0) {
    const Out& o = base();
    Out c = run(args(set));
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_EQ(c.status, 0) << c.err;
    ASSERT_EQ(sync_at(o, 0, "probes"), 13);
    ASSERT_EQ(sync_at(o, 1, "probes"), 13);
    EXPECT_EQ(sync_at(c, 0, "ticks") - sync_at(o, 0, "ticks"), gpu_per_probe * 13 + gpu_once) << set << ", GPU";
    EXPECT_EQ(sync_at(c, 1, "ticks") - sync_at(o, 1, "ticks"), cpu_per_probe * 13 + cpu_once) << set << ", CPU";
  }
};

TEST_F(PerSideTerm, CpuAckIsPaidByEveryCpuProbe) {  // 60 -> 70 ns
  expect_delta("--set directory.to_cpu.ack=70ns", 0, 0, 10000);
}
TEST_F(PerSideTerm, CpuResponseAndHopsArePaidByEveryCpuProbe) {  // +10 cycles at 2 GHz; 4 -> 6 hops each way
  expect_delta("--set directory.to_cpu.response_cycles=40", 0, 0, 5000);
  expect_delta("--set directory.to_cpu.hops=6", 0, 0, 2000);
}
TEST_F(PerSideTerm, CompletionIsPaidByEveryCpuProbeAndOncePerGpuInvalidation) {  // 0.5 -> 10.5 ns
  // wait: ack: the next CPU probe leaves after the previous one's completion (gem5's AcksComplete
  // trigger), 13 in all with the invalidation's own; the GPU stream completes once.
  expect_delta("--set directory.completion=10.5ns", 0, 10000, 10000);
}
TEST_F(PerSideTerm, GpuLatenciesArePaidOncePerInvalidation) {  // the stream's first probe out, last ack back
  expect_delta("--set directory.to_gpu.response_cycles=40", 0, 5000, 0);
  expect_delta("--set directory.to_gpu.ack=4ns", 0, 3000, 0);
  expect_delta("--set directory.to_gpu.hops=6", 0, 2000, 0);
}
TEST_F(PerSideTerm, GpuOccupancyIsPaidBetweenProbes) {  // 2.5 -> 3.5 ns: 12 gaps between 13 probes
  expect_delta("--set directory.to_gpu.occupancy=3.5ns", 0, 12 * 1000.0, 0);
}
TEST_F(PerSideTerm, GpuReceiverWalkIsPaidByEveryGpuProbe) {  // TCC tag walk 2 -> 4 cycles at 1 GHz
  expect_delta("--set gpu0.compute.tcc.tag_cycles=4", 2000, 0, 0);
}
TEST_F(PerSideTerm, WaitingForEachGpuAckPaysTheWholeChainPerProbe) {
  // wait: ack towards the GPU: every probe pays response 15 + hops 2 + ack 1 + hops 2 + completion
  // 0.5 = 20.5 ns on top of its walk; gone are the chain's latency and completion once (20.5 ns)
  // and the 12 gaps of 2.5 ns occupancy.
  expect_delta("--set directory.to_gpu.wait=ack", 20500, -20500 - 12 * 2500.0, 0);
}
TEST(CoherenceCost, BadPerSideKeysAreConfigErrors) {
  Out o = run("--workload square --set directory.to_cpu.wait=sometimes");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("to_cpu.wait"), std::string::npos) << o.out << o.err;
  o = run("--workload square --set directory.to_gpu.hops=-1");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("to_gpu.hops"), std::string::npos) << o.out << o.err;
  o = run("--workload square --set directory.probe_timing=chained");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("per_side"), std::string::npos) << "the error lists the choices: " << o.err;
}

// serial_ack's keys were flat directory keys until issue #38; they are the group serial_ack now,
// as per_side's are to_cpu / to_gpu. An old key is a located error that names the new one.
TEST(CoherenceCost, OldSerialAckKeysNameTheirGroup) {
  std::string y = read_file(config("coherence.yaml"));
  const std::string anchor = "  probe_timing: per_side\n";
  const size_t at = y.find(anchor);
  ASSERT_NE(at, std::string::npos);
  const size_t line = std::count(y.begin(), y.begin() + at, '\n') + 2;  // 1-based, the line after the anchor
  y.insert(at + anchor.size(), "  hops: 6\n");
  const std::string file = write_file("old_serial_ack_keys.yaml", y);
  RunResult r = run_hetvp("check " + file);
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(file + ":" + std::to_string(line) +
                       ":3: directory.hops: 'hops' is no longer set here: it is serial_ack.hops now"),
            std::string::npos)
      << r.err;
  for (const char* key : {"response_cycles", "hop_latency", "cpu_ack", "gpu_ack"}) {
    r = run_hetvp("check " + config("coherence.yaml") + " --set directory." + key + "=1");
    EXPECT_EQ(r.status, 2) << key << ": " << r.err;
    EXPECT_NE(r.err.find("(--set directory." + std::string(key) + "): directory." + key + ": '" + key +
                         "' is no longer set here: it is serial_ack." + key + " now"),
              std::string::npos)
        << r.err;
  }
  r = run_hetvp("check " + config("coherence.yaml") + " --set directory.serial_ack.hops=6");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// The direction asymmetry of the thesis (Table 4.6: a removed 2dshfl probe saves 2.5 ns; square and
// MatrixTranspose 21-31 ns): from hetvp's own per_line and range runs, per workload and direction,
// Delta = (T_per_line - T_range) / (P_per_line - P_range), the time one removed probe saves.
double removed_probe_ns(const Out& pl, const Out& rg, const std::string& side) {
  const double dp =
      stats_number(pl.stats, {"directory", side, "probes"}) - stats_number(rg.stats, {"directory", side, "probes"});
  EXPECT_GT(dp, 0) << side;
  return (stats_number(pl.stats, {"directory", side, "ticks"}) - stats_number(rg.stats, {"directory", side, "ticks"})) /
         dp / 1000;
}
TEST(CoherenceDirections, RemovingACpuProbeSavesFiveTimesWhatAGpuProbeSaves) {
  double gpu_side = 0;
  for (std::string w : {"square --set workload.args.n=20000", "matrix_transpose --set workload.args.width=128"}) {
    Out pl = run("--workload " + w + " --set directory.mode=per_line");
    Out rg = run("--workload " + w + " --set directory.mode=range");
    ASSERT_EQ(pl.status, 0) << w << pl.err;
    ASSERT_EQ(rg.status, 0) << w << rg.err;
    const double to_gpu = removed_probe_ns(pl, rg, "to_gpu"), to_cpu = removed_probe_ns(pl, rg, "to_cpu");
    EXPECT_GT(to_gpu, 0) << w;
    EXPECT_GE(to_cpu, 5 * to_gpu) << w << ": to the CPU " << to_cpu << " ns, to the GPU " << to_gpu << " ns";
    gpu_side = to_gpu;
  }
  // 2dshfl removes GPU-side probes only (its GPU history is transposed: as many CPU-side probes in
  // both modes), so what a removed probe saves overall is the GPU side's figure.
  Out pl = run("--workload shfl2d --set workload.args.width=50 --set directory.mode=per_line");
  Out rg = run("--workload shfl2d --set workload.args.width=50 --set directory.mode=range");
  ASSERT_EQ(pl.status, 0) << pl.err;
  ASSERT_EQ(rg.status, 0) << rg.err;
  EXPECT_EQ(stats_number(pl.stats, {"directory", "to_cpu", "ticks"}),
            stats_number(rg.stats, {"directory", "to_cpu", "ticks"}));
  const double overall = (dir(pl, "ticks") - dir(rg, "ticks")) / (dir(pl, "probes") - dir(rg, "probes")) / 1000;
  EXPECT_NEAR(overall, gpu_side, 0.01);
}

TEST(CoherenceCost, ReplaysCostIssueCycles) {
  auto busy = [](unsigned replay_cycles) {
    Out o =
        run("--workload coalesce_probe --set workload.args.stride=128 --set workload.args.warps=4 "
            "--set gpu0.compute.coalescer=non_caching --set gpu0.compute.replay_cycles=" +
            std::to_string(replay_cycles));
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(stats_number(o.stats, {"compute", "load_replays"}), 4 * 31);
    return stats_number(o.stats, {"compute", "busy_ns"});
  };
  const double none = busy(0), some = busy(20);
  // Each warp's load is 32 transactions (one per lane's 128 B block): its last one issues 31
  // replays x 20 cycles (1 GHz) later, and the store that uses its data waits for it.
  EXPECT_GE(some - none, 31 * 20);
}

// --- the workloads check their own results ----------------------------------------------------------
// A lost probe (test fault) leaves a stale line in a cache: square itself reports wrong results,
// without the checker. With 5 probes per hand-over of 1,250 lines, probe number 15 is the first
// of the second iteration's GPU release: the CPU, which read C in the first iteration, keeps 256
// stale lines of it.
TEST(CoherenceWorkloads, LostProbeMakesSquareReportWrongResults) {
  Out o =
      run("--workload square --set workload.args.n=20000 --set workload.args.iterations=3 "
          "--set workload.args.host_copies=false --set directory.test_skip_probe=15 --set directory.mode=range");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE((o.out + o.err).find("workload 'square' reported failure"), std::string::npos) << o.out << o.err;
  EXPECT_EQ(sync_at(o, 3, "probes"), 5);
  EXPECT_EQ(sync_at(o, 4, "probes"), 4) << "the skipped probe is the 16th sent";
}

// --- per-line and range invalidate the same (cache, line) pairs ---------------------------------
TEST(CoherenceEquivalence, PerLineAndRangeInvalidateTheSameLines) {
  for (std::string w : {"square --set workload.args.n=20000", "matrix_transpose --set workload.args.width=64",
                        "shfl2d --set workload.args.width=30", "coh_random --set workload.args.programs=150"}) {
    std::string common = "--workload " + w + " --set workload.args.iterations=" + (w.rfind("coh", 0) == 0 ? "1" : "3");
    Out pl = run(common + " --set directory.mode=per_line");
    Out rg = run(common + " --set directory.mode=range");
    ASSERT_EQ(pl.status, 0) << w << pl.err;
    ASSERT_EQ(rg.status, 0) << w << rg.err;
    EXPECT_EQ(stats_text(pl.stats, {"directory", "invalidated_digest"}),
              stats_text(rg.stats, {"directory", "invalidated_digest"}))
        << w;
    EXPECT_EQ(dir(pl, "lines_invalidated"), dir(rg, "lines_invalidated")) << w;
    EXPECT_GE(dir(pl, "probes"), dir(rg, "probes")) << w;
  }
}

// --- determinism: the random programs come from simulation.seed ---------------------------------
TEST(CoherenceDeterminism, SameSeedSameStatsOtherSeedOtherPrograms) {
  const std::string args = "--workload coh_random --set workload.args.programs=40 --set simulation.seed=";
  Out a = run(args + "7"), b = run(args + "7"), c = run(args + "8");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_GT(a.stats.size(), 1000u);
  EXPECT_EQ(a.stats, b.stats);
  EXPECT_NE(stats_text(a.stats, {"directory", "invalidated_digest"}),
            stats_text(c.stats, {"directory", "invalidated_digest"}));
}

// --- the coherence checker ----------------------------------------------------------------------
TEST(CoherenceChecker, ThousandRandomDrfProgramsHaveNoViolations) {
  for (std::string mode : {"range", "per_line"}) {
    Out o =
        run("--workload coh_random --set workload.args.programs=1000 --set cpu_cc.checker=true "
            "--set gpu0.compute.controller.checker=true --set directory.mode=" +
            mode);
    ASSERT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(dir(o, "checker_violations"), 0);
    EXPECT_GT(dir(o, "checker_loads"), 100000);
    EXPECT_GT(dir(o, "lines_invalidated"), 0) << "the programs must leave stale lines to invalidate";
  }
}

// Buffers of up to 4,096 words: kernels of up to 8 blocks on 4 units, so units reload lines other
// units wrote in the same launch (TCPs are not coherent within a kernel; only the bytes lanes use
// must be current).
TEST(CoherenceChecker, RandomProgramsOnSeveralBlocksPerUnit) {
  Out o =
      run("--workload coh_random --set workload.args.programs=50 --set workload.args.max_words=4096 "
          "--set cpu_cc.checker=true --set gpu0.compute.controller.checker=true");
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_EQ(dir(o, "checker_violations"), 0);
  EXPECT_GT(dir(o, "lines_invalidated"), 0);
}

TEST(CoherenceChecker, WorkloadsWithCheckerOn) {
  for (std::string w : {"square --set workload.args.n=5000", "matrix_transpose --set workload.args.width=48",
                        "shfl2d --set workload.args.width=20"}) {
    Out o = run("--workload " + w +
                " --set workload.args.iterations=3 --set cpu_cc.checker=true "
                "--set gpu0.compute.controller.checker=true");
    ASSERT_EQ(o.status, 0) << w << o.out << o.err;
    EXPECT_EQ(dir(o, "checker_violations"), 0) << w;
  }
}

TEST(CoherenceChecker, BrokenInvalidationIsCaught) {
  for (std::string mode : {"range", "per_line"}) {
    Out o =
        run("--workload coh_random --set workload.args.programs=50 --set cpu_cc.checker=true "
            "--set gpu0.compute.controller.checker=true --set directory.test_skip_probe=5 --set directory.mode=" +
            mode);
    EXPECT_EQ(o.status, 1) << mode;
    EXPECT_NE((o.out + o.err).find("coherence violation"), std::string::npos) << o.out << o.err;
  }
}

// --- coalescer integration ------------------------------------------------------------------------
TEST(CoherenceCompute, WarpAccessesGiveTheCoalescersCounts) {
  for (std::string mode : {"caching", "non_caching"})
    for (unsigned stride : {4u, 8u, 12u, 64u, 128u, 132u}) {
      const unsigned warps = 4;
      Out o = run("--workload coalesce_probe --set workload.args.stride=" + std::to_string(stride) +
                  " --set workload.args.warps=" + std::to_string(warps) + " --set gpu0.compute.coalescer=" + mode);
      ASSERT_EQ(o.status, 0) << o.err;
      const uint64_t va = static_cast<uint64_t>(stats_number(o.stats, {"buffer_va"}));
      uint64_t ltx = 0, lrp = 0, stx = 0, srp = 0;
      for (unsigned w = 0; w < warps; ++w) {
        hetvp::gpu::WarpRequest r;
        for (unsigned l = 0; l < 32; ++l) r.addr[l] = va + uint64_t(w * 32 + l) * stride;
        r.mode = mode == "caching" ? hetvp::gpu::AccessMode::CachingLoad : hetvp::gpu::AccessMode::NonCachingLoad;
        auto ld = hetvp::gpu::coalesce(r);
        r.mode = hetvp::gpu::AccessMode::Store;
        auto st = hetvp::gpu::coalesce(r);
        ltx += ld.transactions.size();
        lrp += ld.replays;
        stx += st.transactions.size();
        srp += st.replays;
      }
      const std::string what = mode + " stride " + std::to_string(stride);
      EXPECT_EQ(stats_number(o.stats, {"compute", "coalescer", "load_transactions"}), ltx) << what;
      EXPECT_EQ(stats_number(o.stats, {"compute", "coalescer", "load_replays"}), lrp) << what;
      EXPECT_EQ(stats_number(o.stats, {"compute", "coalescer", "store_transactions"}), stx) << what;
      EXPECT_EQ(stats_number(o.stats, {"compute", "coalescer", "store_replays"}), srp) << what;
    }
}

// --- protocol misuse: a clear error, exit 1, no hang -------------------------------------------------
TEST(CoherenceBadInputs, EachMisuseFailsTheRunNamingTheRegister) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"lock_twice", "LOCK (0x40000000): lock taken twice by the CPU"},
      {"release_without_acquire", "release by the CPU without an acquire"},
      {"history_with_tracking_on", "tracking is still on (write 0 to 0x40008000"},
      {"bad_lock_value", "LOCK (0x40000000): bad value 3"},
      {"bad_invalidate_value", "INVALIDATE (0x40005000): bad value 7"},
      {"bad_history_value", "HISTORY (0x40006000): bad value 0"},
      {"bad_track_value", "CPU_TRACK (0x40008000): bad value 5"},
      {"invalidate_without_history", "no complete history from the CPU"},
      {"gpu_lock_twice", "lock taken twice by the GPU"},
      {"gpu_release_without_acquire", "without holding the lock"},
      {"bad_register", "0x40004000"},
      {"gpu_takes_cpu_lock", "write of 1 by the GPU while the CPU holds the lock"},
      {"invalidate_twice", "no complete history from the CPU"},
      {"unlock_before_invalidation_done", "release by the CPU while its invalidation is still running"},
  };
  for (auto& [c, msg] : cases) {
    Out o = run("--workload coh_bad --set workload.args.case=" + c);
    EXPECT_EQ(o.status, 1) << c;
    EXPECT_NE((o.out + o.err).find(msg), std::string::npos) << c << ":\n" << o.out << o.err;
  }
}

// --- invalidation engine choice ----------------------------------------------------------------------
namespace {
// Decided by the build, not by running the RTL: rtl/CMakeLists.txt defines HETVP_HAVE_RTL on
// hetvp_lib (PUBLIC, so this test sees it) exactly when Verilator was found. A failing RTL run
// must fail these tests, never turn them into skips.
constexpr bool rtl_available() {
#if defined(HETVP_HAVE_RTL)
  return true;
#else
  return false;
#endif
}
}  // namespace

TEST(CoherenceEngine, RtlEngineRunsWhenBuiltWithVerilator) {
  if (!rtl_available()) GTEST_SKIP() << "hetvp built without Verilator (HETVP_HAVE_RTL not defined)";
  Out o = run("--workload square --set directory.engine=rtl");
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_EQ(stats_text(o.stats, {"directory", "engine"}), "rtl") << o.stats;
}

TEST(CoherenceEngine, RtlAndLockstepGiveTheSameProbesAndLines) {
  if (!rtl_available()) GTEST_SKIP() << "hetvp built without Verilator";
  for (std::string w : {"square --set workload.args.n=300000", "matrix_transpose --set workload.args.width=512"})
    for (std::string mode : {"range", "per_line"}) {
      std::string base = "--workload " + w + " --set workload.args.iterations=2 --set directory.mode=" + mode;
      Out t = run(base + " --set directory.engine=tlm");
      ASSERT_EQ(t.status, 0) << t.err;
      for (std::string e : {"rtl", "lockstep"}) {
        Out o = run(base + " --set directory.engine=" + e);
        ASSERT_EQ(o.status, 0) << e << o.out << o.err;
        EXPECT_EQ(dir(o, "probes"), dir(t, "probes")) << w << " " << e;
        EXPECT_EQ(dir(o, "lines_invalidated"), dir(t, "lines_invalidated")) << w << " " << e;
        EXPECT_EQ(stats_text(o.stats, {"directory", "invalidated_digest"}),
                  stats_text(t.stats, {"directory", "invalidated_digest"}));
        EXPECT_EQ(dir(o, "engine_cycles"), dir(t, "engine_cycles")) << w << " " << e;
      }
    }
}

TEST(CoherenceEngine, PerturbedEngineFailsTheLockstepRun) {
  if (!rtl_available()) GTEST_SKIP() << "hetvp built without Verilator";
  Out o =
      run("--workload square --set workload.args.n=3000 --set directory.engine=lockstep --set "
          "directory.test_fault_index=1");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE((o.out + o.err).find("input position"), std::string::npos) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("differ"), std::string::npos);
}

// lockstep_timing: error (default) stops the run on a per-history cycle difference; the coherence
// configs have none (TLM cycle model == RTL cycles, history by history), so both settings pass
// with identical stats. The stopping itself is tested with an RTL fault variant in tests/rtl.
TEST(CoherenceEngine, LockstepTimingIsADirectoryParameterDefaultError) {
  if (!rtl_available()) GTEST_SKIP() << "hetvp built without Verilator (HETVP_HAVE_RTL not defined)";
  const std::string base = "--workload matrix_transpose --set directory.engine=lockstep";
  Out def = run(base);
  Out err = run(base + " --set directory.lockstep_timing=error");
  Out warn = run(base + " --set directory.lockstep_timing=warning");
  ASSERT_EQ(def.status, 0) << def.out << def.err;
  ASSERT_EQ(err.status, 0) << err.out << err.err;
  ASSERT_EQ(warn.status, 0) << warn.out << warn.err;
  // The components' statistics (the run section records the differing --set lines).
  auto components = [](const std::string& s) { return s.substr(s.find("\"components\"")); };
  EXPECT_EQ(components(def.stats), components(err.stats));
  EXPECT_EQ(components(def.stats), components(warn.stats));
  EXPECT_EQ((def.out + def.err).find("differ in timing"), std::string::npos) << def.out << def.err;
  Out bad = run(base + " --set directory.lockstep_timing=ignore");
  EXPECT_EQ(bad.status, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("lockstep_timing"), std::string::npos) << bad.err;
}

TEST(CoherenceEngine, UnknownEngineIsAConfigError) {
  Out o = run("--workload square --set directory.engine=verilog");
  EXPECT_EQ(o.status, 2) << o.out << o.err;
}

// --- CPU caches on the default topology: DMA stays coherent through the controller's I/O snoop ---
namespace {
std::string replace_once(std::string s, const std::string& a, const std::string& b) {
  size_t p = s.find(a);
  EXPECT_NE(p, std::string::npos) << a;
  if (p != std::string::npos) s.replace(p, a.size(), b);
  return s;
}
}  // namespace

TEST(CacheTopology, TransferRunsWithCpuCachesAndIoSnoop) {
  std::string y = read_file(config("default.yaml"));
  y = replace_once(y, "  connect: {mem: host_bus}",
                   "  connect: {mem: cpu_cc.in}\n\n"
                   "cpu_cc:\n  type: cache_controller\n  levels: 2\n"
                   "  connect: {out: l1, level0: l1.ctl, level1: l2.ctl, dir: host_bus, snoop_out: host_bus}\n\n"
                   "l1:\n  type: cache\n  size: 64 KiB\n  ways: 2\n  connect: {out: l2}\n\n"
                   "l2:\n  type: cache\n  size: 2 MiB\n  ways: 8\n  connect: {out: host_bus}");
  y = replace_once(y, "connect: {host: host_bus, down0:", "connect: {host: cpu_cc.snoop_in, down0:");
  std::string cfg = write_file("cached_default.yaml", y);
  std::string stats = scratch() + "/cached.json";
  RunResult r =
      run_hetvp("run " + cfg + " --quiet --workload transfer --set workload.args.max_size=256KiB --stats " + stats);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::string s = read_file(stats);
  EXPECT_GT(stats_number(s, {"cpu_cc", "snoops"}), 0);
  EXPECT_GT(stats_number(s, {"l1", "reads"}), 0) << "the CPU's cached accesses go through the caches";
}

// --- the GPU's acquire/release offloaded to the HUB microcontroller (rt.gpu_sync: hub) ----------
// The HUB firmware performs the kernels' register protocol, so the histories and probes are the
// same and the checker sees no stale load. The GPU-side invalidations differ, and must: every
// kernel launch flash-invalidates the TCPs (compute.tcp_invalidate_on_launch), so with kernel
// sync the release kernel empties them before the directory's probes arrive; with HUB sync the
// probes find the TCP copies themselves (docs/coherence.md, "GPU sync on the HUB").
unsigned count_of(const std::string& text, const std::string& what) {
  unsigned n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(CoherenceHubSync, RandomDrfProgramsHaveNoViolations) {
  const std::string common =
      "--workload coh_random --set workload.args.programs=1000 --set cpu_cc.checker=true "
      "--set gpu0.compute.controller.checker=true --set workload.args.rt.gpu_sync=";
  Out hub = run(common + "hub");
  ASSERT_EQ(hub.status, 0) << hub.out << hub.err;
  EXPECT_EQ(dir(hub, "checker_violations"), 0);
  EXPECT_GT(dir(hub, "checker_loads"), 100000);
  EXPECT_GT(dir(hub, "lines_invalidated"), 0);
  Out kernel = run(common + "kernel");
  ASSERT_EQ(kernel.status, 0) << kernel.err;
  EXPECT_EQ(dir(hub, "syncs"), dir(kernel, "syncs"));
  EXPECT_EQ(dir(hub, "probes"), dir(kernel, "probes"));
  // Every GPU acquire and every GPU release (a synchronisation targeting the CPU) was one HUB
  // command, and the HUB ran no other.
  const unsigned gpu_releases = count_of(hub.stats, "\"target\": \"cpu\"");
  EXPECT_GT(gpu_releases, 1000u);
  EXPECT_EQ(stats_number(hub.stats, {"gpu0", "microcontrollers", "hub", "commands"}), 2.0 * gpu_releases);
}

TEST(CoherenceHubSync, WorkloadsPassTheirChecksAndProbesFindTheTcpCopies) {
  for (std::string w : {"square --set workload.args.n=5000", "matrix_transpose --set workload.args.width=48",
                        "shfl2d --set workload.args.width=20"}) {
    const std::string common = "--workload " + w +
                               " --set workload.args.iterations=3 --set cpu_cc.checker=true "
                               "--set gpu0.compute.controller.checker=true --set workload.args.rt.gpu_sync=";
    Out hub = run(common + "hub"), kernel = run(common + "kernel");
    ASSERT_EQ(hub.status, 0) << w << hub.out << hub.err;
    ASSERT_EQ(kernel.status, 0) << w << kernel.err;
    EXPECT_EQ(dir(hub, "checker_violations"), 0) << w;
    EXPECT_EQ(dir(hub, "probes"), dir(kernel, "probes")) << w;
    EXPECT_EQ(dir(hub, "history_lines"), dir(kernel, "history_lines")) << w;
    // Only the workload's own kernels flash the TCPs now, so the probes invalidate more.
    EXPECT_LT(stats_number(hub.stats, {"gpu0", "tcp_lines_flash_invalidated"}),
              stats_number(kernel.stats, {"gpu0", "tcp_lines_flash_invalidated"}))
        << w;
    EXPECT_GT(dir(hub, "lines_invalidated"), dir(kernel, "lines_invalidated")) << w;
    EXPECT_GT(stats_number(hub.stats, {"gpu_release_ns_mean"}), 0) << w;
    EXPECT_LT(stats_number(hub.stats, {"gpu_acquire_ns_mean"}), stats_number(kernel.stats, {"gpu_acquire_ns_mean"}))
        << w;
  }
}

TEST(CoherenceHubSync, NeedsMicrocontrollers) {
  Out o =
      run("--workload square --set workload.args.n=1000 --set workload.args.rt.gpu_sync=hub "
          "--set gpu0.blocks=compute");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE((o.out + o.err).find("rt.gpu_sync: hub: booting the microcontrollers failed"), std::string::npos)
      << o.out << o.err;
}

// --- host copies (workload.args.host_copies): the HIP samples' host arrays ------------------------
// square writes A_h and copies it to A (hipMemcpy), copies C back into C_h: 4 arrays tracked
// instead of 2; the transposes also write the CPU reference: 5 instead of 2. Per-line probes are
// one per line written, so exactly 2x and 2.5x (buffers are whole lines).
TEST(CoherenceHostCopies, HipSamplesHostArraysMultiplyThePerLineProbes) {
  const struct {
    std::string w;
    double factor;
  } cases[] = {{"square --set workload.args.n=20000", 2.0},
               {"matrix_transpose --set workload.args.width=64", 2.5},
               {"shfl2d --set workload.args.width=32", 2.5}};
  for (const auto& c : cases) {
    const std::string common = "--workload " + c.w + " --set directory.mode=per_line --set workload.args.host_copies=";
    Out plain = run(common + "false"), copies = run(common + "true");
    ASSERT_EQ(plain.status, 0) << c.w << plain.err;
    ASSERT_EQ(copies.status, 0) << c.w << copies.out << copies.err;
    EXPECT_EQ(dir(copies, "probes"), c.factor * dir(plain, "probes")) << c.w;
    EXPECT_GT(dir(copies, "ns"), dir(plain, "ns")) << c.w;
  }
}
