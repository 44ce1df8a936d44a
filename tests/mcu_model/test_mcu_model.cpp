// One GPC (or HUB) microcontroller model in a small test bench: a test initiator on its register
// socket (the "host"), a 4 KiB memory at GPU VA 0x1000 on its xfer socket, a BAR0 that holds only
// its own register block, and an interrupt sink. The firmware is the real gpc.elf, uploaded
// through the register ports, or a few hand-assembled instructions.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/test_run.h"
#include "common/run_hetvp.h"
#include "common/tlm_harness.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_map.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "mcu/rv32_asm.h"
#include "models/gpu/gpu_regs.h"
#include "models/mcu/rv32/microcontroller.h"
#include "platform/elf_image.h"

using namespace hetvp;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

struct Mem : sc_core::sc_module {
  tlm_utils::simple_target_socket<Mem> in{"in"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(4096, 0);
  uint64_t accesses = 0;
  // the last access: which process issued it, with what delay (its issuer's local time), at what time
  std::string last_process;
  sc_time last_delay, last_at;
  explicit Mem(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.register_b_transport(this, &Mem::b); }
  void b(tlm::tlm_generic_payload& gp, sc_time& d) {
    ++accesses;
    last_process = sc_core::sc_get_current_process_handle().name();
    last_delay = d;
    last_at = sc_core::sc_time_stamp();
    const uint64_t a = gp.get_address();
    if (a < 0x1000 || a + gp.get_data_length() > 0x2000) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint8_t* p = &bytes[a - 0x1000];
    if (gp.is_read())
      std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
    else
      std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
    d += sc_time(100, SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Sink : sc_core::sc_module, IrqIf {
  sc_core::sc_export<IrqIf> in{"in"};
  std::vector<unsigned> raised;
  explicit Sink(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.bind(*this); }
  void raise(unsigned v, const sc_time&) override { raised.push_back(v); }
};

// BAR0 as the core sees it, holding only the microcontroller's own register block, reached
// through host_access as the GPU's register router does.
struct OwnBlockBar0 : sc_core::sc_module {
  tlm_utils::simple_target_socket<OwnBlockBar0> in{"in"};
  mcu::Microcontroller& uc;
  const uint64_t base;
  OwnBlockBar0(sc_core::sc_module_name n, mcu::Microcontroller& uc, uint64_t base)
      : sc_core::sc_module(n), uc(uc), base(base) {
    in.register_b_transport(this, &OwnBlockBar0::b);
  }
  void b(tlm::tlm_generic_payload& gp, sc_time&) {
    const uint64_t a = gp.get_address();
    if (a < base || a >= base + 0x1000) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    gp.set_address(a - base);
    uc.host_access(gp);
    gp.set_address(a);
  }
};

struct Bench {
  mcu::Microcontroller uc;
  TestInitiator host;
  Mem mem{"mem"};
  OwnBlockBar0 bar0;
  Sink sink{"sink"};
  // The block's parameters (`yaml`, gpu0.microcontrollers keys) and the microcontroller's slot.
  struct Setup {
    mcu::McuBlockConfig cfg;
    mcu::CoreSlot slot;
  };
  static Setup gpc3(const std::string& yaml = "{}") { return {config_from<mcu::McuBlockConfig>(yaml), {false, 3}}; }
  // The HUB at the GPC's clock and sizes (as the tests were written).
  static Setup hub() {
    return {config_from<mcu::McuBlockConfig>("hub: {clock: 700 MHz, code_size: 8 KiB, data_size: 2 KiB}"), {true, 0}};
  }
  explicit Bench(std::function<void(TestInitiator&)> body, const Setup& c = gpc3())
      : uc(c.slot.hub ? "hub" : "gpc3", c.cfg, c.slot),
        host("host", std::move(body)),
        bar0("bar0", uc, c.slot.hub ? GPU_HUB_BASE : GPU_GPC_BASE + c.slot.index * GPU_GPC_STRIDE) {
    host.socket.bind(uc.regs);
    uc.xfer.bind(mem.in);
    uc.bar0.bind(bar0.in);
    uc.intr.bind(sink.in);
  }
};

uint32_t rd(TestInitiator& h, uint32_t off) {
  uint32_t v = 0;
  sc_time d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(h.read32(off, v, d), tlm::TLM_OK_RESPONSE) << "read " << std::hex << off;
  return v;
}
tlm::tlm_response_status wr(TestInitiator& h, uint32_t off, uint32_t v) {
  sc_time d = sc_core::SC_ZERO_TIME;
  return h.write32(off, v, d);
}

void upload(TestInitiator& h, const std::string& path) {
  ElfImage img = ElfImage::from_file(path);
  for (auto& s : img.segments()) {
    const bool code = s.executable();
    wr(h, code ? MCU_CODE_INDEX : MCU_DATA_INDEX, (s.vaddr - (code ? 0 : 0x10000)) | MCU_INDEX_AINCW);
    for (size_t i = 0; i < s.data.size(); i += 4) {
      uint32_t w = 0;
      std::memcpy(&w, &s.data[i], std::min<size_t>(4, s.data.size() - i));
      ASSERT_EQ(wr(h, code ? MCU_CODE : MCU_DATA, w), tlm::TLM_OK_RESPONSE);
    }
  }
  wr(h, MCU_UC_ENTRY, img.entry());
}

// Sends a firmware command and waits (bounded) for the ack counter.
uint32_t command(TestInitiator& h, uint32_t cmd, uint32_t data) {
  const uint32_t seq = rd(h, MCU_STATUS1);
  wr(h, MCU_METHOD_DATA, data);
  wr(h, MCU_METHOD_CMD, cmd);
  for (int i = 0; i < 1000 && rd(h, MCU_STATUS1) == seq; ++i) sc_core::wait(100, SC_NS);
  return rd(h, FW_RESULT);
}

std::string gpc_elf() { return binary_dir() + "/firmware/gpc.elf"; }

// Uploads a hand-assembled program at address 0 and starts the core.
void run_program(TestInitiator& h, const std::vector<uint32_t>& words) {
  wr(h, MCU_CODE_INDEX, MCU_INDEX_AINCW);
  for (uint32_t w : words) wr(h, MCU_CODE, w);
  wr(h, MCU_UC_ENTRY, 0);
  wr(h, MCU_UC_CTRL, MCU_CTRL_START);
}

}  // namespace

TEST(McuModel, SleepsInWfiAndWakesOnTheMethodInterrupt) {
  bool done = false;
  Bench b([&](TestInitiator& h) {
    EXPECT_EQ(rd(h, MCU_UC_CAPS), (8192u >> 8) | ((2048u >> 8) << 9));
    EXPECT_EQ(rd(h, MCU_UC_ID), 3u);
    upload(h, gpc_elf());
    wr(h, MCU_UC_CTRL, MCU_CTRL_START);
    sc_core::wait(20, SC_US);
    EXPECT_EQ(rd(h, MCU_STATUS0), MCU_STATUS0_INIT_DONE | 3u);
    EXPECT_EQ(rd(h, MCU_UC_CTRL) & MCU_STATE_MASK, MCU_STATE_SLEEPING);
    const uint32_t i0 = rd(h, MCU_UC_INSTRET_LO);
    sc_core::wait(1, sc_core::SC_MS);  // asleep: not one instruction in a millisecond
    EXPECT_EQ(rd(h, MCU_UC_INSTRET_LO), i0);
    EXPECT_EQ(command(h, FW_CMD_ECHO, 0xabcd), 0xabcdu);
    EXPECT_GT(rd(h, MCU_UC_INSTRET_LO), i0);
    EXPECT_EQ(rd(h, FW_ERROR), 0u);
    sc_core::wait(5, SC_US);
    EXPECT_EQ(rd(h, MCU_UC_CTRL) & MCU_STATE_MASK, MCU_STATE_SLEEPING);  // back to sleep
    EXPECT_EQ(command(h, FW_CMD_INFO, 0), 3u);
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
}

TEST(McuModel, UploadPortsRefuseWhileRunningAndWorkAfterReset) {
  bool done = false;
  Bench b([&](TestInitiator& h) {
    upload(h, gpc_elf());
    wr(h, MCU_UC_CTRL, MCU_CTRL_START);
    sc_core::wait(20, SC_US);
    EXPECT_EQ(wr(h, MCU_CODE, 0x1234), tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(wr(h, MCU_DATA, 0x1234), tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(wr(h, MCU_DBG_DATA, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(wr(h, MCU_UC_EXIT, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);  // firmware-only
    EXPECT_EQ(wr(h, 0xffc, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(command(h, FW_CMD_ECHO, 5), 5u);  // unharmed
    wr(h, MCU_UC_CTRL, MCU_CTRL_RESET);
    sc_core::wait(1, SC_US);
    EXPECT_EQ(rd(h, MCU_UC_CTRL) & MCU_STATE_MASK, MCU_STATE_IDLE);
    EXPECT_EQ(wr(h, MCU_DATA_INDEX, 0x100 | MCU_INDEX_AINCW | MCU_INDEX_AINCR), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(wr(h, MCU_DATA, 0xcafef00d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(wr(h, MCU_DATA, 0x12345678), tlm::TLM_OK_RESPONSE);
    wr(h, MCU_DATA_INDEX, 0x100 | MCU_INDEX_AINCR);
    EXPECT_EQ(rd(h, MCU_DATA), 0xcafef00du);
    EXPECT_EQ(rd(h, MCU_DATA), 0x12345678u);
    EXPECT_EQ(rd(h, MCU_DATA_INDEX) & MCU_INDEX_ADDR_MASK, 0x108u);
    EXPECT_EQ(wr(h, MCU_DATA_INDEX, 0x800), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(wr(h, MCU_DATA, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);  // beyond the data memory
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
}

TEST(McuModel, XferMovesDataAndFaultsAreVisible) {
  bool done = false;
  Bench b([&](TestInitiator& h) {
    upload(h, gpc_elf());
    wr(h, MCU_UC_CTRL, MCU_CTRL_RESET);
    // Host-driven transfers (the core idle): fill DMEM, store 256 B to VA 0x1100, load back elsewhere.
    wr(h, MCU_DATA_INDEX, 0x400 | MCU_INDEX_AINCW);
    for (uint32_t i = 0; i < 64; ++i) wr(h, MCU_DATA, 0x01010101u * i);
    wr(h, MCU_XFER_EXT_LO, 0x1100);
    wr(h, MCU_XFER_EXT_HI, 0);
    wr(h, MCU_XFER_DMEM, 0x400);
    wr(h, MCU_XFER_CTRL, 8 | MCU_XFER_DIR_STORE);
    EXPECT_EQ(rd(h, MCU_XFER_STATUS), MCU_XFER_BUSY);
    sc_core::wait(1, SC_US);
    EXPECT_EQ(rd(h, MCU_XFER_STATUS), 0u);
    EXPECT_EQ(b.mem.bytes[0x100 + 4 * 7], 7);
    EXPECT_EQ(rd(h, MCU_IRQSTAT) & MCU_IRQ_XFER, MCU_IRQ_XFER);
    wr(h, MCU_IRQSCLR, MCU_IRQ_ALL);
    wr(h, MCU_XFER_DMEM, 0x200);
    wr(h, MCU_XFER_CTRL, 8);
    sc_core::wait(1, SC_US);
    wr(h, MCU_DATA_INDEX, 0x200 + 4 * 9 | MCU_INDEX_AINCR);
    EXPECT_EQ(rd(h, MCU_DATA), 0x09090909u);
    // Faults: size, alignment, DMEM range, bus (unmapped VA), busy.
    auto fault_of = [&](uint32_t ctrl, uint32_t ext, uint32_t dm) {
      wr(h, MCU_XFER_EXT_LO, ext);
      wr(h, MCU_XFER_DMEM, dm);
      wr(h, MCU_XFER_CTRL, ctrl);
      sc_core::wait(1, SC_US);
      return rd(h, MCU_XFER_STATUS);
    };
    // The smallest transfer, 4 bytes (a register of a device mapped into GPU VA space): aligned to
    // 4, not 8, on both sides. It stores DMEM 0x404 (word 1 of the fill above) to VA 0x1204.
    wr(h, MCU_IRQSCLR, MCU_IRQ_ALL);
    EXPECT_EQ(fault_of(2 | MCU_XFER_DIR_STORE, 0x1204, 0x404), 0u);
    EXPECT_EQ(b.mem.bytes[0x204], 1);
    EXPECT_EQ(b.mem.bytes[0x208], 0);  // nothing beyond the 4 bytes
    EXPECT_EQ(fault_of(9, 0x1000, 0), MCU_XFER_FAULT | (MCU_XFER_ERR_SIZE << 8));
    EXPECT_EQ(fault_of(1, 0x1000, 0), MCU_XFER_FAULT | (MCU_XFER_ERR_SIZE << 8));
    EXPECT_EQ(fault_of(4, 0x1008, 0), MCU_XFER_FAULT | (MCU_XFER_ERR_ALIGN << 8));
    EXPECT_EQ(fault_of(4, 0x1000, 4), MCU_XFER_FAULT | (MCU_XFER_ERR_ALIGN << 8));
    EXPECT_EQ(fault_of(3, 0x1000, 2048), MCU_XFER_FAULT | (MCU_XFER_ERR_DMEM << 8));
    EXPECT_EQ(fault_of(8, 0x8000, 0), MCU_XFER_FAULT | (MCU_XFER_ERR_BUS << 8));
    wr(h, MCU_XFER_EXT_LO, 0x1000);
    wr(h, MCU_XFER_CTRL, 8);
    wr(h, MCU_XFER_CTRL, 8);  // while busy
    EXPECT_EQ(rd(h, MCU_XFER_STATUS) & 0xff02u, MCU_XFER_FAULT | (MCU_XFER_ERR_BUSY << 8));
    sc_core::wait(1, SC_US);
    EXPECT_EQ(rd(h, MCU_XFER_FAULTS), 7u);
    EXPECT_EQ(rd(h, MCU_XFER_COUNT), 4u);
    EXPECT_EQ(rd(h, MCU_XFER_BYTES), 3u * 256 + 4);
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
}

// An xfer the core starts is served inside its burst, at its local time (issue #31): the memory sees
// the microcontroller's own thread (caught up with the core's local time, or with that offset as its
// delay when no other process acts before it), not a second process, and the firmware's fw_xfer
// (XFER_CTRL, then wfi until IRQ XFER) gets the data and status.
TEST(McuModel, CoreXferIsServedInsideTheBurstAtTheCoresLocalTime) {
  // Bursts of a quantum (the other tests here run with quantum 0: one cycle per burst).
  const sc_time quantum = tlm::tlm_global_quantum::instance().get();
  tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
  bool done = false;
  Bench b([&](TestInitiator& h) {
    upload(h, gpc_elf());
    wr(h, MCU_UC_CTRL, MCU_CTRL_START);
    sc_core::wait(20, SC_US);
    ASSERT_EQ(rd(h, MCU_STATUS0), MCU_STATUS0_INIT_DONE | 3u);
    for (uint32_t i = 0; i < 64; ++i) b.mem.bytes[0x300 + 4 * i] = uint8_t(i + 1);
    wr(h, FW_ARG0, 0x1300);
    wr(h, FW_ARG1, 0);
    wr(h, FW_ARG2, 0x400);
    EXPECT_EQ(command(h, FW_CMD_XFER, 8), 0u);  // load 256 B from VA 0x1300 to DMEM 0x400 (gpc.elf's copy
                                                // buffer, idle here): XFER_STATUS 0
    EXPECT_EQ(rd(h, FW_ERROR), 0u);
    EXPECT_EQ(b.mem.last_process, "gpc3.thread");  // the core host's thread, inside the burst
    EXPECT_LT(b.mem.last_delay, sc_time(1, SC_US));                      // issued at its own time ...
    EXPECT_GT(b.mem.last_at + b.mem.last_delay, sc_time(20, SC_US));  // ... during the command
    wr(h, MCU_UC_CTRL, MCU_CTRL_STOP);
    wr(h, MCU_DATA_INDEX, (0x400 + 4 * 5) | MCU_INDEX_AINCR);
    EXPECT_EQ(rd(h, MCU_DATA), 6u);  // word 5 of the block: byte 20 = 6, bytes 21..23 = 0
    EXPECT_EQ(rd(h, MCU_XFER_COUNT), 1u);
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  tlm::tlm_global_quantum::instance().set(quantum);
  EXPECT_TRUE(done);
}

TEST(McuModel, HostInterruptTrapAndDebugPort) {
  bool done = false;
  Bench b([&](TestInitiator& h) {
    upload(h, gpc_elf());
    wr(h, MCU_UC_CTRL, MCU_CTRL_START);
    sc_core::wait(20, SC_US);
    EXPECT_EQ(command(h, FW_CMD_ECHO | FW_CMD_NOTIFY, 1), 1u);
    ASSERT_EQ(b.sink.raised.size(), 1u);
    EXPECT_EQ(b.sink.raised[0], 11u);
    // Debug port: stop, read pc and sp, step, continue.
    wr(h, MCU_UC_CTRL, MCU_CTRL_STOP);
    sc_core::wait(1, SC_US);
    EXPECT_EQ(rd(h, MCU_UC_CTRL) & MCU_STATE_MASK, MCU_STATE_STOPPED);
    wr(h, MCU_DBG_INDEX, 2);
    const uint32_t sp = rd(h, MCU_DBG_DATA);
    EXPECT_GT(sp, 0x10000u);
    EXPECT_LE(sp, 0x10800u);
    EXPECT_EQ(wr(h, MCU_DBG_DATA, sp), tlm::TLM_OK_RESPONSE);  // allowed while stopped
    wr(h, MCU_UC_CTRL, MCU_CTRL_CONT);
    sc_core::wait(1, SC_US);
    // An illegal instruction: trapped, cause visible, the model keeps running the simulation.
    wr(h, MCU_METHOD_CMD, FW_CMD_TRAP);
    sc_core::wait(10, SC_US);
    const uint32_t ctrl = rd(h, MCU_UC_CTRL);
    EXPECT_EQ(ctrl & MCU_STATE_MASK, MCU_STATE_TRAPPED);
    EXPECT_EQ((ctrl >> MCU_CTRL_CAUSE_SHIFT) & 0xff, 2u);
    EXPECT_EQ(rd(h, MCU_UC_TRAP_CAUSE), 2u);
    EXPECT_LT(rd(h, MCU_UC_TRAP_PC), 8192u);
    // A restart brings it back.
    wr(h, MCU_UC_CTRL, MCU_CTRL_START);
    sc_core::wait(20, SC_US);
    EXPECT_EQ(command(h, FW_CMD_ECHO, 9), 9u);
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
}

TEST(McuModel, TimerFiresEveryTimerCyclesFromWhenItWasArmed) {
  const Bench::Setup c = Bench::gpc3("gpc: {clock: 1 GHz}");  // 100 cycles = 100 ns
  std::vector<uint32_t> timer_bit;  // IRQSTAT & TIMER at 99.5, 100.5, 199.5, 200.5 ns
  uint32_t ctrl = 0;
  bool done = false;
  Bench b(
      [&](TestInitiator& h) {
        wr(h, MCU_TIMER_CYCLES, 100);
        wr(h, MCU_TIMER_CTRL, 3);  // enable, periodic
        sc_core::wait(sc_time(99.5, SC_NS));
        timer_bit.push_back(rd(h, MCU_IRQSTAT) & MCU_IRQ_TIMER);
        sc_core::wait(1, SC_NS);
        timer_bit.push_back(rd(h, MCU_IRQSTAT) & MCU_IRQ_TIMER);
        wr(h, MCU_IRQSCLR, MCU_IRQ_TIMER);
        sc_core::wait(99, SC_NS);  // the period counts from the last expiry, not from the clear
        timer_bit.push_back(rd(h, MCU_IRQSTAT) & MCU_IRQ_TIMER);
        sc_core::wait(1, SC_NS);
        timer_bit.push_back(rd(h, MCU_IRQSTAT) & MCU_IRQ_TIMER);
        ctrl = rd(h, MCU_TIMER_CTRL);
        done = true;
        sc_core::sc_stop();
      },
      c);
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
  EXPECT_EQ(timer_bit, (std::vector<uint32_t>{0, MCU_IRQ_TIMER, 0, MCU_IRQ_TIMER}));
  EXPECT_EQ(ctrl, 3u);
}

TEST(McuModel, CoreWritingMethodCmdDoesNotInterruptItself) {
  namespace a = rv32test;
  uint32_t state = 0, irqstat = 0;
  bool done = false;
  Bench b([&](TestInitiator& h) {
    run_program(h, {a::lui(5, MCU_REG_BASE), a::sw(0, 5, MCU_METHOD_CMD),  // METHOD_CMD = 0
                    a::addi(6, 0, 1), a::sw(6, 5, MCU_UC_EXIT),            // exit(1): HALTED
                    a::jal(0, 0)});
    sc_core::wait(1, SC_US);
    state = rd(h, MCU_UC_CTRL) & MCU_STATE_MASK;
    irqstat = rd(h, MCU_IRQSTAT);
    done = true;
    sc_core::sc_stop();
  });
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
  EXPECT_EQ(state, MCU_STATE_HALTED);
  EXPECT_EQ(irqstat & MCU_IRQ_METHOD, 0u) << "METHOD is the host's doorbell to the core";
}

TEST(McuModel, HubCannotStopItselfThroughItsBar0Window) {
  namespace a = rv32test;
  uint32_t ctrl = 0;
  bool done = false;
  Bench b(
      [&](TestInitiator& h) {
        run_program(h, {a::lui(5, MCU_BAR0_BASE + GPU_HUB_BASE), a::addi(6, 0, MCU_CTRL_STOP),
                        a::sw(6, 5, MCU_UC_CTRL),  // its own UC_CTRL, the long way round: faults
                        a::addi(6, 0, 1), a::lui(7, MCU_REG_BASE), a::sw(6, 7, MCU_UC_EXIT), a::jal(0, 0)});
        sc_core::wait(1, SC_US);
        ctrl = rd(h, MCU_UC_CTRL);
        done = true;
        sc_core::sc_stop();
      },
      Bench::hub());
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
  EXPECT_EQ(ctrl & MCU_STATE_MASK, MCU_STATE_TRAPPED);
  EXPECT_EQ((ctrl >> MCU_CTRL_CAUSE_SHIFT) & 0xff, 7u) << "store access fault";
}

namespace {
std::vector<std::string> g_warnings;
void keep_warnings(const sc_core::sc_report& r, const sc_core::sc_actions&) {
  if (r.get_severity() == sc_core::SC_WARNING) g_warnings.push_back(r.get_msg());
}
// mtvec = 0x20; ecall; the handler at 0x20 counts in x5 and then faults (illegal) forever.
std::vector<uint32_t> faulting_handler_program() {
  namespace a = rv32test;
  std::vector<uint32_t> p = {a::addi(6, 0, 0x20), a::csrrw(0, 0x305, 6), a::ecall(), a::jal(0, 0)};
  while (p.size() < 8) p.push_back(a::addi(0, 0, 0));
  p.push_back(a::addi(5, 5, 1));  // 0x20
  p.push_back(0xffffffffu);       // 0x24
  return p;
}
}  // namespace

TEST(McuModel, TrapLoopInFirmwareIsStoppedByTheWatchdog) {
  uint32_t ctrl = 0, pc = 0, cause = 0, instret = 0;
  bool done = false;
  const Bench::Setup c = Bench::gpc3("gpc: {trap_watchdog: 50}");
  Bench b(
      [&](TestInitiator& h) {
        run_program(h, faulting_handler_program());
        sc_core::wait(20, SC_US);
        ctrl = rd(h, MCU_UC_CTRL);
        pc = rd(h, MCU_UC_TRAP_PC);
        cause = rd(h, MCU_UC_TRAP_CAUSE);
        instret = rd(h, MCU_UC_INSTRET_LO);
        done = true;
        sc_core::sc_stop();
      },
      c);
  g_warnings.clear();
  sc_core::sc_report_handler::set_handler(keep_warnings);
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
  EXPECT_EQ(ctrl & MCU_STATE_MASK, MCU_STATE_TRAPPED);
  EXPECT_EQ(cause, 2u);
  EXPECT_EQ(pc, 0x24u);
  EXPECT_EQ(instret, 2u + 50u);  // set-up, then the handler's addi once per entry (ecall + 49 faults)
  ASSERT_EQ(g_warnings.size(), 1u);
  EXPECT_NE(g_warnings[0].find(
                "trap loop: illegal instruction 0xffffffff at pc 0x00000024 (mcause 0x00000002) taken 50 times"),
            std::string::npos)
      << g_warnings[0];
}

TEST(McuModel, StrictTrapsStopsAtTheFirstFaultInAHandler) {
  uint32_t ctrl = 0, pc = 0, instret = 0;
  bool done = false;
  const Bench::Setup c = Bench::gpc3("gpc: {strict_traps: true}");
  Bench b(
      [&](TestInitiator& h) {
        run_program(h, faulting_handler_program());
        sc_core::wait(20, SC_US);
        ctrl = rd(h, MCU_UC_CTRL);
        pc = rd(h, MCU_UC_TRAP_PC);
        instret = rd(h, MCU_UC_INSTRET_LO);
        done = true;
        sc_core::sc_stop();
      },
      c);
  g_warnings.clear();
  sc_core::sc_report_handler::set_handler(keep_warnings);
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  EXPECT_TRUE(done);
  EXPECT_EQ(ctrl & MCU_STATE_MASK, MCU_STATE_TRAPPED);
  EXPECT_EQ(pc, 0x24u);
  EXPECT_EQ(instret, 3u);
  ASSERT_EQ(g_warnings.size(), 1u);
  EXPECT_NE(g_warnings[0].find("fault in trap handler: illegal instruction 0xffffffff at pc 0x00000024"),
            std::string::npos)
      << g_warnings[0];
}

namespace {
// A stand-in for the gr block's context-switch unit: records the offsets asked of it.
struct FakeUnit : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeUnit> regs{"regs"};
  tlm_utils::simple_target_socket_optional<FakeUnit> mem{"mem"};  // an RV32 core does not transfer through it
  std::vector<uint32_t> offsets;
  explicit FakeUnit(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    regs.register_b_transport(this, &FakeUnit::b);
    mem.register_b_transport(this, &FakeUnit::b);
  }
  void b(tlm::tlm_generic_payload& gp, sc_time&) {
    offsets.push_back(uint32_t(gp.get_address()));
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};
}  // namespace

// With a unit attached, the host's accesses of the unit's registers (gr_ctxsw.h's tables, SIGNAL
// included: the RV32 block has none of its own) go to it; an offset neither has is refused by
// the microcontroller's table, and its own registers stay its own.
TEST(McuModel, ForwardsExactlyTheContextSwitchUnitsRegisters) {
  FakeUnit unit("unit");
  std::vector<tlm::tlm_response_status> st;
  uint32_t id = 0;
  bool done = false;
  Bench b([&](TestInitiator& h) {
    uint32_t v = 0;
    for (uint32_t off : {uint32_t(GRC_MMCTX_SAVE_SWBASE), uint32_t(GRC_SIGNAL), 0x708u, uint32_t(MCU_METHOD_DATA)}) {
      sc_time d = sc_core::SC_ZERO_TIME;
      st.push_back(h.read32(off, v, d));
    }
    id = rd(h, MCU_UC_ID);
    done = true;
    sc_core::sc_stop();
  });
  b.uc.attach_ctxsw(unit.regs, unit.mem);
  g_warnings.clear();
  sc_core::sc_report_handler::set_handler(keep_warnings);
  hetvp::test::start(sc_time(1, sc_core::SC_SEC));
  ASSERT_TRUE(done);
  EXPECT_EQ(unit.offsets, (std::vector<uint32_t>{GRC_MMCTX_SAVE_SWBASE, GRC_SIGNAL}));
  EXPECT_EQ(st, (std::vector<tlm::tlm_response_status>{tlm::TLM_OK_RESPONSE, tlm::TLM_OK_RESPONSE,
                                                       tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_OK_RESPONSE}));
  EXPECT_NE(id & MCU_UC_ID_CTXSW, 0u);
}
