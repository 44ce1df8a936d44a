// What a block that breaks an AXI rule, or whose reset is not rst_n, needs from hetvp (issue #42
// item 10): the checkers name the rule and the section of the AMBA specification (one table,
// rtl/bridges/rules.cpp, also docs/rtl_blocks.md section 4); a block's `relax:` list turns a rule
// into a warning (once, counted in the stats) and the bridge does the forgiving thing — here
// rtl.axil_eager (tests/rtl/blocks/axil_eager.sv) raising RVALID in the same cycle as its AR
// handshake; a bad `relax:` is a located configuration error; rtl.axil_rst_high is reset through
// `rst`, active high (hetvp_add_rtl_block RESET rst ACTIVE_HIGH), with no wrapper.
#include <gtest/gtest.h>

#include <set>

#include "common/run_hetvp.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "rtl/bridges/rules.h"
#include "tests/rtl/block_run.h"

using namespace hetvp;
using hetvp::rtl::Rule;
using hetvp::test::line_of;
using hetvp::test::Outcome;
using hetvp::test::run;

namespace {

constexpr uint64_t kBase = 0x40400000;

// SCRATCH (0x00) read at once (its reset value), written, read back; the register at 0x04 read.
struct ScratchArgs : ParamSet {
  Int<uint32_t> reset_value{this, "reset_value", 0, "SCRATCH's value after reset", Min{0}};
  Int<uint32_t> reg4{this, "reg4", 0, "the expected value at 0x04", Min{0}};
};
class ScratchProgram : public ProgramWithArgs<ScratchArgs> {
 public:
  int run(HostApi& api, const ScratchArgs& a) override {
    const uint32_t first = api.mmio_read32(kBase);
    api.mmio_write32(kBase, 0x12345678);
    const uint32_t back = api.mmio_read32(kBase), reg4 = api.mmio_read32(kBase + 4);
    const std::string line =
        format("scratch_block: reset value 0x%08x, scratch 0x%08x, reg4 0x%08x", first, back, reg4);
    api.log(line);
    fprintf(stderr, "%s\n", line.c_str());
    return first == a.reset_value && back == 0x12345678 && reg4 == a.reg4 ? 0 : 1;
  }
};
HETVP_REGISTER_PROGRAM("test_scratch_block", ScratchProgram,
                       "TEST ONLY: drives SCRATCH of rtl.axil_eager/axil_rst_high");

std::string yaml(const std::string& type, const std::string& block_extra = "") {
  return format(R"(
simulation: {seed: 1, quantum: 1 us, time_limit: 10 ms}
workload: {name: test_scratch_block, cpu: cpu}
cpu: {type: host_cpu, connect: {mem: host_bus}}
host_bus:
  type: router
  latency: 2 ns
  map:
    - {to: host_mem, base: 0x0, size: 1 GiB}
    - {to: blk.regs, base: 0x%llx, size: 256}
host_mem: {type: memory, size: 1 GiB, latency: 60 ns}
blk: {type: %s, clock: 200 MHz%s}
)",
                (unsigned long long)kBase, type.c_str(), block_extra.c_str());
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

const std::string kEagerId = "workload.args.reg4=0x45414752";

// The issue's case: the run stops at the first read, naming the rule with its section.
TEST(RtlRelax, SameCycleResponseStopsTheRunNamingTheRule) {
  const Outcome o = run(yaml("rtl.axil_eager"), {kEagerId, "blk.ring_file=" + test::scratch() + "/eager_ring.vcd"});
  EXPECT_EQ(o.status, kExitSimFailure) << o.text;
  EXPECT_NE(
      o.text.find("FAILED: blk: rtl.axil_eager 'blk': AXI4-Lite R channel: rule axi.r_after_ar (AMBA AXI, ARM "
                  "IHI 0022E A3.3.1: the slave raises RVALID only after the AR handshake) violated: R response at "
                  "the same edge as the read's AR handshake, address 0x0, at "),
      std::string::npos)
      << o.text;
  EXPECT_NE(o.text.find("; `relax: [axi.r_after_ar]` on 'blk' makes it a warning while the RTL is fixed"),
            std::string::npos)
      << o.text;
  // Nothing else failed: the other failure is its consequence, the program's load that got the
  // bridge's SLVERR when the run stopped.
  EXPECT_EQ(count(o.text, "FAILED"), 2u) << o.text;
  EXPECT_NE(o.text.find("FAILED: cpu: workload 'test_scratch_block': uncached load of 4 bytes at 0x40400000 failed: "
                        "TLM_GENERIC_ERROR_RESPONSE"),
            std::string::npos)
      << o.text;
  EXPECT_EQ(count(o.text, "warning:"), 0u) << o.text;
}

// Relaxed: three reads, each answered at its AR edge, all taken; one warning; the count in the
// stats and the summary.
TEST(RtlRelax, RelaxedRuleIsAWarningOnceAndCounted) {
  const Outcome o = run(yaml("rtl.axil_eager", ", relax: [axi.r_after_ar]"), {kEagerId});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("scratch_block: reset value 0x00000000, scratch 0x12345678, reg4 0x45414752"),
            std::string::npos)
      << o.text;
  EXPECT_EQ(count(o.text, "warning:"), 1u) << o.text;
  EXPECT_NE(o.text.find("warning: rtl.axil_eager 'blk': AXI4-Lite R channel: " + rtl::describe(Rule::ReadAfterAr) +
                        " violated: R response at the same edge as the read's AR handshake, address 0x0, at "),
            std::string::npos)
      << o.text;
  EXPECT_NE(o.text.find("; relaxed (relax: [axi.r_after_ar]): an R handshake at the same edge as the AR handshake "
                        "completes the read (the address handshake counts as first); an R with no read in flight is "
                        "dropped; later breaks are counted (stats: relaxed_axi_r_after_ar)"),
            std::string::npos)
      << o.text;
  EXPECT_NE(o.stats.find("\"relaxed_axi_r_after_ar\": 3"), std::string::npos) << o.stats;
  EXPECT_NE(o.text.find("blk: relaxed rule axi.r_after_ar broken 3 times"), std::string::npos) << o.text;
  EXPECT_EQ(count(o.text, "FAILED"), 0u) << o.text;
}

// A relaxed rule the block keeps is only declared: 0 breaks, no warning.
TEST(RtlRelax, RelaxedRuleTheBlockKeepsCountsZero) {
  const Outcome o = run(yaml("rtl.axil_rst_high", ", relax: [axi.r_after_ar, axi.valid_held]"),
                        {"workload.args.reset_value=0x600df00d", "workload.args.reg4=4"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.stats.find("\"relaxed_axi_r_after_ar\": 0"), std::string::npos) << o.stats;
  EXPECT_NE(o.stats.find("\"relaxed_axi_valid_held\": 0"), std::string::npos) << o.stats;
  EXPECT_EQ(count(o.text, "warning:"), 0u) << o.text;
}

// A bad `relax:` is a configuration error (exit 2) at the list's place, listing what can be relaxed.
void expect_bad_relax(const std::string& relax, const std::string& message) {
  const Outcome o = run(yaml("rtl.axil_eager", ", relax: " + relax), {});
  EXPECT_EQ(o.status, kExitUsage) << o.text;
  const std::string all = "; the rules a block can relax: " + rtl::relaxable_rule_ids();
  EXPECT_NE(o.text.find(".yaml:12:52 (blk.relax): " + message + all), std::string::npos) << o.text;
  EXPECT_EQ(count(o.text, "error"), 1u) << o.text;  // only this one
}
TEST(RtlRelax, UnknownRuleIsALocatedError) {
  expect_bad_relax("[axi.r_after_ar, axi.r_before_ar]", "unknown rule 'axi.r_before_ar' (relax[1])");
}
TEST(RtlRelax, RuleTheBridgeCannotRelaxIsALocatedError) {
  expect_bad_relax("[hetvp.access_answered]",
                   "rule hetvp.access_answered cannot be relaxed (relax[0]): the bridge cannot go on without it (a "
                   "register access gets READY (PREADY) and its response within timeout_cycles)");
}
TEST(RtlRelax, RelaxMustBeAList) { expect_bad_relax("axi.r_after_ar", "a list of rule ids, e.g. [axi.r_after_ar]"); }

// RESET rst ACTIVE_HIGH: held high for reset_cycles edges (the block counts them), then low.
TEST(RtlReset, ActiveHighResetNamedRst) {
  const Outcome o = run(yaml("rtl.axil_rst_high", ", reset_cycles: 7"),
                        {"workload.args.reset_value=0x600df00d", "workload.args.reg4=7"});
  EXPECT_EQ(o.status, kExitOk) << o.text;
  EXPECT_NE(o.text.find("scratch_block: reset value 0x600df00d, scratch 0x12345678, reg4 0x00000007"),
            std::string::npos)
      << o.text;
}

// The table: one row per Rule, in order, ids unique; every relaxable rule says what the bridge
// does; docs/rtl_blocks.md section 4 has each rule's row as the table has it.
TEST(RtlRules, OneTableInOrderAndInTheDocs) {
  const std::string docs = test::read_file(test::source_dir() + "/docs/rtl_blocks.md");
  std::set<std::string> ids;
  ASSERT_EQ(rtl::rule_table().size(), size_t(Rule::kCount));
  for (size_t i = 0; i < rtl::rule_table().size(); ++i) {
    const rtl::RuleSpec& r = rtl::rule_table()[i];
    EXPECT_EQ(size_t(r.rule), i) << r.id;
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate id " << r.id;
    EXPECT_EQ(rtl::find_rule(r.id), &r);
    const std::string row = format("| `%s` | %s | %s | %s |", r.id, r.source, r.text, r.relaxed ? r.relaxed : "—");
    EXPECT_NE(docs.find(row), std::string::npos) << "docs/rtl_blocks.md lacks the row\n" << row;
  }
  EXPECT_EQ(rtl::find_rule("axi.nonsense"), nullptr);
}

}  // namespace
