// The generic bridges with a test-only block (tests/rtl/blocks/apb_copy.sv, rtl.apb_copy): APB
// register target (SETUP/ACCESS with a wait state), AXI4 master with several read bursts
// outstanding, IDs, every AW before its W beats, byte strobes; and the APB time-out
// (rtl.apb_copy_fault1: PREADY never rises); and every AXI4 master rule the bridge checks, broken
// by the block's BREAK register (burst type, size, alignment, 4 KiB, WLAST, RREADY/BREADY
// time-outs), each stopping the run with its exact message. In-process runs (one per test process).
#include <gtest/gtest.h>

#include <sstream>

#include "common/run_hetvp.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "rtl/bridges/rules.h"

using namespace hetvp;
using hetvp::rtl::describe;
using hetvp::rtl::Rule;

namespace {

constexpr uint64_t kBase = 0x40200000;

// Copies `bursts` x 32 bytes with strobe mask `strb` and `maxout` reads outstanding, then checks
// every destination byte (copied where the strobe is set, untouched elsewhere) and MAXSEEN.
struct ApbCopyArgs : ParamSet {
  Int<unsigned> bursts{this, "bursts", 16, "", Range{1, 16}};
  Int<unsigned> strb{this, "strb", 0xff, "", Range{0, 255}};
  Int<unsigned> maxout{this, "maxout", 4, "", Range{1, 4}};
  Int<unsigned> brk{this, "brk", 0, "the AXI4 rule the block breaks (apb_copy.sv BREAK)", Range{0, 9}};
  Int<unsigned> src_offset{this, "src_offset", 0, "SRC = the source buffer + this", Range{0, 4095}};
};
class ApbCopyProgram : public ProgramWithArgs<ApbCopyArgs> {
 public:
  int run(HostApi& api, const ApbCopyArgs& a) override {
    const unsigned bursts = a.bursts, strb = a.strb, maxout = a.maxout;
    const uint64_t src = api.alloc_pinned(4096), dst = api.alloc_pinned(4096);
    api.log(
        format("apb_copy: SRC 0x%llx, DST 0x%llx", (unsigned long long)(src + a.src_offset), (unsigned long long)dst));
    std::vector<uint8_t> in(bursts * 32), before(bursts * 32, 0xee), out(bursts * 32);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    api.write(src, in.data(), in.size());
    api.write(dst, before.data(), before.size());
    api.mmio_write32(kBase + 0x00, uint32_t(src + a.src_offset));
    api.mmio_write32(kBase + 0x20, a.brk);
    api.mmio_write32(kBase + 0x04, uint32_t(dst));
    api.mmio_write32(kBase + 0x08, bursts);
    api.mmio_write32(kBase + 0x0c, strb);
    api.mmio_write32(kBase + 0x18, maxout);
    if (uint32_t v = api.mmio_read32(kBase + 0x08); v != bursts)
      return fprintf(stderr, "APB read-back of BURSTS: %u\n", v), 1;
    api.mmio_write32(kBase + 0x10, 1);
    if (!api.wait_interrupt(41, sc_core::sc_time(1, sc_core::SC_MS))) return fprintf(stderr, "no interrupt\n"), 1;
    const uint32_t st = api.mmio_read32(kBase + 0x14), seen = api.mmio_read32(kBase + 0x1c);
    api.mmio_write32(kBase + 0x10, 2);
    api.read(dst, out.data(), out.size());
    int bad = 0;
    for (size_t i = 0; i < out.size(); ++i) bad += out[i] != (((strb >> (i % 8)) & 1) ? in[i] : before[i]);
    const std::string line = format("apb_copy: status 0x%x, max outstanding seen %u, %d bad bytes", st, seen, bad);
    api.log(line);
    fprintf(stderr, "%s\n", line.c_str());  // also when the workload fails
    return (st == 2 && seen == maxout && bad == 0) ? 0 : 1;
  }
};
HETVP_REGISTER_PROGRAM("test_apb_copy", ApbCopyProgram, "TEST ONLY: drives rtl.apb_copy");

const char* kYaml = R"(
simulation: {seed: 1, quantum: 1 us, time_limit: 10 ms}
workload: {name: test_apb_copy, cpu: cpu}
cpu: {type: host_cpu, connect: {mem: host_bus}}
host_bus:
  type: router
  latency: 2 ns
  map:
    - {to: host_mem, base: 0x0, size: 1 GiB}
    - {to: blk.regs, base: 0x40200000, size: 256}
host_mem: {type: memory, size: 1 GiB, latency: 60 ns}
blk: {type: rtl.apb_copy, clock: 200 MHz, irq_vector: 41, connect: {mem: host_bus, irq: cpu.irq}}
)";

struct Outcome {
  int status;
  std::string text;
};
Outcome run(std::vector<std::string> sets) {
  RunOptions opt;
  opt.config = test::write_file("apb_copy.yaml", kYaml);
  opt.overrides = std::move(sets);
  std::ostringstream out, err;
  const int st = run_platform(opt, out, err);
  return {st, out.str() + err.str()};
}

TEST(RtlBridges, SeveralOutstandingBurstsAllStrobes) {
  auto o = run({});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("apb_copy: status 0x2, max outstanding seen 4, 0 bad bytes"), std::string::npos) << o.text;
}

TEST(RtlBridges, PartialStrobesWriteOnlyTheirBytes) {
  auto o = run({"workload.args.strb=0x5a", "workload.args.bursts=5"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("max outstanding seen 4, 0 bad bytes"), std::string::npos) << o.text;
}

TEST(RtlBridges, BridgeLimitsOutstandingBursts) {
  // The bridge accepts at most max_outstanding read bursts: the block never sees more.
  auto o = run({"blk.max_outstanding=2", "workload.args.maxout=2"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("max outstanding seen 2, 0 bad bytes"), std::string::npos) << o.text;
}

TEST(RtlBridges, BridgeNeverAcceptsMoreThanMaxOutstanding) {
  // The block would issue 4; the bridge holds ARREADY low at 2, so the block sees at most 2 (and
  // copies every byte right), and the program, which expects 4, fails.
  auto o = run({"blk.max_outstanding=2", "workload.args.maxout=4"});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.text.find("apb_copy: status 0x2, max outstanding seen 2, 0 bad bytes"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("FAILED: workload 'test_apb_copy' reported failure (code 1)"), std::string::npos) << o.text;
}

TEST(RtlBridges, ApbWithoutPreadyTimesOut) {
  const std::string ring = test::scratch() + "/apb_ring.vcd";
  auto o = run({"blk.type=rtl.apb_copy_fault1", "blk.timeout_cycles=300", "blk.ring_file=" + ring});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.text.find("rtl.apb_copy_fault1 'blk': APB channel: " + describe(Rule::AccessAnswered) +
                        " violated: time-out: no PREADY after 300 cycles (write of the register access), address 0x0, "
                        "at "),
            std::string::npos)
      << o.text;
  const std::string v = test::read_file(ring);
  EXPECT_NE(v.find(" s_apb_penable $end"), std::string::npos) << v.substr(0, 300);
}

// The block breaks one AXI4 rule (BREAK = brk, or SRC moved by src_offset): the run stops with
// "rtl.apb_copy 'blk': <message>, address <SRC or DST, from the program's first line>, at ...".
void expect_rule(std::vector<std::string> sets, const std::string& message, bool at_dst) {
  const std::string ring = test::scratch() + "/rule_ring.vcd";
  sets.push_back("blk.timeout_cycles=200");
  sets.push_back("blk.ring_file=" + ring);
  auto o = run(sets);
  EXPECT_EQ(o.status, kExitSimFailure) << o.text;
  unsigned long long src = 0, dst = 0;
  const size_t p = o.text.find("apb_copy: SRC ");
  ASSERT_NE(p, std::string::npos) << o.text;
  ASSERT_EQ(sscanf(o.text.c_str() + p, "apb_copy: SRC 0x%llx, DST 0x%llx", &src, &dst), 2) << o.text;
  const std::string expected =
      "FAILED: blk: rtl.apb_copy 'blk': " + message + format(", address 0x%llx, at ", at_dst ? dst : src);
  EXPECT_NE(o.text.find(expected), std::string::npos) << "expected: " << expected << "\n" << o.text;
  EXPECT_NE(o.text.find("; last cycles in " + ring), std::string::npos) << o.text;
  EXPECT_NE(test::read_file(ring).find(" m_axi_arburst $end"), std::string::npos);
}

TEST(RtlBridgeRules, ReservedBurstType) {
  expect_rule({"workload.args.brk=1"}, "AXI4 AR channel: " + describe(Rule::BurstType) + " violated: burst type 0b11",
              false);
}
TEST(RtlBridgeRules, FixedBurstNotSupported) {
  expect_rule({"workload.args.brk=2"}, "AXI4 AR channel: " + describe(Rule::IncrOnly) + " violated: a FIXED burst",
              false);
}
TEST(RtlBridgeRules, WrapBurstNotSupported) {
  expect_rule({"workload.args.brk=3"}, "AXI4 AR channel: " + describe(Rule::IncrOnly) + " violated: a WRAP burst",
              false);
}
TEST(RtlBridgeRules, BeatWiderThanTheBus) {
  expect_rule({"workload.args.brk=4"},
              "AXI4 AR channel: " + describe(Rule::BurstSize) + " violated: beats of 16 bytes on the 8-byte data bus",
              false);
}
TEST(RtlBridgeRules, StartNotAligned) {
  expect_rule(
      {"workload.args.src_offset=4"},
      "AXI4 AR channel: " + describe(Rule::AlignedStart) + " violated: start not aligned to the 8-byte beat size",
      false);
}
TEST(RtlBridgeRules, BurstCrosses4KiB) {
  expect_rule({"workload.args.src_offset=4080"},
              "AXI4 AR channel: " + describe(Rule::Burst4k) + " violated: 4 beats of 8 bytes cross a 4 KiB boundary",
              false);
}
TEST(RtlBridgeRules, WriteBurstRulesToo) {
  expect_rule({"workload.args.brk=5"}, "AXI4 AW channel: " + describe(Rule::IncrOnly) + " violated: a FIXED burst",
              true);
}
TEST(RtlBridgeRules, WlastEarly) {
  expect_rule({"workload.args.brk=6"},
              "AXI4 W channel: " + describe(Rule::Wlast) + " violated: WLAST on beat 2 of a burst of 4 beats (AWLEN 3)",
              true);
}
TEST(RtlBridgeRules, WlastMissing) {
  expect_rule({"workload.args.brk=7"},
              "AXI4 W channel: " + describe(Rule::Wlast) +
                  " violated: no WLAST on beat 4, the last of a burst of 4 beats (AWLEN 3)",
              true);
}
// Relaxed (`relax: [axi.wlast]`): the bridge ends each write burst after AWLEN + 1 beats, the copy
// is right, and the rule's one warning and its count say what the block did.
void expect_relaxed_wlast(unsigned brk, const std::string& detail, unsigned breaks) {
  auto o = run({format("workload.args.brk=%u", brk), "blk.relax=[axi.wlast]"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("apb_copy: status 0x2, max outstanding seen 4, 0 bad bytes"), std::string::npos) << o.text;
  EXPECT_NE(
      o.text.find("warning: rtl.apb_copy 'blk': AXI4 W channel: " + describe(Rule::Wlast) + " violated: " + detail),
      std::string::npos)
      << o.text;
  EXPECT_EQ(o.text.find("warning:"), o.text.rfind("warning:")) << "one warning\n" << o.text;
  EXPECT_NE(o.text.find(format("blk: relaxed rule axi.wlast broken %u times", breaks)), std::string::npos) << o.text;
}
TEST(RtlBridgeRules, RelaxedEarlyWlast) {  // and none on beat 4: two breaks per burst
  expect_relaxed_wlast(6, "WLAST on beat 2 of a burst of 4 beats (AWLEN 3)", 32);
}
TEST(RtlBridgeRules, RelaxedMissingWlast) {
  expect_relaxed_wlast(7, "no WLAST on beat 4, the last of a burst of 4 beats (AWLEN 3)", 16);
}

TEST(RtlBridgeRules, RreadyTimeOut) {
  expect_rule({"workload.args.brk=8"},
              "AXI4 R channel: " + describe(Rule::ResponseTaken) + " violated: time-out: RREADY low for 201 cycles",
              false);
}
TEST(RtlBridgeRules, BreadyTimeOut) {
  expect_rule({"workload.args.brk=9"},
              "AXI4 B channel: " + describe(Rule::ResponseTaken) + " violated: time-out: BREADY low for 201 cycles",
              true);
}

}  // namespace
