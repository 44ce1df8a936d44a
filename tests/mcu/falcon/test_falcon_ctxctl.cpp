// The context controller's I/O space with its Falcon core, driven directly (no simulation time): host
// upload with page tags, CC_SCRATCH SET/CLR, UNITS/MYINDEX/CAPS, interrupt routing, and the bad inputs
// (unmodelled register, poll watchdog, illegal opcode); then the register table's rules for the host
// and the core (refused accesses, indexed registers, the core's UC_CTRL, debug reads).
#include "common/test_run.h"
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "models/mcu/falcon/ctxctl.h"
#include "models/mcu/gdb_stub.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/tlm_harness.h"
#include "common/warnings.h"
#include "platform/format.h"

using namespace hetvp;
using namespace hetvp::mcu;
using namespace hetvp::mcu::falcon;
using hetvp::test::TestInitiator;
using hetvp::test::Warnings;

namespace {

// A controller's parameters (gpu0.microcontrollers keys) and its slot: GPC 3 (segments 0x2000 /
// 0x800, the GPC group's defaults), or with `hub` the HUB with the same segments and clock.
struct CtlSetup {
  McuBlockConfig cfg;
  CoreSlot slot;
};
CtlSetup gpc_cfg(const std::string& path, uint64_t watchdog = 1000, bool hub = false) {
  return {
      hetvp::test::config_from<McuBlockConfig>("poll_watchdog: " + std::to_string(watchdog) +
                                               "\nrops: 8\nhub: {clock: 700 MHz, code_size: 0x2000, data_size: 0x800}"),
      CoreSlot{hub, 3, path, 0x502000 + 3 * 0x8000, 4, nullptr}};
}
struct TestCtxctl : Ctxctl {
  TestCtxctl(sc_core::sc_module_name n, const CtlSetup& s) : Ctxctl(n, s.cfg, s.slot) {}
};

uint32_t io(uint32_t host_off, unsigned idx = 0) { return FCTX_IO(host_off, idx); }

// Uploads `code` as nouveau does (page tag at every 256 bytes, tag = page + tag_offset) and starts it.
void upload_and_start(Ctxctl& c, std::vector<uint8_t> code, uint32_t tag_offset = 0, uint32_t entry = 0) {
  while (code.size() % 4) code.push_back(0);
  c.host_write(FCTX_CODE_INDEX, 0x01000000, sc_core::SC_ZERO_TIME);
  for (size_t i = 0; i < code.size() / 4; ++i) {
    if ((i & 0x3f) == 0) c.host_write(FCTX_CODE_VIRT_ADDR, uint32_t(i >> 6) + tag_offset, sc_core::SC_ZERO_TIME);
    uint32_t w = code[4 * i] | code[4 * i + 1] << 8 | code[4 * i + 2] << 16 | uint32_t(code[4 * i + 3]) << 24;
    c.host_write(FCTX_CODE, w, sc_core::SC_ZERO_TIME);
  }
  c.host_write(FCTX_UC_ENTRY, entry, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_UC_CTRL, FCTX_UC_CTRL_START, sc_core::SC_ZERO_TIME);
}

// li $rN, v (mov + sethi)
void li(std::vector<uint8_t>& p, unsigned r, uint32_t v) {
  for (uint8_t b : {uint8_t(0xf1), uint8_t(r << 4 | 7), uint8_t(v), uint8_t(v >> 8), uint8_t(0xf1), uint8_t(r << 4 | 3),
                    uint8_t(v >> 16), uint8_t(v >> 24)})
    p.push_back(b);
}

// Runs the core as the controller's thread does: bursts end before each I/O access (sync_io), so
// keep running until the core stops, sleeps, or `cycles` are spent.
RunResult run(Ctxctl& c, uint64_t cycles) {
  RunResult total;
  while (total.cycles < cycles) {
    const RunResult r = c.core().run(cycles - total.cycles);
    total.cycles += r.cycles;
    total.instructions += r.instructions;
    total.reason = r.reason;
    if (r.reason != RunResult::Reason::budget) break;
  }
  return total;
}

}  // namespace

TEST(FalconCtxctl, CapsUnitsMyindexAndScratchSetClr) {
  TestCtxctl c("fctx_caps", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 0, io(FCTX_UC_CAPS));
  p.insert(p.end(), {0xcf, 0x01, 0x00});  // iord $r1 I[$r0]
  li(p, 0, io(FCTX_UNITS));
  p.insert(p.end(), {0xcf, 0x02, 0x00});
  li(p, 0, io(FCTX_MYINDEX));
  p.insert(p.end(), {0xcf, 0x03, 0x00});
  li(p, 4, 0x80000001);
  li(p, 0, io(FCTX_CC_SCRATCH_SET));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // iowr I[$r0] $r4: CC_SCRATCH[0] |= 0x80000001
  li(p, 4, 1);
  li(p, 0, io(FCTX_CC_SCRATCH_CLR));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // clear bit 0
  li(p, 4, 0x1234);
  li(p, 0, io(FCTX_CC_SCRATCH + 4));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // CC_SCRATCH[1] = 0x1234
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  run(c, 10000);
  EXPECT_EQ(c.core().read_gpr(1), (0x2000u >> 8) | (0x800u >> 8) << 9);
  EXPECT_EQ(c.core().read_gpr(2), 4u);
  EXPECT_EQ(c.core().read_gpr(3), 3u);
  uint32_t v = 0;
  ASSERT_TRUE(c.host_read(FCTX_CC_SCRATCH, v));
  EXPECT_EQ(v, 0x80000000u);
  ASSERT_TRUE(c.host_read(FCTX_CC_SCRATCH + 4, v));
  EXPECT_EQ(v, 0x1234u);
  ASSERT_TRUE(c.host_read(FCTX_UC_CTRL, v));
  EXPECT_EQ(v & FCTX_UC_CTRL_STOPPED, FCTX_UC_CTRL_STOPPED);  // after exit
  EXPECT_FALSE(c.failed());
}

TEST(FalconCtxctl, CodePageTagsMapVirtualAddresses) {
  TestCtxctl c("fctx_tags", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 5, 0x77);
  p.insert(p.end(), {0xf8, 0x02});
  // Physical page 0 gets tag 0x12: the code runs at virtual 0x1200, and virtual 0 is unmapped.
  upload_and_start(c, p, 0x12, 0x1200);
  run(c, 1000);
  EXPECT_EQ(c.core().read_gpr(5), 0x77u);
  EXPECT_EQ(c.core().code_paging()->vtlb(0x1200), 1u << 24 | 0u);
  EXPECT_EQ(c.core().code_paging()->vtlb(0x0000) & 0x80000000u, 0x80000000u);
}

TEST(FalconCtxctl, DataUploadAutoIncrementsAndReadsBack) {
  TestCtxctl c("fctx_data", gpc_cfg("gpu0.gpc3"));
  c.host_write(FCTX_DATA_INDEX, 0x01000010, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA, 0xaabbccdd, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA, 0x11223344, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA_INDEX, 0x02000010, sc_core::SC_ZERO_TIME);
  uint32_t a = 0, b = 0;
  c.host_read(FCTX_DATA, a);
  c.host_read(FCTX_DATA, b);
  EXPECT_EQ(a, 0xaabbccddu);
  EXPECT_EQ(b, 0x11223344u);
}

TEST(FalconCtxctl, InterruptRoutedToVector0WakesTheCore) {
  TestCtxctl c("fctx_irq", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 1, 0x100);
  p.insert(p.end(), {0xfe, 0x10, 0x00});  // mov $iv0 $r1
  li(p, 2, 0x40);
  li(p, 0, io(FCTX_INTR_EN_SET));
  p.insert(p.end(), {0xd0, 0x02, 0x00});  // enable line 6
  p.insert(p.end(), {0xf4, 0x31, 0x10});  // bset $flags ie0
  p.insert(p.end(), {0xf4, 0x31, 0x00});  // bset $flags $p0
  p.insert(p.end(), {0xf4, 0x28, 0x00});  // sleep $p0
  p.insert(p.end(), {0xf8, 0x02});        // exit
  while (p.size() < 0x100) p.push_back(0);
  li(p, 0, io(FCTX_INTR_CLEAR));
  p.insert(p.end(), {0xd0, 0x02, 0x00});  // ack line 6
  p.insert(p.end(), {0xb6, 0x70, 0x01});  // $r7++
  p.insert(p.end(), {0xf4, 0x32, 0x00});  // bclr $flags $p0
  p.insert(p.end(), {0xf8, 0x01});        // iret
  upload_and_start(c, p);
  EXPECT_EQ(run(c, 10000).reason, RunResult::Reason::wfi);
  c.host_write(FCTX_INTR_SET, 0x40, sc_core::SC_ZERO_TIME);  // host triggers line 6 (routed to vector 0)
  EXPECT_EQ(run(c, 10000).reason, RunResult::Reason::halted);
  EXPECT_EQ(c.core().read_gpr(7), 1u);
  uint32_t v = 0;
  c.host_read(FCTX_INTR, v);
  EXPECT_EQ(v, 0u);
}

TEST(FalconCtxctl, UnmodelledRegisterReadStopsWithAddressCoreAndPc) {
  TestCtxctl c("fctx_unmod", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 0, io(0xc00));  // no register at 0xc00 of the GPC window
  const size_t pc = p.size();
  p.insert(p.end(), {0xcf, 0x01, 0x00});
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  run(c, 10000);
  ASSERT_TRUE(c.failed());
  char want[128];
  std::snprintf(want, sizeof want, "unmodelled register 0x51ac00 (I/O 0x30000) read by gpu0.gpc3 at pc 0x%04zx", pc);
  EXPECT_NE(c.failure().find(want), std::string::npos) << c.failure();
  EXPECT_EQ(c.core().state(), CoreState::halted);
}

TEST(FalconCtxctl, PollWatchdogStopsAPollLoopWithoutProgress) {
  TestCtxctl c("fctx_poll", gpc_cfg("gpu0.gpc3", 500));
  std::vector<uint8_t> p;
  li(p, 0, io(FCTX_SCRATCH));
  const uint8_t loop = static_cast<uint8_t>(p.size());
  p.insert(p.end(), {0xcf, 0x01, 0x00});                        // iord $r1 SCRATCH0 (stays 0)
  p.insert(p.end(), {0xb0, 0x14, 0x00});                        // cmpu b32 $r1 0
  p.insert(p.end(), {0xf4, 0x0b, uint8_t(loop - (loop + 6))});  // bra e loop
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  run(c, 1000000);
  ASSERT_TRUE(c.failed());
  EXPECT_NE(c.failure().find("gpu0.gpc3 at pc"), std::string::npos) << c.failure();
  EXPECT_NE(c.failure().find("500 times without progress"), std::string::npos) << c.failure();
}

TEST(FalconCtxctl, IllegalOpcodeStopsWithBytesAndPc) {
  TestCtxctl d("fctx_ill2", gpc_cfg("gpu0.gpc3"));
  upload_and_start(d, {0xbd, 0x04, 0xf8, 0x0c});  // f8 subop c: not an instruction
  EXPECT_EQ(run(d, 1000).reason, RunResult::Reason::trapped_fatal);
  EXPECT_NE(d.core().halt_reason().find("illegal opcode (bytes f8 0c 00 00) at pc 0x0002"), std::string::npos)
      << d.core().halt_reason();
}

// Without the gr block's unit behind it (a controller built alone, or a configuration without the
// gr block) an xfer has no memory to reach: a named stop.
TEST(FalconCtxctl, XferIsRefusedWithTheTransferNamed) {
  TestCtxctl c("fctx_xfer", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 1, 0x40);
  li(p, 2, 0x00020100);                   // local 0x100, size 2 (16 bytes)
  p.insert(p.end(), {0xfa, 0x12, 0x05});  // xdld $r1 $r2
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  EXPECT_EQ(run(c, 1000).reason, RunResult::Reason::trapped_fatal);
  EXPECT_NE(c.core().halt_reason().find("xdld at pc 0x0010: xdld (base 0x0, offset 0x40, 16 bytes): no context-switch "
                                        "unit behind gpu0.gpc3 (add the gr block)"),
            std::string::npos)
      << c.core().halt_reason();
}

// --- the register table (falcon_ctxctl_regs.h on the Peripheral base) --------------------------------

TEST(FalconCtxctl, HostBadAccessesAreRefusedWithTheRegisterNamed) {
  Warnings w;
  TestCtxctl gpc("fctx_bad", gpc_cfg("gpu0.gpc3"));
  const CtlSetup hc = gpc_cfg("gpu0.hub", 1000, true);
  TestCtxctl hub("fctx_bad_hub", hc);
  uint32_t v = 0;
  EXPECT_FALSE(gpc.host_read(0xc00, v));
  EXPECT_FALSE(gpc.host_write(FCTX_UC_CAPS, 1, sc_core::SC_ZERO_TIME));
  EXPECT_FALSE(gpc.host_read(FCTX_INTR_SET, v));
  EXPECT_FALSE(gpc.host_read(FCTX_CODE_VIRT_ADDR, v));
  EXPECT_FALSE(gpc.host_read(FCTX_GPC_ROP_COUNT, v)) << "a HUB-only register";
  EXPECT_FALSE(hub.host_read(FCTX_UNITS, v)) << "a GPC-only register";
  EXPECT_FALSE(hub.host_read(FCTX_MYINDEX, v));
  ASSERT_EQ(w.messages().size(), 7u);
  EXPECT_EQ(w.messages()[0], "fctx_bad: read of an unmapped register (offset 0xc00, 4 bytes, by unknown initiator)");
  EXPECT_EQ(w.messages()[1], "fctx_bad: write to read-only register UC_CAPS (offset 0x108, 4 bytes, by unknown initiator)");
  EXPECT_EQ(w.messages()[2], "fctx_bad: read of write-only register INTR_SET (offset 0x0, 4 bytes, by unknown initiator)");
  EXPECT_EQ(w.messages()[5], "fctx_bad_hub: read of an unmapped register (offset 0x608, 4 bytes, by unknown initiator)");
  EXPECT_EQ(gpc.bank().errors(), 5u);
  // The registers each kind has read their configuration.
  ASSERT_TRUE(hub.host_read(FCTX_GPC_ROP_COUNT, v));
  EXPECT_EQ(v, FCTX_GPC_ROP_COUNT_VALUE(4u, 8u));
  ASSERT_TRUE(gpc.host_read(FCTX_MYINDEX, v));
  EXPECT_EQ(v, 3u);
  ASSERT_TRUE(gpc.host_read(FCTX_UC_CAPS2, v));
  EXPECT_EQ(v, FCTX_UC_CAPS2_FALCON_V3);
}

TEST(FalconCtxctl, CoreIndexedRegistersKeepOneValuePerIndexAndStrandSizeStopsAtStrandCount) {
  TestCtxctl c("fctx_idx", gpc_cfg("gpu0.gpc3"));  // 1 strand of 0x40 words
  std::vector<uint8_t> p;
  li(p, 4, 0x55);
  li(p, 0, FCTX_IO(FCTX_IROUTE, 5));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // iowr IROUTE[5] = 0x55
  li(p, 4, 0x66);
  li(p, 0, FCTX_IO(FCTX_IROUTE, 6));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // iowr IROUTE[6] = 0x66
  li(p, 0, FCTX_IO(FCTX_IROUTE, 5));
  p.insert(p.end(), {0xcf, 0x01, 0x00});  // iord $r1 IROUTE[5]
  li(p, 0, FCTX_IO(FCTX_STRAND_SIZE, 0));
  p.insert(p.end(), {0xcf, 0x02, 0x00});  // iord $r2 STRAND_SIZE[0]
  li(p, 0, FCTX_IO(FCTX_IROUTE, 6));
  p.insert(p.end(), {0xcf, 0x03, 0x00});  // iord $r3 IROUTE[6]
  li(p, 0, FCTX_IO(FCTX_STRAND_SIZE, 1));
  const size_t pc = p.size();
  p.insert(p.end(), {0xcf, 0x05, 0x00});  // iord $r5 STRAND_SIZE[1]: there is one strand
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  run(c, 10000);
  EXPECT_EQ(c.core().read_gpr(1), 0x55u);
  EXPECT_EQ(c.core().read_gpr(2), 0x40u);
  EXPECT_EQ(c.core().read_gpr(3), 0x66u);
  uint32_t v = 1;
  ASSERT_TRUE(c.host_read(FCTX_IROUTE, v));
  EXPECT_EQ(v, 0u) << "the host reaches index 0";
  ASSERT_TRUE(c.failed());
  EXPECT_NE(c.failure().find(format("unmodelled register 0x51a910 (I/O 0x24404) read by gpu0.gpc3 at pc 0x%04zx", pc)),
            std::string::npos)
      << c.failure();
}

TEST(FalconCtxctl, CoreCannotWriteItsOwnUcCtrl) {
  TestCtxctl c("fctx_ucctrl", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 4, FCTX_UC_CTRL_START);
  li(p, 0, FCTX_IO(FCTX_UC_CTRL, 0));
  const size_t pc = p.size();
  p.insert(p.end(), {0xd0, 0x04, 0x00});
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  run(c, 10000);
  ASSERT_TRUE(c.failed());
  EXPECT_NE(c.failure().find(format("unmodelled register 0x51a100 (I/O 0x04000) written by gpu0.gpc3 at pc 0x%04zx", pc)),
            std::string::npos)
      << c.failure();
}

// Whether a core write is progress for the poll watchdog is judged from a peek at the register,
// which must not advance a read-auto-increment index (it once did: the write then landed 4 bytes on).
TEST(FalconCtxctl, CoreDataWriteLandsAtTheIndexWhenOnlyReadsAdvanceIt) {
  TestCtxctl c("fctx_dwrite", gpc_cfg("gpu0.gpc3"));
  c.host_write(FCTX_DATA_INDEX, FCTX_INDEX_AINCR | 0x100, sc_core::SC_ZERO_TIME);
  std::vector<uint8_t> p;
  li(p, 4, 0xcafe);
  li(p, 0, FCTX_IO(FCTX_DATA, 0));
  p.insert(p.end(), {0xd0, 0x04, 0x00});  // iowr DATA = 0xcafe
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  run(c, 10000);
  ASSERT_FALSE(c.failed()) << c.failure();
  uint32_t index = 0, a = 0, b = 0;
  c.host_read(FCTX_DATA_INDEX, index);
  EXPECT_EQ(index, FCTX_INDEX_AINCR | 0x100) << "a write does not advance a read-increment index";
  c.host_read(FCTX_DATA, a);  // 0x100, then 0x104
  c.host_read(FCTX_DATA, b);
  EXPECT_EQ(a, 0xcafeu);
  EXPECT_EQ(b, 0u);
}

namespace {
// The MMIO bridge's far end: refuses everything (these tests do not use the bridge).
struct NoBar0 : sc_core::sc_module {
  tlm_utils::simple_target_socket<NoBar0> in{"in"};
  explicit NoBar0(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.register_b_transport(this, &NoBar0::bt); }
  void bt(tlm::tlm_generic_payload& gp, sc_core::sc_time&) { gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); }
};
}  // namespace

TEST(FalconCtxctl, SocketRefusesWrongSizeAndDebugReadsDoNotAdvanceTheIndex) {
  Warnings w;
  TestCtxctl c("fctx_sock", gpc_cfg("gpu0.gpc3"));
  NoBar0 sink("sink");
  c.bar0.bind(sink.in);
  c.host_write(FCTX_DATA_INDEX, FCTX_INDEX_AINCW | FCTX_INDEX_AINCR, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA, 0x11111111, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA, 0x22222222, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_DATA_INDEX, FCTX_INDEX_AINCR, sc_core::SC_ZERO_TIME);
  uint32_t dbg = 0, v = 0, caps = 0;
  TestInitiator t("t", [&](TestInitiator& ti) {
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    uint16_t half = 0;
    EXPECT_EQ(ti.access(tlm::TLM_READ_COMMAND, FCTX_UC_CAPS, &half, 2, d), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(ti.read32(FCTX_UC_CAPS, caps, d), tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_READ_COMMAND, FCTX_DATA, &dbg, 4);
    EXPECT_EQ(ti.socket->transport_dbg(gp), 4u);
    EXPECT_EQ(ti.read32(FCTX_DATA, v, d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(ti.read32(FCTX_DATA, v, d), tlm::TLM_OK_RESPONSE);
  });
  t.socket.bind(c.regs);
  hetvp::test::start();
  EXPECT_EQ(caps, FCTX_UC_CAPS_VALUE(0x2000u, 0x800u));
  EXPECT_EQ(dbg, 0x11111111u);
  EXPECT_EQ(v, 0x22222222u) << "the debug read left the index where it was; two reads advanced it";
  ASSERT_EQ(w.messages().size(), 1u);
  EXPECT_EQ(w.messages()[0],
            "fctx_sock: registers take aligned 32-bit accesses only (offset 0x108, 2 bytes, by test)");
}

// The core host serves GDB only for a core with a GDB register layout: on a Falcon controller the
// attach is refused with the controller and the core named.
TEST(FalconCtxctl, GdbAttachIsRefusedNamingTheCore) {
  TestCtxctl c("fctx_gdb", gpc_cfg("gpu0.gpc3"));
  try {
    c.attach_gdb(std::make_unique<GdbStub>("gpu0.gpc3", 0, 0.1, 0.1));
    FAIL() << "attach_gdb accepted a Falcon core";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "fctx_gdb: the falcon3 core has no GDB register layout (the GDB stub serves RV32 cores)"),
              std::string::npos)
        << e.what();
  }
}

// --- issue #24: the method FIFO, the barrier ----------------------------------------------------------

// MTHD_DATA / MTHD_PUSH queue (command, data) as nouveau's host methods (0x409500/0x409504) and the
// HUB's GPC_BCAST_WRCMD (0x41a500/0x41a504) do; INTR line 2 (FIFO) is level: clearing it while an
// entry remains leaves it set; FIFO_ACK pops. More than FCTX_FIFO_DEPTH entries stop the controller.
TEST(FalconCtxctl, MethodFifoQueuesCommandsAndItsLineIsLevelTriggered) {
  const CtlSetup hc = gpc_cfg("gpu0.hub", 1000, true);
  TestCtxctl c("fctx_fifo", hc);
  auto rd = [&](uint32_t off) {
    uint32_t v = 0;
    EXPECT_TRUE(c.host_read(off, v)) << std::hex << off;
    return v;
  };
  auto wr = [&](uint32_t off, uint32_t v) { EXPECT_TRUE(c.host_write(off, v, sc_core::SC_ZERO_TIME)) << std::hex << off; };
  EXPECT_EQ(rd(FCTX_INTR) & FCTX_INTR_FIFO, 0u);
  wr(FCTX_MTHD_DATA, 0x80001234);
  wr(FCTX_MTHD_PUSH, 0x1);
  wr(FCTX_MTHD_DATA, 0x5678);
  wr(FCTX_MTHD_PUSH, 0x2);
  EXPECT_EQ(rd(FCTX_INTR) & FCTX_INTR_FIFO, FCTX_INTR_FIFO);
  EXPECT_EQ(rd(FCTX_FIFO_CMD), 0x1u);
  EXPECT_EQ(rd(FCTX_FIFO_DATA), 0x80001234u);
  wr(FCTX_INTR_CLEAR, FCTX_INTR_FIFO);
  EXPECT_EQ(rd(FCTX_INTR) & FCTX_INTR_FIFO, FCTX_INTR_FIFO) << "two entries remain: the line stays";
  wr(FCTX_FIFO_ACK, 1);
  EXPECT_EQ(rd(FCTX_FIFO_CMD), 0x2u);
  EXPECT_EQ(rd(FCTX_FIFO_DATA), 0x5678u);
  wr(FCTX_FIFO_ACK, 1);
  EXPECT_EQ(rd(FCTX_INTR) & FCTX_INTR_FIFO, 0u);
  EXPECT_FALSE(c.failed());
  Warnings w;
  for (unsigned i = 0; i <= FCTX_FIFO_DEPTH; ++i) wr(FCTX_MTHD_PUSH, i);
  ASSERT_TRUE(c.failed());
  EXPECT_NE(c.failure().find("gpu0.hub: method FIFO overflow (16 entries) at command 0x10"), std::string::npos)
      << c.failure();
}

// SIGNAL bit 8 (DONE_BAR) is set once every GPC of BAR_MASK0 set its BAR bit through BAR_SET
// (gpc.fuc hub_barrier_done); writing BAR 0 starts the next barrier (hub.fuc ctx_xfer). Bit 6 (the
// MMIO bridge's done) always reads 1; without a unit nothing else is busy.
TEST(FalconCtxctl, BarrierDoneWhenEveryMaskedGpcReported) {
  const CtlSetup hc = gpc_cfg("gpu0.hub", 1000, true);
  TestCtxctl c("fctx_bar", hc);
  uint32_t v = 0;
  c.host_write(FCTX_BAR_MASK0, 0x5, sc_core::SC_ZERO_TIME);
  c.host_write(FCTX_BAR, 0, sc_core::SC_ZERO_TIME);
  ASSERT_TRUE(c.host_read(FCTX_SIGNAL, v));
  EXPECT_EQ(v, FCTX_SIGNAL_MMIO_DONE);
  c.host_write(FCTX_BAR_SET, 0x1, sc_core::SC_ZERO_TIME);
  c.host_read(FCTX_SIGNAL, v);
  EXPECT_EQ(v & FCTX_SIGNAL_BAR_DONE, 0u) << "GPC 2 has not reported";
  c.host_write(FCTX_BAR_SET, 0x4, sc_core::SC_ZERO_TIME);
  c.host_read(FCTX_SIGNAL, v);
  EXPECT_EQ(v, FCTX_SIGNAL_MMIO_DONE | FCTX_SIGNAL_BAR_DONE);
  c.host_read(FCTX_BAR, v);
  EXPECT_EQ(v, 0x5u);
  c.host_write(FCTX_BAR, 0, sc_core::SC_ZERO_TIME);
  c.host_read(FCTX_SIGNAL, v);
  EXPECT_EQ(v & FCTX_SIGNAL_BAR_DONE, 0u);
}

namespace {
// A stand-in for the gr block's context-switch unit (and for BAR0 and the host): records the offsets
// asked of it.
struct FakeUnit : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeUnit> regs{"regs"};
  tlm_utils::simple_target_socket_optional<FakeUnit> mem{"mem"};
  tlm_utils::simple_initiator_socket_optional<FakeUnit> host{"host"};
  std::vector<uint32_t> offsets;
  explicit FakeUnit(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    regs.register_b_transport(this, &FakeUnit::b);
    mem.register_b_transport(this, &FakeUnit::b);
  }
  void b(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    offsets.push_back(uint32_t(gp.get_address()));
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};
}  // namespace

// With a unit attached, the controller forwards exactly the unit's registers, the list made from
// gr_ctxsw.h's tables (not a range that also takes the gaps between them); SIGNAL is the
// controller's own and reads the unit's busy bits.
TEST(FalconCtxctl, ForwardsExactlyTheContextSwitchUnitsRegisters) {
  TestCtxctl c("fctx_fwd", gpc_cfg("gpu0.hub", 1000, true));
  FakeUnit unit("unit"), bar0("bar0");
  c.bar0.bind(bar0.regs);
  bar0.host.bind(c.regs);
  c.attach_ctxsw(unit.regs, unit.mem);
  hetvp::test::start(sc_core::SC_ZERO_TIME);  // the bindings complete
  uint32_t v = 0;
  EXPECT_TRUE(c.host_read(GRC_MMCTX_SAVE_SWBASE, v));
  EXPECT_TRUE(c.host_read(GRH_CHAN_ADDR, v));
  EXPECT_FALSE(c.host_read(0x708, v)) << "between two of the unit's registers: the controller's own (none)";
  EXPECT_TRUE(c.host_read(FCTX_SIGNAL, v));
  EXPECT_EQ(unit.offsets, (std::vector<uint32_t>{GRC_MMCTX_SAVE_SWBASE, GRH_CHAN_ADDR, GRC_SIGNAL}));
}
