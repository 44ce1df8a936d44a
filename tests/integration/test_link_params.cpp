// PCIe TLP size limits are declared once, on the link: the GPU's endpoint asks the link it is
// connected to (pcie::LinkQuery through its upstream socket) instead of having its own keys.
#include <gtest/gtest.h>

#include <regex>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
// gpu0's hostif dma_tlps from a stats file (the only GPU of default.yaml).
long dma_tlps(const std::string& stats) {
  std::smatch m;
  std::string s = read_file(stats);
  if (!std::regex_search(s, m, std::regex("\"dma_tlps\": ([0-9]+)"))) return -1;
  return std::stol(m[1]);
}
long run_dma(const std::string& max_payload) {
  std::string out = scratch() + "/mp" + max_payload + ".json";
  RunResult r = run_hetvp("run " + config("default.yaml") +
                          " --set workload.args.max_size=64KiB --set workload.args.methods=dma --quiet"
                          " --set pcie0.max_payload=" +
                          max_payload + " --stats " + out);
  EXPECT_EQ(r.status, 0) << r.err;
  return dma_tlps(out);
}
}  // namespace

TEST(LinkParams, EndpointSplitsDmaAtTheLinksMaxPayload) {
  long at128 = run_dma("128"), at256 = run_dma("256"), at512 = run_dma("512"), at1024 = run_dma("1024");
  ASSERT_GT(at128, 0);
  EXPECT_LT(at256, at128);
  EXPECT_LT(at512, at256);
  // The device supports 512-byte payloads at most: a larger link setting does not change it.
  EXPECT_EQ(at1024, at512);
}

TEST(LinkParams, TheEndpointHasNoKeysOfItsOwn) {
  for (const char* key : {"max_payload", "max_read_request"}) {
    RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.pcie." + key + "=256");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(std::string("'") + key +
                         "' is no longer set here: it is the PCIe link's parameter (e.g. pcie0." + key + ")"),
              std::string::npos)
        << r.err;
  }
  // Said in the file: a located error.
  std::string s = read_file(config("gen3_x8.yaml"));
  auto p = s.find("    bar1_read_latency");
  ASSERT_NE(p, std::string::npos);
  std::string bad = write_file("old_key.yaml", s.insert(p, "    max_payload: 256\n"));
  RunResult r = run_hetvp("check " + bad);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("old_key.yaml:74:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gpu0.pcie.max_payload: 'max_payload' is no longer set here"), std::string::npos) << r.err;
}
