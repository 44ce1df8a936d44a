// The context controller's I/O space with its Falcon core, driven directly (no simulation time): host
// upload with page tags, CC_SCRATCH SET/CLR, UNITS/MYINDEX/CAPS, interrupt routing, and the bad inputs
// (unmodelled register, poll watchdog, illegal opcode).
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "models/mcu/falcon/ctxctl.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hetvp::mcu;
using namespace hetvp::mcu::falcon;

namespace {

CtxctlConfig gpc_cfg(const std::string& path, uint64_t watchdog = 1000) {
  CtxctlConfig c;
  c.hub = false;
  c.index = 3;
  c.path = path;
  c.code_size = 0x2000;
  c.data_size = 0x800;
  c.tpcs = 4;
  c.poll_watchdog = watchdog;
  c.bar0_base = 0x502000 + 3 * 0x8000;
  return c;
}

uint32_t io(uint32_t host_off, unsigned idx = 0) { return (host_off & 0xffc) << 6 | idx << 2; }

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
  Ctxctl c("fctx_caps", gpc_cfg("gpu0.gpc3"));
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
  Ctxctl c("fctx_tags", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 5, 0x77);
  p.insert(p.end(), {0xf8, 0x02});
  // Physical page 0 gets tag 0x12: the code runs at virtual 0x1200, and virtual 0 is unmapped.
  upload_and_start(c, p, 0x12, 0x1200);
  run(c, 1000);
  EXPECT_EQ(c.core().read_gpr(5), 0x77u);
  EXPECT_EQ(c.core().vtlb(0x1200), 1u << 24 | 0u);
  EXPECT_EQ(c.core().vtlb(0x0000) & 0x80000000u, 0x80000000u);
}

TEST(FalconCtxctl, DataUploadAutoIncrementsAndReadsBack) {
  Ctxctl c("fctx_data", gpc_cfg("gpu0.gpc3"));
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
  Ctxctl c("fctx_irq", gpc_cfg("gpu0.gpc3"));
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
  Ctxctl c("fctx_unmod", gpc_cfg("gpu0.gpc3"));
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
  Ctxctl c("fctx_poll", gpc_cfg("gpu0.gpc3", 500));
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
  Ctxctl d("fctx_ill2", gpc_cfg("gpu0.gpc3"));
  upload_and_start(d, {0xbd, 0x04, 0xf8, 0x0c});  // f8 subop c: not an instruction
  EXPECT_EQ(run(d, 1000).reason, RunResult::Reason::trapped_fatal);
  EXPECT_NE(d.core().halt_reason().find("illegal opcode (bytes f8 0c 00 00) at pc 0x0002"), std::string::npos)
      << d.core().halt_reason();
}

TEST(FalconCtxctl, XferIsRefusedWithTheTransferNamed) {
  Ctxctl c("fctx_xfer", gpc_cfg("gpu0.gpc3"));
  std::vector<uint8_t> p;
  li(p, 1, 0x40);
  li(p, 2, 0x00020100);                   // local 0x100, size 2 (16 bytes)
  p.insert(p.end(), {0xfa, 0x12, 0x05});  // xdld $r1 $r2
  p.insert(p.end(), {0xf8, 0x02});
  upload_and_start(c, p);
  EXPECT_EQ(run(c, 1000).reason, RunResult::Reason::trapped_fatal);
  EXPECT_NE(c.core().halt_reason().find("xdld at pc 0x0010: xfer (port 0, base 0x0, offset 0x40, 16 bytes) not "
                                        "modelled on the context controller"),
            std::string::npos)
      << c.core().halt_reason();
}
