// The Peripheral base (platform/peripheral.h): a table plus behaviour bound by name, ports for
// what a 32-bit table cannot express, the access context a callback sees (initiator, side,
// delay; its own for a nested access), time a blocking callback adds, read timing and the
// bad-access hook.
#include <gtest/gtest.h>

#include <vector>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "platform/peripheral.h"

using namespace hetvp;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

#define TEST_BLOCK_REGS(X)                                                    \
  X(TB, CTRL, 0x0, 1, RW, 0, "a plain register")                              \
  X(TB, GO, 0x4, 1, WO, 0, "starts work at the write's arrival")              \
  X(TB, DONE, 0x8, 1, RO, 0, "returns when the work is done (blocks)")        \
  X(TB, NESTED, 0xc, 1, WO, 0, "writes CTRL through the block's own serve()") \
  X(TB, NOW, 0x10, 1, RO, 0, "SystemC time of the read, in ns")
const RegSpec kTestRegs[] = {HETVP_REG_TABLE(TEST_BLOCK_REGS)};

// A block with each kind of behaviour; `self` loops back to its own `regs` for NESTED.
struct TestBlock : Peripheral {
  std::vector<uint8_t> window = std::vector<uint8_t>(64);
  sc_time go_at, done_at, nested_outer_delay;
  Side go_side = Side::Other;
  std::string go_by;
  unsigned bad = 0;

  explicit TestBlock(sc_core::sc_module_name n) : Peripheral(n, kTestRegs) {
    on_write("GO", &TestBlock::go);
    on_read("DONE", &TestBlock::done);
    on_write("NESTED", &TestBlock::nested);
    on_read("NOW", &TestBlock::now_ns);
    on_port("WINDOW", 0x100, 64, &TestBlock::bulk);
  }
  void go(uint32_t v) {
    go_at = this_access().arrival();
    go_side = this_access().side;
    go_by = this_access().initiator;
    done_at = go_at + sc_time(v, SC_NS);
  }
  uint32_t done() const { return 1; }
  uint32_t now_ns() const { return uint32_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5); }
  // DONE blocks: a read returns at done_at (the callback adds the wait to the access's delay).
  void block_until_done() {
    AccessContext& a = const_cast<TestBlock*>(this)->this_access();
    if (done_at > a.arrival()) a.delay = done_at - sc_core::sc_time_stamp();
  }
  void nested(uint32_t v) {
    sc_time outer = this_access().delay;
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_WRITE_COMMAND, 0x0, &v, 4);
    sc_time d = sc_time(1, SC_NS);
    serve(gp, d, ReadTiming::AsIssued);        // the inner access has its own context...
    nested_outer_delay = this_access().delay;  // ...and this one's is intact afterwards
    EXPECT_EQ(nested_outer_delay, outer);
  }
  bool bulk(tlm::tlm_generic_payload& gp, sc_time& delay) {
    if (!gp.is_write()) return false;  // reads fall through to the table: a hole, refused
    std::memcpy(&window[gp.get_address() - 0x100], gp.get_data_ptr(), gp.get_data_length());
    delay += sc_time(2, SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }
  void bad_access(const tlm::tlm_generic_payload&) override { ++bad; }
  void set_reads(ReadTiming t) { read_timing(t); }
};

// A block whose DONE read blocks through this_access().delay.
struct BlockingBlock : TestBlock {
  using TestBlock::TestBlock;
  explicit BlockingBlock(sc_core::sc_module_name n) : TestBlock(n) { on_read("DONE", &BlockingBlock::done_blocking); }
  uint32_t done_blocking() const {
    const_cast<BlockingBlock*>(this)->block_until_done();
    return 1;
  }
};

}  // namespace

TEST(Peripheral, CallbackSeesInitiatorSideAndArrivalAndBlockingTimeReturnsToTheCaller) {
  BlockingBlock blk("blk");
  TestInitiator t("t", [&](TestInitiator& ti) {
    ti.info->side = Side::Gpu;
    sc_time d(10, SC_NS);
    EXPECT_EQ(ti.write32(0x4, 100, d), tlm::TLM_OK_RESPONSE);  // GO: done 100 ns after arrival
    sc_time r(20, SC_NS);
    uint32_t v = 0;
    EXPECT_EQ(ti.read32(0x8, v, r), tlm::TLM_OK_RESPONSE);
    // The read caught up to its arrival (20 ns), then blocked until the work was done (110 ns).
    EXPECT_EQ(sc_core::sc_time_stamp() + r, sc_time(110, SC_NS));
  });
  t.socket.bind(blk.regs);
  hetvp::test::start();
  EXPECT_EQ(blk.go_at, sc_time(10, SC_NS));
  EXPECT_EQ(blk.go_side, Side::Gpu);
  EXPECT_EQ(blk.go_by, "test");
}

TEST(Peripheral, ReadTimingCatchUpWaitsForArrivalAsIssuedDoesNot) {
  TestBlock a("a"), b("b");
  b.set_reads(ReadTiming::AsIssued);
  uint32_t va = 0, vb = 0;
  TestInitiator ta("ta", [&](TestInitiator& ti) {
    sc_time d(30, SC_NS);
    ti.read32(0x10, va, d);
  });
  TestInitiator tb("tb", [&](TestInitiator& ti) {
    sc_time d(30, SC_NS);
    ti.read32(0x10, vb, d);
  });
  ta.socket.bind(a.regs);
  tb.socket.bind(b.regs);
  hetvp::test::start();
  EXPECT_EQ(va, 30u) << "CatchUp: the read is served at its arrival";
  EXPECT_EQ(vb, 0u) << "AsIssued: the read is served at SystemC time";
}

TEST(Peripheral, PortsServeWhatTheTableCannotAndFallThroughOtherwise) {
  TestBlock blk("blk");
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  TestInitiator t("t", [&](TestInitiator& ti) {
    uint8_t data[16];
    for (int i = 0; i < 16; ++i) data[i] = uint8_t(i + 1);
    sc_time d;
    EXPECT_EQ(ti.access(tlm::TLM_WRITE_COMMAND, 0x110, data, 16, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d, sc_time(2, SC_NS)) << "the port's handler annotates its own time";
    EXPECT_EQ(ti.access(tlm::TLM_READ_COMMAND, 0x110, data, 4, d), tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "a read the port declines falls through to the table (a hole)";
    EXPECT_EQ(ti.write32(0x8, 1, d), tlm::TLM_COMMAND_ERROR_RESPONSE);  // DONE is read-only
  });
  t.socket.bind(blk.regs);
  hetvp::test::start();
  EXPECT_EQ(blk.window[0x10], 1u);
  EXPECT_EQ(blk.window[0x1f], 16u);
  EXPECT_EQ(blk.bad, 2u) << "bad_access sees every access the table refused";
  EXPECT_EQ(blk.bank().errors(), 2u);
}

TEST(Peripheral, NestedAccessHasItsOwnContextAndRestoresTheOuterOne) {
  TestBlock blk("blk");
  TestInitiator t("t", [&](TestInitiator& ti) {
    sc_time d(7, SC_NS);
    EXPECT_EQ(ti.write32(0xc, 0x55, d), tlm::TLM_OK_RESPONSE);
  });
  t.socket.bind(blk.regs);
  hetvp::test::start();
  EXPECT_EQ(blk.bank().at(0x0).value, 0x55u);
  EXPECT_EQ(blk.nested_outer_delay, sc_time(7, SC_NS));
}
