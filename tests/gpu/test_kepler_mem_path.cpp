// Kepler's memory path in the compute block (issue #25, docs/kepler.md): the `mem_path` workload's
// kernel (the Kepler seed's load patterns, each warp loading its pattern twice) on the GK104 config
// and on the Fermi (GF100) config. On Kepler global loads bypass the TCP (L1): no TCP read at all,
// and the TCC (L2) receives the coalescer's transactions in 32 B segments; local-memory loads are the
// only ones the TCP serves. On Fermi the second load of each warp hits the TCP.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/run_hetvp.h"
#include "common/stats_json.h"

using namespace hetvp::test;

namespace {

struct MemRun {
  int status;
  std::string stats, out, err;
  // A counter summed over the compute block's TCPs (tcp0 .. tcpN-1).
  double tcp(const std::string& key, unsigned units) const {
    double s = 0;
    for (unsigned i = 0; i < units; ++i) s += stats_number(stats, {"compute", "tcp" + std::to_string(i), key});
    return s;
  }
};

MemRun mem_path(const std::string& cfg, const std::string& args) {
  static int n = 0;
  const std::string stats = scratch() + "/kepler_mem_path" + std::to_string(n++) + ".json";
  RunResult r = run_hetvp("run " + config(cfg) + " --workload mem_path --stats " + stats + " " + args, 120);
  return {r.status, components_section(read_file(stats)), r.out, r.err};
}

// GF100's chip row in gf100_nouveau.yaml's board, with the compute block at the Falcon configs' hole.
const char* kFermiCompute =
    " --set gpu0.blocks=compute,microcontrollers --set gpu0.compute.bar0=0x440000 --set gpu0.compute.cc_bar0=0x441000";

struct Pattern {
  const char* name;
  unsigned transactions;  // the seed's accesses for one warp load on Kepler (32 B segments, 1/2/4 at a time)
  unsigned bytes;
  unsigned fermi_lines;   // 128 B lines the same load touches on Fermi
};
// seeds/kepler-memory-coalescing: contiguous 4 segments = 1 access; within 2 segments = 1 access of
// 64 B; three non-contiguous segments = 3 accesses; permuted inside 128 B = 1; scattered = 32.
const Pattern kPatterns[] = {{"contiguous", 1, 128, 1},
                             {"two_segments", 1, 64, 1},
                             {"three_segments", 3, 96, 2},
                             {"permuted", 1, 128, 1},
                             {"scattered", 32, 32 * 32, 32}};

}  // namespace

TEST(KeplerMemPath, GlobalLoadsBypassL1AndReachL2In32ByteSegments) {
  const unsigned units = 8;  // configs/gk104_nouveau.yaml: one compute unit per SMX
  for (const Pattern& p : kPatterns) {
    MemRun r = mem_path("gk104_nouveau.yaml",
                     std::string("--set workload.args.local=false --set workload.args.pattern=") + p.name);
    ASSERT_EQ(r.status, 0) << p.name << r.out << r.err;
    EXPECT_NE(r.out.find("all 32 results correct"), std::string::npos) << r.out;
    // Two loads of the pattern: the seed's accesses each time, every one past the TCP.
    EXPECT_EQ(stats_number(r.stats, {"compute", "coalescer", "load_transactions"}), 2 * p.transactions) << p.name;
    EXPECT_EQ(stats_number(r.stats, {"compute", "coalescer", "l1_bypassed_load_transactions"}), 2 * p.transactions)
        << p.name;
    EXPECT_EQ(r.tcp("l1_bypassed", units), 2 * p.transactions) << p.name;
    EXPECT_EQ(r.tcp("reads", units), 0) << p.name;  // no TCP lookup, so no L1 hit
    EXPECT_EQ(r.tcp("read_hits", units), 0) << p.name;
    // The TCC receives exactly those transactions: whole 32 B segments, bytes = 32 x segments.
    EXPECT_EQ(stats_number(r.stats, {"compute", "tcc", "read_requests"}), 2 * p.transactions) << p.name;
    EXPECT_EQ(stats_number(r.stats, {"compute", "tcc", "read_request_bytes"}), 2 * p.bytes) << p.name;
    // ... and caches them in 32 B sectors (tcc.line 32 on the Kepler configs): one lookup per segment,
    // the second load's all hits.
    EXPECT_EQ(stats_number(r.stats, {"compute", "tcc", "reads"}), 2 * p.bytes / 32) << p.name;
    EXPECT_EQ(stats_number(r.stats, {"compute", "tcc", "read_hits"}), p.bytes / 32) << p.name;
  }
}

TEST(KeplerMemPath, OnKeplerL1ServesLocalMemoryOnly) {
  const unsigned units = 8;
  MemRun r = mem_path("gk104_nouveau.yaml", "--set workload.args.pattern=contiguous --set workload.args.local=true");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("+ local memory: all 32 results correct"), std::string::npos) << r.out;
  // The global loads bypass the TCP; the two local loads are its only reads. Local memory is
  // word-interleaved across a warp's lanes (docs/ptx.md), so the warp's 4-byte local word is one
  // 128 B caching access (two 64 B TCP lines): the first load misses (the local store before it is
  // write-through, no-allocate), the second hits.
  EXPECT_EQ(r.tcp("l1_bypassed", units), 2);
  EXPECT_EQ(stats_number(r.stats, {"compute", "coalescer", "local_load_transactions"}), 2);
  EXPECT_EQ(r.tcp("reads", units), 4);
  EXPECT_EQ(r.tcp("read_hits", units), 2);
}

TEST(KeplerMemPath, OnFermiTheSameKernelHitsL1) {
  const unsigned units = 4;  // the compute block's default
  for (const Pattern& p : kPatterns) {
    MemRun r = mem_path("gf100_nouveau.yaml", std::string(kFermiCompute) +
                                               " --set workload.args.local=false --set workload.args.pattern=" + p.name);
    ASSERT_EQ(r.status, 0) << p.name << r.out << r.err;
    EXPECT_NE(r.out.find("all 32 results correct"), std::string::npos) << r.out;
    // Caching loads: one 128 B transaction per line touched, through the TCP (64 B lines): the first
    // load misses every line, the second hits every one.
    EXPECT_EQ(stats_number(r.stats, {"compute", "coalescer", "load_transactions"}), 2 * p.fermi_lines) << p.name;
    EXPECT_EQ(stats_number(r.stats, {"compute", "coalescer", "l1_bypassed_load_transactions"}), 0) << p.name;
    EXPECT_EQ(r.tcp("l1_bypassed", units), 0) << p.name;
    EXPECT_EQ(r.tcp("reads", units), 2 * 2 * p.fermi_lines) << p.name;
    EXPECT_EQ(r.tcp("read_hits", units), 2 * p.fermi_lines) << p.name;
  }
  // The YAML override on the Kepler config: caching global loads go through the TCP and hit it.
  MemRun o = mem_path("gk104_nouveau.yaml", "--set gpu0.compute.coalescer=caching --set workload.args.local=false");
  ASSERT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_EQ(o.tcp("read_hits", 8), 2);
  EXPECT_EQ(o.tcp("l1_bypassed", 8), 0);
}

// A compute window left at its default 0x404000 covers PGRAPH 0x404170, which the Falcon HUB firmware
// handshakes with: a located error that says where to move it.
TEST(KeplerMemPath, ComputeWindowOverPgraph4170IsALocatedError) {
  RunResult r = run_hetvp("run " + config("gk104_nouveau.yaml") + " --workload mem_path --set gpu0.compute.bar0=0x404000");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("gpu0.compute.bar0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0x404170, inside the compute block's window at 0x404000"), std::string::npos) << r.err;
}

// The workload's bad inputs: a pattern the seed does not have (located, exit 2), a GPU without the
// compute block (the driver says so, exit 1).
TEST(KeplerMemPath, BadInputsAreClearErrors) {
  RunResult p = run_hetvp("run " + config("gk104_nouveau.yaml") + " --workload mem_path --set workload.args.pattern=diagonal");
  EXPECT_EQ(p.status, 2) << p.out << p.err;
  EXPECT_NE(p.err.find("workload.args.pattern: 'diagonal' is not one of: contiguous, two_segments"), std::string::npos)
      << p.err;
  RunResult n = run_hetvp("run " + config("gf100_nouveau.yaml") + " --workload mem_path --set gpu0.blocks=microcontrollers,pgraph");
  EXPECT_EQ(n.status, 1) << n.out << n.err;
  EXPECT_NE((n.out + n.err).find("has no compute front end"), std::string::npos) << n.out << n.err;
  EXPECT_EQ((n.out + n.err).find("results correct"), std::string::npos);
}

// The summary line says what differs between the chips (issue #42 item 7), not only --stats: the
// chip, its architecture, its global-load path and the kernel's simulated time.
TEST(KeplerMemPath, SummaryNamesTheChipsMemoryPath) {
  MemRun k = mem_path("gk104_nouveau.yaml", "--set workload.args.pattern=scattered --set workload.args.local=false");
  ASSERT_EQ(k.status, 0) << k.out << k.err;
  EXPECT_NE(k.out.find("all 32 results correct; gk104, sm_30: global loads bypass L1 by default (L2 only, 32 B "
                       "segments), L1 serves local memory; kernel "),
            std::string::npos)
      << k.out;
  MemRun f = mem_path("gf100_nouveau.yaml",
                      std::string(kFermiCompute) + " --set workload.args.pattern=scattered --set workload.args.local=false");
  ASSERT_EQ(f.status, 0) << f.out << f.err;
  EXPECT_NE(f.out.find("all 32 results correct; gf100, sm_20: global loads cached in L1 (128 B lines) by default; kernel "),
            std::string::npos)
      << f.out;
}
