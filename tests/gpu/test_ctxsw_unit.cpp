// One context-switch unit by itself (models/gpu/gr/ctxsw_unit.h): a test initiator programs its
// registers as the firmware would; a register file stands for BAR0, a memory for VRAM, a sink
// counts the interrupts into its microcontroller. MMCTX save / load with BASE and MULTI entries,
// the queue limit, strands, LOAD_CHAN's checks, the refusals, and the CHSW handshake.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/channel_tag.h"

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "models/gpu/gr/ctxsw_unit.h"

using namespace hetvp;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// BAR0 as a plain register file at [0x1000, 0x3000) (anything else: no register there).
struct RegFile : sc_core::sc_module {
  tlm_utils::simple_target_socket<RegFile> in{"in"};
  std::map<uint64_t, uint32_t> regs;
  explicit RegFile(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.register_b_transport(this, &RegFile::b); }
  void b(tlm::tlm_generic_payload& gp, sc_time& d) {
    const uint64_t a = gp.get_address();
    if (a < 0x1000 || a >= 0x3000 || gp.get_data_length() != 4)
      return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (gp.is_read())
      std::memcpy(gp.get_data_ptr(), &regs[a], 4);
    else
      std::memcpy(&regs[a], gp.get_data_ptr(), 4);
    d += sc_time(10, SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Vram : sc_core::sc_module {
  tlm_utils::simple_target_socket<Vram> in{"in"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(1 << 20, 0);
  explicit Vram(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.register_b_transport(this, &Vram::b); }
  void b(tlm::tlm_generic_payload& gp, sc_time& d) {
    const uint64_t a = gp.get_address();
    if (a + gp.get_data_length() > bytes.size()) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (gp.is_read())
      std::memcpy(gp.get_data_ptr(), &bytes[a], gp.get_data_length());
    else
      std::memcpy(&bytes[a], gp.get_data_ptr(), gp.get_data_length());
    d += sc_time(100, SC_NS);
    if (const auto* t = gp.get_extension<gpu::ChannelTag>()) last_inst = t->valid ? t->inst : ~0ull;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  uint64_t last_inst = ~0ull;  // the ChannelTag of the last access (the VM port's)
  uint32_t word(uint64_t a) const {
    uint32_t v;
    std::memcpy(&v, &bytes[a], 4);
    return v;
  }
  void set(uint64_t a, uint64_t v, unsigned len = 4) { std::memcpy(&bytes[a], &v, len); }
};

// A master of the unit's xfer port (a Falcon controller's xdld / xdst).
struct XferMaster : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<XferMaster> socket{"socket"};
  explicit XferMaster(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t off, void* data, unsigned len) {
    tlm::tlm_generic_payload gp;
    set_access(gp, cmd, off, data, len);
    sc_time d = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, d);
    return gp.get_response_status();
  }
};

struct Sink : sc_core::sc_module, IrqIf {
  sc_core::sc_export<IrqIf> in{"in"};
  std::vector<unsigned> raised;
  explicit Sink(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.bind(*this); }
  void raise(unsigned v, const sc_time&) override { raised.push_back(v); }
};

struct Bench {
  gpu::CtxswUnit unit;
  TestInitiator host;
  RegFile bar0{"bar0"};
  Vram vram{"vram"};
  Vram va{"va"};  // the GPU virtual address port (a flat memory here: it records the channel tag)
  Sink sink{"sink"};
  XferMaster xm{"xm"};
  static gpu::CtxswConfig cfg(bool hub) {
    gpu::CtxswConfig c;
    c.hub = hub;
    c.vram_size = 1 << 20;
    c.bar0_size = 0x4000;
    if (!hub) c.strands = {{}, {0x2000, 0x2004, 0x2008}};  // an empty strand, then three words
    return c;
  }
  Bench(std::function<void(TestInitiator&)> body, gpu::CtxswConfig c) : unit("unit", c), host("host", std::move(body)) {
    host.socket.bind(unit.regs);
    unit.bar0.bind(bar0.in);
    unit.vram.bind(vram.in);
    unit.va.bind(va.in);
    unit.mcu_irq.bind(sink.in);
    xm.socket.bind(unit.xfer);
  }
};

uint32_t rd(TestInitiator& h, uint32_t off) {
  uint32_t v = 0;
  sc_time d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(h.read32(off, v, d), tlm::TLM_OK_RESPONSE) << std::hex << off;
  return v;
}
void wr(TestInitiator& h, uint32_t off, uint32_t v) {
  sc_time d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(h.write32(off, v, d), tlm::TLM_OK_RESPONSE) << std::hex << off;
}
void idle(TestInitiator& h) {
  for (int i = 0; i < 1000 && (rd(h, GRC_SIGNAL) & (GRC_SIGNAL_MMCTX | GRC_SIGNAL_STRAND)); ++i)
    sc_core::wait(100, SC_NS);
  EXPECT_EQ(rd(h, GRC_SIGNAL), 0u);
}

}  // namespace

TEST(CtxswUnit, MmctxSavesAndRestoresBaseAndMultiEntries) {
  Bench* b = nullptr;
  Bench bench(
      [&](TestInitiator& h) {
        for (uint32_t i = 0; i < 8; ++i) b->bar0.regs[0x1100 + 4 * i] = 0xa0 + i;  // unit 0..3 at stride 0x20? below
        b->bar0.regs[0x1200] = 0x11;
        b->bar0.regs[0x1220] = 0x22;
        b->bar0.regs[0x1260] = 0x66;
        wr(h, GRC_MEM_BASE, 0x100);  // VRAM 0x10000
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM);
        wr(h, GRC_MMCTX_SAVE_SWBASE, 2);  // area at 0x10200
        wr(h, GRC_MMCTX_BASE, 0x1000);
        wr(h, GRC_MMCTX_MULTI_STRIDE, 0x20);
        wr(h, GRC_MMCTX_MULTI_MASK, 0xb);  // units 0, 1, 3
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START);
        EXPECT_EQ(rd(h, GRC_MMCTX_CTRL) & GRC_MMCTX_CTRL_FREE_MASK, 16u);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x100, 8) | GRC_MMCTX_ENTRY_BASE_EN);  // 0x1100..0x111c
        wr(h, GRC_MMCTX_QUEUE,
           GRC_MMCTX_ENTRY(0x200, 1) | GRC_MMCTX_ENTRY_BASE_EN | GRC_MMCTX_ENTRY_MULTI_EN);  // 0x1200, 0x1220, 0x1260
        EXPECT_EQ(rd(h, GRC_MMCTX_CTRL) & GRC_MMCTX_CTRL_FREE_MASK, 14u);
        EXPECT_EQ(rd(h, GRC_SIGNAL), GRC_SIGNAL_MMCTX);
        idle(h);
        for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(b->vram.word(0x10200 + 4 * i), 0xa0 + i);
        EXPECT_EQ(b->vram.word(0x10220), 0x11u);
        EXPECT_EQ(b->vram.word(0x10224), 0x22u);
        EXPECT_EQ(b->vram.word(0x10228), 0x66u);
        EXPECT_EQ(rd(h, GRC_MMCTX_WORDS), 11u);
        // Load them back from another area after changing the registers.
        std::memcpy(&b->vram.bytes[0x10300], &b->vram.bytes[0x10200], 44);
        for (auto& [a, v] : b->bar0.regs) v = 0;
        wr(h, GRC_MMCTX_LOAD_SWBASE, 3);
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START | GRC_MMCTX_CTRL_DIR_LOAD);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x100, 8) | GRC_MMCTX_ENTRY_BASE_EN);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x200, 1) | GRC_MMCTX_ENTRY_BASE_EN | GRC_MMCTX_ENTRY_MULTI_EN);
        idle(h);
        EXPECT_EQ(b->bar0.regs[0x1104], 0xa1u);
        EXPECT_EQ(b->bar0.regs[0x1260], 0x66u);
        EXPECT_EQ(rd(h, GRC_MMCTX_LOAD_COUNT), 11u);
        EXPECT_EQ(rd(h, GRC_ERROR), 0u);
        EXPECT_GE(b->sink.raised.size(), 2u);  // MCU_IRQ_CTXSW each time the queue drained
        for (unsigned v : b->sink.raised) EXPECT_EQ(v, unsigned(MCU_IRQ_CTXSW_BIT));
        sc_core::sc_stop();
      },
      Bench::cfg(true));
  b = &bench;
  start();
}

TEST(CtxswUnit, RefusalsSetErrorWithTheAddress) {
  Bench* b = nullptr;
  Bench bench(
      [&](TestInitiator& h) {
        wr(h, GRC_MEM_BASE, 0x100);
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VM);  // VM: refused at once, no job
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x1000, 1));
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_TARGET);
        EXPECT_EQ(rd(h, GRC_SIGNAL), 0u);
        wr(h, GRC_ERROR, 0);
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x3ffc, 2));  // second word beyond BAR0 (0x4000)
        idle(h);
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_REG);
        EXPECT_EQ(rd(h, GRC_ERROR_ADDR), 0x4000u);
        wr(h, GRC_ERROR, 0);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x3000, 1));  // inside BAR0, nothing answers
        idle(h);
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_REG);
        EXPECT_EQ(rd(h, GRC_ERROR_ADDR), 0x3000u);
        wr(h, GRC_ERROR, 0);
        wr(h, GRC_MEM_BASE, 0xffff);  // area at the last 256 bytes of VRAM + the START offset
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x1000, 64));
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x1000, 1));  // its area starts at VRAM end
        idle(h);
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_BUFFER);
        // A full queue: 17 entries at once.
        wr(h, GRC_ERROR, 0);
        wr(h, GRC_MEM_BASE, 0x100);
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START);
        for (int i = 0; i < 17; ++i) wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x1000, 1));
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_QUEUE);
        idle(h);
        sc_core::sc_stop();
      },
      Bench::cfg(true));
  b = &bench;
  start();
}

TEST(CtxswUnit, StrandsSaveAndLoadFromTheSelectedOne) {
  Bench* b = nullptr;
  Bench bench(
      [&](TestInitiator& h) {
        EXPECT_EQ(rd(h, GRC_STRANDS_CNT), 2u);
        uint32_t off = 0;
        for (uint32_t s = 0; s < 2; ++s) {  // as the GPC firmware lays them out
          wr(h, GRC_STRAND_SELECT, s);
          wr(h, GRC_STRAND_CMD, GRC_STRAND_CMD_GET_INFO);
          const uint32_t words = rd(h, GRC_STRAND_WORDS);
          EXPECT_EQ(words, s ? 3u : 0u);
          wr(h, GRC_STRAND_SAVE_SWBASE, off);
          wr(h, GRC_STRAND_LOAD_SWBASE, off + 4);
          off += (words * 4 + 255) / 256;
        }
        wr(h, GRC_STRAND_SELECT, 1);
        EXPECT_EQ(rd(h, GRC_STRAND_SAVE_SWBASE), 0u);
        EXPECT_EQ(rd(h, GRC_STRAND_LOAD_SWBASE), 4u);
        b->bar0.regs[0x2000] = 1;
        b->bar0.regs[0x2004] = 2;
        b->bar0.regs[0x2008] = 3;
        wr(h, GRC_MEM_BASE, 0x200);
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM);
        wr(h, GRC_STRAND_SELECT, 0);
        wr(h, GRC_STRAND_CMD, GRC_STRAND_CMD_SAVE);
        EXPECT_EQ(rd(h, GRC_SIGNAL), GRC_SIGNAL_STRAND);
        idle(h);
        EXPECT_EQ(b->vram.word(0x20000), 1u);
        EXPECT_EQ(b->vram.word(0x20008), 3u);
        b->vram.set(0x20400, 7);
        b->vram.set(0x20404, 8);
        b->vram.set(0x20408, 9);
        wr(h, GRC_STRAND_CMD, GRC_STRAND_CMD_LOAD);
        idle(h);
        EXPECT_EQ(b->bar0.regs[0x2000], 7u);
        EXPECT_EQ(b->bar0.regs[0x2008], 9u);
        EXPECT_EQ(rd(h, GRC_ERROR), 0u);
        sc_core::sc_stop();
      },
      Bench::cfg(false));
  b = &bench;
  start();
}

TEST(CtxswUnit, LoadChanChecksTheInstanceBlock) {
  Bench* b = nullptr;
  Bench bench(
      [&](TestInitiator& h) {
        auto load = [&](uint32_t chan) {
          wr(h, GRH_MEM_CHAN, chan);
          wr(h, GRH_MEM_CMD, GRH_MEM_CMD_LOAD_CHAN);
          EXPECT_EQ(rd(h, GRH_MEM_CMD), 0u);
          return rd(h, GRH_MEM_CTX_STATUS);
        };
        b->vram.set(0x3000 + GR_INST_CTX_PTR, 0x45600 | GR_INST_CTX_VRAM, 8);
        EXPECT_EQ(load(GRH_CHAN_VALID | 3), GRC_ERR_NONE);
        EXPECT_EQ(rd(h, GRH_MEM_CTX), 0x456u);
        EXPECT_EQ(load(GRH_CHAN_VALID | 4), GRC_ERR_NO_CTX);  // zero at 0x4210
        b->vram.set(0x4000 + GR_INST_CTX_PTR, 0x45600, 8);    // no VRAM bit (a GPU VA as nouveau writes it)
        EXPECT_EQ(load(GRH_CHAN_VALID | 4), GRC_ERR_BAD_CTX);
        b->vram.set(0x4000 + GR_INST_CTX_PTR, (2ull << 20) | GR_INST_CTX_VRAM, 8);  // beyond 1 MiB of VRAM
        EXPECT_EQ(load(GRH_CHAN_VALID | 4), GRC_ERR_BAD_CTX);
        b->vram.set(0x4000 + GR_INST_CTX_PTR, 0x45610 | GR_INST_CTX_VRAM, 8);  // not 256-byte aligned
        EXPECT_EQ(load(GRH_CHAN_VALID | 4), GRC_ERR_BAD_CTX);
        EXPECT_EQ(load(GRH_CHAN_VALID | 0x100), GRC_ERR_BAD_INST);  // 1 MiB: outside VRAM
        EXPECT_EQ(load(3), GRC_ERR_BAD_INST);                       // not valid
        sc_core::sc_stop();
      },
      Bench::cfg(true));
  b = &bench;
  start();
}

TEST(CtxswUnit, ChswRaisesTheInterruptAndAckNotifies) {
  Bench* b = nullptr;
  bool acked = false;
  Bench bench(
      [&](TestInitiator& h) {
        gpu::ChswIf& c = b->unit;
        c.request_switch(5, 0x7000, sc_time(10, SC_NS));
        EXPECT_TRUE(c.switch_pending());
        EXPECT_EQ(rd(h, GRH_CHAN_NEXT), GRH_CHAN_VALID | 7u);
        sc_core::wait(20, SC_NS);
        ASSERT_EQ(b->sink.raised.size(), 1u);
        EXPECT_EQ(b->sink.raised[0], unsigned(MCU_IRQ_CHSW_BIT));
        wr(h, GRH_CHAN_ADDR, GRH_CHAN_VALID | 7u);
        wr(h, GRH_CHSW_FW_CYCLES, 1234);
        sc_core::wait(1, SC_US);
        wr(h, GRH_CHSW, GRH_CHSW_ACK);  // notifies switch_acked in the next delta
        const sc_time t0 = sc_core::sc_time_stamp();
        sc_core::wait(sc_time(1, SC_US), b->unit.switch_acked());
        acked = sc_core::sc_time_stamp() == t0;
        EXPECT_TRUE(acked);
        EXPECT_FALSE(c.switch_pending());
        uint64_t inst = 0;
        EXPECT_TRUE(c.current_channel(inst));
        EXPECT_EQ(inst, 0x7000u);
        sc_core::sc_stop();
      },
      Bench::cfg(true));
  b = &bench;
  start();
  EXPECT_TRUE(acked);
  EXPECT_FALSE(run_state().failed());
}

// MEM_TARGET VM (1): the engines and the xfer port move in the virtual address space of the channel
// MEM_CHAN names (the payloads carry its ChannelTag, for the GPU MMU); the xfer port's address is an
// offset from MEM_BASE << 8. VM with no valid MEM_CHAN is refused (GRC_ERR_TARGET), as is VRAM beyond
// its size on the xfer port.
TEST(CtxswUnit, VmTargetMovesInTheChannelsSpaceAndXferIsRelativeToMemBase) {
  Bench* b = nullptr;
  Bench bench(
      [&](TestInitiator& h) {
        b->bar0.regs[0x1000] = 0xabc;
        wr(h, GRC_MEM_BASE, 0x200);  // VA 0x20000
        wr(h, GRH_MEM_CHAN, 0x80000005);  // instance block at 0x5000
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VM);
        wr(h, GRC_MMCTX_SAVE_SWBASE, 1);
        wr(h, GRC_MMCTX_CTRL, GRC_MMCTX_CTRL_START);
        wr(h, GRC_MMCTX_QUEUE, GRC_MMCTX_ENTRY(0x1000, 1));
        idle(h);
        EXPECT_EQ(rd(h, GRC_ERROR), 0u);
        EXPECT_EQ(b->va.word(0x20100), 0xabcu) << "saved at VA MEM_BASE + SWBASE";
        EXPECT_EQ(b->va.last_inst, 0x5000u) << "in the space of the channel MEM_CHAN names";
        EXPECT_EQ(b->vram.word(0x20100), 0u);
        uint32_t words[4] = {};
        b->va.set(0x20010, 0x11223344);
        EXPECT_EQ(b->xm.access(tlm::TLM_READ_COMMAND, 0x10, words, 16), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(words[0], 0x11223344u);
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VRAM | GRC_MEM_TARGET_UNK31);
        words[0] = 0x55;
        EXPECT_EQ(b->xm.access(tlm::TLM_WRITE_COMMAND, 0x40, words, 4), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(b->vram.word(0x20040), 0x55u);
        wr(h, GRC_MEM_BASE, 0xffff0);  // beyond the 1 MiB VRAM
        EXPECT_EQ(b->xm.access(tlm::TLM_READ_COMMAND, 0, words, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_BUFFER);
        wr(h, GRC_ERROR, 0);
        wr(h, GRH_MEM_CHAN, 0);
        wr(h, GRC_MEM_TARGET, GRC_MEM_TARGET_AS_VM);
        EXPECT_EQ(b->xm.access(tlm::TLM_READ_COMMAND, 0, words, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(rd(h, GRC_ERROR), GRC_ERR_TARGET);
        sc_core::sc_stop();
      },
      Bench::cfg(true));
  b = &bench;
  start();
}
