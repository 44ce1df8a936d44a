// Deliberately broken variants of the example block (crc32_dma.sv FAULT = 1..4, built as test-only
// blocks rtl.crc32_fault<N> into this executable): each failure stops the run with the block, the
// channel, the rule, the address and the simulated time named, and writes the ring buffer of the
// last cycles as a VCD file. In-process runs (one per test process).
#include <gtest/gtest.h>

#include <sstream>

#include "common/run_hetvp.h"
#include "platform/simulation.h"
#include "rtl/bridges/rules.h"

using namespace hetvp;
using hetvp::rtl::describe;
using hetvp::rtl::Rule;

namespace {

struct Outcome {
  int status;
  std::string err, ring;
};

Outcome run(const std::string& type, std::vector<std::string> sets) {
  RunOptions opt;
  opt.config = test::config("rtl_block_example.yaml");
  opt.quiet = true;
  const std::string ring = test::scratch() + "/" + type + "_ring.vcd";
  sets.push_back("crc0.type=" + type);
  sets.push_back("crc0.ring_file=" + ring);
  sets.push_back("crc0.ring_cycles=64");
  opt.overrides = sets;
  std::ostringstream out, err;
  const int st = run_platform(opt, out, err);
  return {st, err.str() + out.str(), ring};
}

// The ring buffer is a VCD with its definitions and 2 time stamps per kept cycle.
void expect_ring(const std::string& path) {
  const std::string v = test::read_file(path);
  ASSERT_FALSE(v.empty()) << path << " not written";
  EXPECT_NE(v.find("$timescale 1ps $end"), std::string::npos);
  EXPECT_NE(v.find("$enddefinitions $end"), std::string::npos);
  EXPECT_NE(v.find("$var wire 1 "), std::string::npos);
  EXPECT_NE(v.find(" m_axi_arvalid $end"), std::string::npos);
  size_t stamps = 0;
  for (size_t p = v.find("\n#"); p != std::string::npos; p = v.find("\n#", p + 1)) ++stamps;
  EXPECT_GE(stamps, 2u);
  EXPECT_LE(stamps, 128u);
}

TEST(RtlBlockFaults, ValidDroppedBeforeReadyIsCaught) {
  auto o = run("rtl.crc32_fault1", {"crc0.test_ready_delay=2"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.err.find("rtl.crc32_fault1 'crc0': AXI4 AR channel: rule axi.valid_held (AMBA AXI, ARM IHI 0022E "
                       "A3.2.1: once VALID is high it stays high until READY (the handshake)) violated: VALID dropped "
                       "before READY, address 0x10000000, at "),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("last cycles in " + o.ring), std::string::npos) << o.err;
  expect_ring(o.ring);
}

TEST(RtlBlockFaults, PayloadChangedWhileWaitingIsCaught) {
  auto o = run("rtl.crc32_fault2", {"crc0.test_ready_delay=2"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.err.find("rtl.crc32_fault2 'crc0': AXI4 AR channel: " + describe(Rule::PayloadStable) +
                       " violated: ARADDR changed from 0x10000000 to 0x10000008, address 0x10000000, at "),
            std::string::npos)
      << o.err;
  expect_ring(o.ring);
}

TEST(RtlBlockFaults, CorrectBlockPassesWithTheSameReadyDelay) {
  auto o = run("rtl.crc32", {"crc0.test_ready_delay=2"});
  EXPECT_EQ(o.status, kExitOk) << o.err;
}

TEST(RtlBlockFaults, WrongResultIsCaughtByLockstep) {
  auto o = run("rtl.crc32_fault3", {"crc0.mode=lockstep"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.err.find("hetvp/lockstep: rtl.crc32_fault3 'crc0': first divergence: memory write 0: RTL 0x10010044 <- "
                       "01000000 (strobes 4 bytes), TLM 0x10010044 <- 00000000 (4 bytes), at "),
            std::string::npos)
      << o.err;
  expect_ring(o.ring);
}

TEST(RtlBlockFaults, WrongResultWithoutLockstepFailsTheHostCheck) {
  auto o = run("rtl.crc32_fault3", {});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.err.find("workload 'rtl_crc32' reported failure"), std::string::npos) << o.err;
}

// FAULT 5 writes the (right) result 4 cycles late: the host's check passes, lockstep's cycle
// stamps catch it at the first write, naming both cycles.
TEST(RtlBlockFaults, LateWritePassesTheHostCheck) {
  auto o = run("rtl.crc32_fault5", {});
  EXPECT_EQ(o.status, kExitOk) << o.err;
}

TEST(RtlBlockFaults, LateWriteIsCaughtByLockstep) {
  auto o = run("rtl.crc32_fault5", {"crc0.mode=lockstep"});
  EXPECT_EQ(o.status, kExitSimFailure);
  const std::string head = "hetvp/lockstep: rtl.crc32_fault5 'crc0': first divergence: bus transaction 0: RTL write ";
  const size_t p = o.err.find(head);
  ASSERT_NE(p, std::string::npos) << o.err;
  unsigned long long ra = 0, ta = 0, rc = 0, tc = 0;
  unsigned rl = 0, tl = 0;
  ASSERT_EQ(sscanf(o.err.c_str() + p + head.size(),
                   "0x%llx (%u bytes) at cycle %llu, TLM write 0x%llx (%u bytes) at cycle %llu", &ra, &rl, &rc, &ta,
                   &tl, &tc),
            6)
      << o.err;
  EXPECT_EQ(ra, ta);
  EXPECT_EQ(rl, 4u);
  EXPECT_EQ(tl, 4u);
  EXPECT_EQ(rc, tc + 4) << "the RTL's write is 4 cycles late";
  expect_ring(o.ring);
}

TEST(RtlBlockFaults, BlockThatNeverAnswersTimesOut) {
  auto o = run("rtl.crc32_fault4", {"crc0.timeout_cycles=500"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(
      o.err.find("rtl.crc32_fault4 'crc0': AXI4-Lite AR channel: " + describe(Rule::AccessAnswered) +
                 " violated: time-out: no READY after 500 cycles (read of the register access), address 0x20, at "),
      std::string::npos)
      << o.err;
  expect_ring(o.ring);
}

TEST(RtlBlockFaults, TlmModeWithoutReferenceIsAConfigError) {
  auto o = run("rtl.crc32_fault4", {"crc0.mode=tlm"});
  EXPECT_EQ(o.status, kExitUsage);
  EXPECT_NE(o.err.find("mode tlm needs a TLM reference model of rtl.crc32_fault4"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("crc0.mode"), std::string::npos) << o.err;
}

}  // namespace
