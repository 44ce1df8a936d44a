// The generic bridges with a test-only block (tests/rtl/blocks/apb_copy.sv, rtl.apb_copy): APB
// register target (SETUP/ACCESS with a wait state), AXI4 master with several read bursts
// outstanding, IDs, every AW before its W beats, byte strobes; and the APB time-out
// (rtl.apb_copy_fault1: PREADY never rises). In-process runs (one per test process).
#include <gtest/gtest.h>

#include <sstream>

#include "common/run_hetvp.h"
#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"

using namespace hetvp;

namespace {

constexpr uint64_t kBase = 0x40200000;

// Copies `bursts` x 32 bytes with strobe mask `strb` and `maxout` reads outstanding, then checks
// every destination byte (copied where the strobe is set, untouched elsewhere) and MAXSEEN.
class ApbCopyProgram : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->integer("bursts", 16, "").range(1, 16);
    s->integer("strb", 0xff, "").range(0, 255);
    s->integer("maxout", 4, "").range(1, 4);
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    const unsigned bursts = a.u32("bursts"), strb = a.u32("strb"), maxout = a.u32("maxout");
    const uint64_t src = api.alloc_pinned(4096), dst = api.alloc_pinned(4096);
    std::vector<uint8_t> in(bursts * 32), before(bursts * 32, 0xee), out(bursts * 32);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    api.write(src, in.data(), in.size());
    api.write(dst, before.data(), before.size());
    api.mmio_write32(kBase + 0x00, uint32_t(src));
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
  // The block would issue 4; the bridge holds ARREADY low at 2, so the block sees at most 2 and
  // the program (which expects 4) fails.
  auto o = run({"blk.max_outstanding=2", "workload.args.maxout=4"});
  EXPECT_EQ(o.status, kExitSimFailure);
}

TEST(RtlBridges, ApbWithoutPreadyTimesOut) {
  const std::string ring = test::scratch() + "/apb_ring.vcd";
  auto o = run({"blk.type=rtl.apb_copy_fault1", "blk.timeout_cycles=300", "blk.ring_file=" + ring});
  EXPECT_EQ(o.status, kExitSimFailure);
  EXPECT_NE(o.text.find("rtl.apb_copy_fault1 'blk': APB channel: time-out: no PREADY after 300 cycles (write of the "
                        "register access), address 0x0, at "),
            std::string::npos)
      << o.text;
  const std::string v = test::read_file(ring);
  EXPECT_NE(v.find(" s_apb_penable $end"), std::string::npos) << v.substr(0, 300);
}

}  // namespace
