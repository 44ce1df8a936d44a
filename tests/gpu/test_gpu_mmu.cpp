// GPU MMU: two-level translation from page tables in VRAM, accesses split at page boundaries
// onto non-adjacent physical pages, faults (missing entry, read-only page, beyond VRAM) with their
// registers, and the TLB (its capacity, what flushes it).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <sstream>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "common/irq_counter.h"
#include "platform/channel_tag.h"
#include "models/gpu/gpu_mmu.h"
#include "models/gpu/gpu_regs.h"
#include "models/memory/memory.h"
#include "platform/json.h"

using namespace hetvp;
using namespace hetvp::gpu;
using namespace hetvp::test;

namespace {
// VRAM 16 MiB: page directory at 0, one page table at 0x20000. VA 0x1000_0000 maps to VRAM page
// 0x300000, VA 0x1000_1000 to VRAM page 0x100000 (not adjacent, lower), VA 0x1000_2000 to a
// read-only VRAM page 0x200000, VA 0x1000_3000 to host page 0x5000.
struct MmuBench {
  Memory vram{"vram", config_from<MemoryConfig>("{size: 16 MiB, latency: 10 ns}")};
  Memory sys{"sys", config_from<MemoryConfig>("{size: 1 MiB, latency: 10 ns}")};
  GpuMmu mmu;
  IrqCounter irq{"irq"};
  std::function<void(TestInitiator&)> regs_body;  // what a test does through the register port
  TestInitiator regs{"regs", [this](TestInitiator& r) {
                       if (regs_body) regs_body(r);
                     }};
  static constexpr uint64_t kVa = 0x10000000, kPt = 0x20000;

  explicit MmuBench(const std::string& mmu_params = "{}")
      : mmu("mmu", config_from<GpuMmuConfig>(mmu_params), 16u << 20) {
    regs.socket.bind(mmu.regs);
    mmu.vram.bind(vram.in);
    mmu.sysmem.bind(sys.in);
    mmu.intr.bind(irq.in);
    map_table(0, kVa, kPt);
    map(kPt, kVa + 0x0000, 0x300000);
    map(kPt, kVa + 0x1000, 0x100000);
    map(kPt, kVa + 0x2000, 0x200000, MMU_PTE_READ_ONLY);
    map(kPt, kVa + 0x3000, 0x5000, MMU_PTE_SYSMEM);
  }
  // The PDE for `va` in the page directory at `pd` points to the page table at `pt`.
  void map_table(uint64_t pd, uint64_t va, uint64_t pt) {
    poke64(pd + (va >> (MMU_PAGE_SHIFT + MMU_PT_INDEX_BITS)) * 8, pt | MMU_PDE_VALID);
  }
  // The PTE for `va` in the page table at `pt` maps it to `pa`.
  void map(uint64_t pt, uint64_t va, uint64_t pa, uint64_t flags = 0) {
    poke64(pt + ((va >> MMU_PAGE_SHIFT) & ((1u << MMU_PT_INDEX_BITS) - 1)) * 8, pa | MMU_PTE_VALID | flags);
  }
  void poke32(uint64_t addr, uint32_t v) { debug(vram, true, addr, &v, 4); }
  void poke64(uint64_t addr, uint64_t v) { debug(vram, true, addr, &v, 8); }
  static void debug(Memory& m, bool write, uint64_t addr, void* p, unsigned len) {
    tlm::tlm_generic_payload gp;
    set_access(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, p, len);
    // Untimed: the memory's debug transport, through its socket's export.
    ASSERT_EQ(m.in.get_base_export()->transport_dbg(gp), len);
  }
};
}  // namespace

TEST(GpuMmu, TranslatesAndSplitsAtPageBoundariesOntoNonAdjacentPages) {
  MmuBench b;
  std::vector<uint8_t> data(64);
  for (unsigned i = 0; i < 64; ++i) data[i] = static_cast<uint8_t>(i + 1);
  tlm::tlm_response_status st = tlm::TLM_INCOMPLETE_RESPONSE;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    st = t.access(tlm::TLM_WRITE_COMMAND, MmuBench::kVa + 0x1000 - 32, data.data(), 64, d);  // straddles the page
  });
  t.socket.bind(b.mmu.in);
  hetvp::test::start();
  ASSERT_EQ(st, tlm::TLM_OK_RESPONSE);
  uint8_t lo[32], hi[32];
  MmuBench::debug(b.vram, false, 0x300000 + 0x1000 - 32, lo, 32);
  MmuBench::debug(b.vram, false, 0x100000, hi, 32);
  EXPECT_EQ(0, std::memcmp(lo, data.data(), 32));
  EXPECT_EQ(0, std::memcmp(hi, data.data() + 32, 32)) << "the second half must land on the second page's frame";
}

TEST(GpuMmu, HostPagesGoToSystemMemory) {
  MmuBench b;
  uint32_t v = 0xfeedf00d;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    t.write32(MmuBench::kVa + 0x3000 + 8, v, d);
  });
  t.socket.bind(b.mmu.in);
  hetvp::test::start();
  uint32_t got = 0;
  MmuBench::debug(b.sys, false, 0x5008, &got, 4);
  EXPECT_EQ(got, v);
}

TEST(GpuMmu, ReadOnlyAndMissingPagesFault) {
  MmuBench b;
  tlm::tlm_response_status ro = tlm::TLM_OK_RESPONSE, rd = tlm::TLM_INCOMPLETE_RESPONSE, miss = tlm::TLM_OK_RESPONSE;
  uint32_t status = 0, addr = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    uint32_t v = 0;
    rd = t.read32(MmuBench::kVa + 0x2000, v, d);     // reading a read-only page is fine
    ro = t.write32(MmuBench::kVa + 0x2000, 1, d);    // writing it is not
    miss = t.write32(MmuBench::kVa + 0x8000, 1, d);  // no PTE
  });
  t.socket.bind(b.mmu.in);
  b.regs_body = [&](TestInitiator& r) {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    sc_core::sc_time d;
    r.read32(MMU_FAULT_STATUS, status, d);
    r.read32(MMU_FAULT_ADDR_LO, addr, d);
  };
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(rd, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ro, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(miss, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status, 1u | (MMU_FAULT_NO_PTE << 8)) << "the latest fault: no PTE";
  EXPECT_EQ(addr, MmuBench::kVa + 0x8000);
  ASSERT_EQ(b.irq.bits.size(), 2u);
  EXPECT_EQ(b.irq.bits[0], GPU_INTR_MMU_FAULT);
}

TEST(GpuMmu, StaleTranslationIsUsedUntilTlbFlushOrPageDirectoryChange) {
  MmuBench b;
  b.poke32(0x300000, 0xaaaa);
  b.poke32(0x100000, 0xbbbb);
  b.poke32(0x200000, 0xcccc);
  uint32_t first = 0, stale = 0, flushed = 0, new_pd = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    t.read32(MmuBench::kVa, first, d);              // walks: kVa -> 0x300000, now in the TLB
    b.map(MmuBench::kPt, MmuBench::kVa, 0x100000);  // the driver remaps the page...
    t.read32(MmuBench::kVa, stale, d);              // ...without flushing: the TLB still says 0x300000
    b.regs.write32(MMU_TLB_FLUSH, 1, d);
    t.read32(MmuBench::kVa, flushed, d);
    // A second page directory at 0x40000, its table at 0x60000 mapping kVa -> 0x200000.
    b.map_table(0x40000, MmuBench::kVa, 0x60000);
    b.map(0x60000, MmuBench::kVa, 0x200000);
    b.regs.write32(MMU_PD_BASE_LO, 0x40000, d);  // switching page directories flushes the TLB
    t.read32(MmuBench::kVa, new_pd, d);
  });
  t.socket.bind(b.mmu.in);
  hetvp::test::start();
  EXPECT_EQ(first, 0xaaaau);
  EXPECT_EQ(stale, 0xaaaau);
  EXPECT_EQ(flushed, 0xbbbbu);
  EXPECT_EQ(new_pd, 0xccccu);
}

TEST(GpuMmu, TlbHoldsAtMostTlbEntriesTranslations) {
  MmuBench b("{tlb_entries: 8}");
  for (unsigned i = 0; i < 16; ++i) b.map(MmuBench::kPt, MmuBench::kVa + i * 0x1000, 0x300000 + i * 0x1000);
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    uint32_t v;
    t.read32(MmuBench::kVa, v, d);               // miss: the walk fills pages 0-7 (one 64-byte PTE line)
    t.read32(MmuBench::kVa + 8 * 0x1000, v, d);  // miss: pages 8-15 evict pages 0-7
    t.read32(MmuBench::kVa, v, d);               // miss again
  });
  t.socket.bind(b.mmu.in);
  hetvp::test::start();
  std::ostringstream os;
  JsonWriter w(os);
  w.begin_object();
  b.mmu.dump_stats(w);
  w.end_object();
  EXPECT_NE(os.str().find("\"tlb_misses\": 3,"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("\"tlb_hits\": 0,"), std::string::npos) << os.str();
}

TEST(GpuMmu, PteBeyondVramFaultsWithOutOfVramReason) {
  MmuBench b;
  b.map(MmuBench::kPt, MmuBench::kVa, 32u << 20);  // VRAM is 16 MiB
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  uint32_t status = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_core::sc_time d;
    uint32_t v;
    st = t.read32(MmuBench::kVa + 0x10, v, d);
  });
  t.socket.bind(b.mmu.in);
  b.regs_body = [&](TestInitiator& r) {
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    sc_core::sc_time d;
    r.read32(MMU_FAULT_STATUS, status, d);
  };
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(status, 1u | (MMU_FAULT_OUT_OF_VRAM << 8));
  ASSERT_EQ(b.irq.bits.size(), 1u);
  EXPECT_EQ(b.irq.bits[0], GPU_INTR_MMU_FAULT);
}

// A channel's address space (channel_tag.h): the page directory named at instance +0x200. The same
// VA lands on another frame than in the PD_BASE space; a VA the channel has not mapped faults with
// the channel latched in FAULT_CHAN, though the PD_BASE space maps it.
TEST(GpuMmu, ChannelTaggedAccessesUseTheChannelsPageDirectory) {
  MmuBench b;
  constexpr uint64_t kInst = 0x400000, kPd = 0x410000, kPt = 0x440000;
  b.poke64(kInst + 0x200, kPd);
  b.map_table(kPd, MmuBench::kVa, kPt);
  b.map(kPt, MmuBench::kVa, 0x600000);
  uint32_t v = 0x11223344, w = 0x55667788, fault_chan = 0;
  tlm::tlm_response_status tagged = tlm::TLM_INCOMPLETE_RESPONSE, untagged = tagged, outside = tagged;
  TestInitiator t("t", [&](TestInitiator& t) {
    auto* tag = new ChannelTag;
    tag->valid = true;
    tag->chid = 3;
    tag->inst = kInst;
    tlm::tlm_generic_payload gp;
    gp.set_extension(tag);
    sc_core::sc_time d;
    set_access(gp, tlm::TLM_WRITE_COMMAND, MmuBench::kVa, &v, 4);
    t.socket->b_transport(gp, d);
    tagged = gp.get_response_status();
    untagged = t.access(tlm::TLM_WRITE_COMMAND, MmuBench::kVa, &w, 4, d);
    set_access(gp, tlm::TLM_READ_COMMAND, MmuBench::kVa + 0x1000, &v, 4);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.socket->b_transport(gp, d);
    outside = gp.get_response_status();
  });
  b.regs_body = [&](TestInitiator& r) {
    sc_core::wait(1, sc_core::SC_US);
    sc_core::sc_time d;
    r.read32(MMU_FAULT_CHAN, fault_chan, d);
  };
  t.socket.bind(b.mmu.in);
  hetvp::test::start();
  EXPECT_EQ(tagged, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(untagged, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(outside, tlm::TLM_ADDRESS_ERROR_RESPONSE) << "VA mapped only in the PD_BASE space";
  uint32_t in_chan = 0, in_default = 0;
  MmuBench::debug(b.vram, false, 0x600000, &in_chan, 4);
  MmuBench::debug(b.vram, false, 0x300000, &in_default, 4);
  EXPECT_EQ(in_chan, 0x11223344u);
  EXPECT_EQ(in_default, 0x55667788u);
  EXPECT_EQ(fault_chan, 0x80000000u | (kInst >> 12));
}
