// Copy behaviour of the default topology (GTX 480 class, PCIe gen2 x16), from simulated times:
// orderings and ratios, not absolute values. Also link sharing and the other topologies.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <vector>

#include "common/run_hetvp.h"
#include "sw/workloads/transfer_check.h"

using namespace hetvp::test;

namespace {
// (method, direction, size) -> time in ns, from a transfer run's CSV.
using Times = std::map<std::tuple<std::string, std::string, uint64_t>, double>;

// DMA and IORW only (the offloaded methods have their own tests).
Times run_transfer(const std::string& extra, const std::string& cfg = "default.yaml") {
  static int n = 0;
  std::string csv = scratch() + "/t" + std::to_string(n++) + ".csv";
  RunResult r =
      run_hetvp("run " + config(cfg) + " --quiet --set workload.args.methods=dma,iorw --csv " + csv + " " + extra);
  EXPECT_EQ(r.status, 0) << r.err;
  Times t;
  auto rows = read_csv(csv);
  for (size_t i = 1; i < rows.size(); ++i) t[{rows[i][0], rows[i][1], std::stoull(rows[i][2])}] = std::stod(rows[i][3]);
  return t;
}
}  // namespace

TEST(Transfer, HostToDeviceIorwWinsSmallDmaWinsLarge) {
  Times t = run_transfer(
      "--set workload.args.max_size=16MiB --set workload.args.factor=4 --set workload.args.directions=htod");
  // (Where exactly they cross is calibration: docs/calibration.md, tests/integration/test_offload.cpp.)
  for (uint64_t s : {4ull, 64ull, 1024ull, 16384ull})
    EXPECT_LT((t[{"IORW", "HtoD", s}]), (t[{"DMA", "HtoD", s}])) << "size " << s;
  for (uint64_t s : {1ull << 20, 4ull << 20, 16ull << 20})
    EXPECT_LT((t[{"DMA", "HtoD", s}]), (t[{"IORW", "HtoD", s}])) << "size " << s;
}

TEST(Transfer, DeviceToHostIorwPaysARoundTripPerRead) {
  Times t = run_transfer(
      "--set workload.args.max_size=64KiB --set workload.args.factor=4 --set workload.args.directions=dtoh --set "
      "workload.args.methods=iorw");
  // 16 KiB more = 4096 more 32-bit reads: each a non-posted round trip of ~1.7 us
  // (link latency both ways + the GPU's BAR1 read path).
  double per_read = ((t[{"IORW", "DtoH", 65536}]) - (t[{"IORW", "DtoH", 16384}])) / (12288.0);
  EXPECT_GT(per_read, 1600.0);
  EXPECT_LT(per_read, 2000.0);
  // Linear in the number of reads.
  EXPECT_NEAR((t[{"IORW", "DtoH", 65536}]) / (t[{"IORW", "DtoH", 16384}]), 4.0, 0.1);
}

TEST(Transfer, LargeDmaReachesLinkPayloadBandwidth) {
  Times t = run_transfer(
      "--set workload.args.min_size=64MiB --set workload.args.max_size=64MiB --set workload.args.methods=dma");
  // gen2 x16: 8e9 B/s after 8b/10b; a 128-byte TLP carries 128 of 148 wire bytes (12 header + 8
  // framing): the payload bandwidth is 6.92e9 B/s.
  const double payload_bw = 8e9 * 128.0 / 148.0;
  for (const char* d : {"HtoD", "DtoH"}) {
    double bw = (64.0 * 1048576) / ((t[{"DMA", d, 64ull << 20}]) * 1e-9);
    EXPECT_GT(bw, 0.85 * payload_bw) << d << ": " << bw / 1e9 << " GB/s";
    EXPECT_LT(bw, payload_bw) << d;
  }
}

TEST(Transfer, InterruptCompletionGivesTheSameData) {
  std::string stats = scratch() + "/irq.json";
  RunResult r = run_hetvp(
      "run " + config("default.yaml") + " --quiet --set workload.args.max_size=64KiB --set workload.args.methods=dma" +
      " --set workload.args.driver.completion=interrupt --set workload.args.factor=4 --stats " + stats);
  EXPECT_EQ(r.status, 0) << r.err;
  std::string s = read_file(stats);
  EXPECT_TRUE(std::regex_search(s, std::regex("\"msis\": 16[,\\n}]"))) << "one MSI per copy (8 sizes x 2 directions)";
}

TEST(Transfer, SameDirectionSharesTheLinkOppositeDoesNot) {
  std::string csv = scratch() + "/share.csv";
  RunResult r = run_hetvp("run " + config("default.yaml") + " --quiet --workload link_sharing --csv " + csv);
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, double> t;  // "scenario/engine/dir" -> ns
  auto rows = read_csv(csv);
  for (size_t i = 1; i < rows.size(); ++i) t[rows[i][0] + "/" + rows[i][1] + "/" + rows[i][2]] = std::stod(rows[i][3]);
  double alone0 = t["alone/0/HtoD"], alone1 = t["alone/1/HtoD"], alone1d = t["alone/1/DtoH"];
  ASSERT_GT(alone0, 0);
  // Same direction: both need the one downstream direction; each takes clearly longer.
  EXPECT_GT(t["same/0/HtoD"], 1.5 * alone0);
  EXPECT_GT(t["same/1/HtoD"], 1.5 * alone1);
  // Opposite directions: each has its own direction; at most a few percent (request TLPs).
  EXPECT_LT(t["opposite/0/HtoD"], 1.05 * alone0);
  EXPECT_LT(t["opposite/1/DtoH"], 1.05 * alone1d);
}

TEST(Transfer, CopyEngineReadsInFlightSetItsSpeed) {
  // 32 reads in flight hide the link's round trip; one at a time pays it for every 512 bytes.
  Times many = run_transfer(
      "--set workload.args.min_size=1MiB --set workload.args.max_size=1MiB --set workload.args.methods=dma"
      " --set workload.args.directions=htod");
  Times one = run_transfer(
      "--set workload.args.min_size=1MiB --set workload.args.max_size=1MiB --set workload.args.methods=dma"
      " --set workload.args.directions=htod --set gpu0.copy_engine.outstanding=1");
  EXPECT_GT((one[{"DMA", "HtoD", 1ull << 20}]), 5 * (many[{"DMA", "HtoD", 1ull << 20}]));
}

TEST(Transfer, LargeBurstsAreSplitIntoPipelinedReadRequests) {
  // A 2 KiB piece is four 512-byte read requests issued back to back by the endpoint: about as
  // fast as four 512-byte pieces (serialised requests would lose a round trip each).
  Times b512 = run_transfer(
      "--set workload.args.min_size=16MiB --set workload.args.max_size=16MiB --set workload.args.methods=dma"
      " --set workload.args.directions=htod");
  Times b2k = run_transfer(
      "--set workload.args.min_size=16MiB --set workload.args.max_size=16MiB --set workload.args.methods=dma"
      " --set workload.args.directions=htod --set gpu0.copy_engine.burst=2048");
  EXPECT_NEAR((b2k[{"DMA", "HtoD", 16ull << 20}]) / (b512[{"DMA", "HtoD", 16ull << 20}]), 1.0, 0.05);
}

TEST(Topology, TwoGpusBehindOneRootComplexFromYamlAlone) {
  RunResult r = run_hetvp("run " + config("two_gpus.yaml"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gpu0: 10de:06c0 on bus 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu1: 10de:06c0 on bus 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 GPCs, 1024 MiB VRAM"), std::string::npos) << r.out;
  // Copies to the second GPU work too, and really go to it.
  std::string stats = scratch() + "/two.json";
  RunResult t = run_hetvp("run " + config("two_gpus.yaml") +
                          " --workload transfer --set workload.args.gpu=1 --set workload.args.max_size=1MiB"
                          " --set workload.args.methods=dma --stats " +
                          stats);
  EXPECT_EQ(t.status, 0) << t.err;
  std::string j = components_section(read_file(stats));
  std::smatch m0, m1;
  ASSERT_TRUE(std::regex_search(j, m0, std::regex("\"gpu0\": \\{[\\s\\S]*?\"copy0\": \\{\\s*\"copies\": (\\d+)")));
  ASSERT_TRUE(std::regex_search(j, m1, std::regex("\"gpu1\": \\{[\\s\\S]*?\"copy0\": \\{\\s*\"copies\": (\\d+)")));
  EXPECT_EQ(m0[1], "0");
  EXPECT_GT(std::stoi(m1[1]), 0);
}

TEST(Topology, Gen3x8LinkFromYamlAlone) {
  Times g3 = run_transfer(
      "--set workload.args.min_size=16MiB --set workload.args.max_size=16MiB --set workload.args.methods=dma",
      "gen3_x8.yaml");
  Times g2 = run_transfer(
      "--set workload.args.min_size=16MiB --set workload.args.max_size=16MiB --set workload.args.methods=dma");
  // gen3 x8 with 256-byte payloads carries 7.88e9*256/276 = 7.31e9 B/s of payload vs 6.92e9.
  double ratio = (g2[{"DMA", "HtoD", 16ull << 20}]) / (g3[{"DMA", "HtoD", 16ull << 20}]);
  EXPECT_GT(ratio, 1.03);
  EXPECT_LT(ratio, 1.10);
  // The same link with --set instead of a file: x8 gen2 halves the bandwidth.
  Times x8 = run_transfer(
      "--set workload.args.min_size=16MiB --set workload.args.max_size=16MiB --set workload.args.methods=dma"
      " --set pcie0.lanes=8");
  EXPECT_NEAR((x8[{"DMA", "HtoD", 16ull << 20}]) / (g2[{"DMA", "HtoD", 16ull << 20}]), 2.0, 0.1);
}

// The workload's check of a read-back chunk finds the first wrong byte wherever it is: in the
// guard before the copy, inside the copy, in the guard after it, in a chunk that holds only copy
// bytes or only guard bytes; and a right chunk passes.
TEST(TransferCheck, FindsTheFirstWrongByteInGuardsAndCopy) {
  using hetvp::sw::first_wrong_byte;
  const uint64_t guard = 16, size = 100, total = size + 2 * guard;
  std::vector<uint8_t> marker(total, 0xA5), pattern(size), span(total, 0xA5);
  for (uint64_t i = 0; i < size; ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 1);
  std::copy(pattern.begin(), pattern.end(), span.begin() + guard);
  // The whole span as one chunk, then as chunks of 10 bytes (some all guard, some all copy).
  for (uint64_t chunk : {total, uint64_t{10}}) {
    for (uint64_t off = 0; off < total; off += chunk) {
      const uint64_t n = std::min(chunk, total - off);
      EXPECT_EQ(first_wrong_byte(span.data() + off, n, off, guard, size, marker.data(), pattern.data()).at, n)
          << "a right chunk at " << off;
    }
    for (uint64_t bad : {uint64_t{0}, guard - 1, guard, guard + 57, guard + size - 1, guard + size, total - 1}) {
      std::vector<uint8_t> got = span;
      got[bad] ^= 0x40;
      const uint64_t off = bad / chunk * chunk, n = std::min(chunk, total - off);
      const auto w = first_wrong_byte(got.data() + off, n, off, guard, size, marker.data(), pattern.data());
      EXPECT_EQ(w.at, bad - off) << "byte " << bad << " in chunks of " << chunk;
      EXPECT_EQ(w.want, span[bad]) << "byte " << bad;
    }
  }
}
