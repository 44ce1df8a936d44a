// GPU host interface: DMA gated by bus mastering, and MSIs from PMC_INTR (one per rising
// enabled source, one when a pending source gets enabled).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "common/warnings.h"
#include "models/gpu/gpu_regs.h"
#include "models/gpu/host_interface.h"
#include "models/pcie/config_space.h"
#include "models/pcie/tlp.h"

using namespace hetvp;
using namespace hetvp::gpu;
using namespace hetvp::test;
using sc_core::sc_time;

namespace {
// A target that answers everything and records the writes it gets (address, first word).
struct WriteRecorder : sc_core::sc_module {
  tlm_utils::simple_target_socket<WriteRecorder> in{"in"};
  std::vector<std::pair<uint64_t, uint32_t>> writes;
  explicit WriteRecorder(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &WriteRecorder::bt);
  }
  void bt(tlm::tlm_generic_payload& gp, sc_time&) {
    if (gp.is_write()) {
      uint32_t v = 0;
      std::memcpy(&v, gp.get_data_ptr(), std::min(4u, gp.get_data_length()));
      writes.push_back({gp.get_address(), v});
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A host interface (4 GPCs, 64 MiB, 2 copy engines) whose upstream, BAR0 and BAR1 go to
// recorders; `host` (running host_body) sends configuration requests, `dma`, `pmc` and `ptop` reach
// the GPU-side targets.
struct HostInterfaceBench {
  HostInterface hi{"hi", config_from<HostInterfaceConfig>("{}"), 4, 64u << 20, PCICFG_DEVICE_GTX480};
  WriteRecorder upstream{"upstream"}, bar0{"bar0"}, bar1{"bar1"};
  TestInitiator dma{"dma", [](TestInitiator&) {}}, pmc{"pmc", [](TestInitiator&) {}},
      ptop{"ptop", [](TestInitiator&) {}};
  std::function<void()> host_body;
  TestInitiator host{"host", [this](TestInitiator&) {
                       if (host_body) host_body();
                     }};
  HostInterfaceBench() {
    hi.upstream.bind(upstream.in);
    hi.bar0.bind(bar0.in);
    hi.bar1.bind(bar1.in);
    dma.socket.bind(hi.dma);
    pmc.socket.bind(hi.pmc);
    ptop.socket.bind(hi.ptop);
    host.socket.bind(hi.pcie);
  }
  // A configuration write, as the root complex sends it over the link.
  void config_write(unsigned reg, uint32_t v) {
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_WRITE_COMMAND, pcie::ecam_offset(1, 0, 0, reg), &v, 4);
    pcie::ConfigRequest cfg;
    gp.set_extension(&cfg);
    sc_time d;
    host.socket->b_transport(gp, d);
    gp.clear_extension(&cfg);
  }
};
}  // namespace

TEST(HostInterface, DmaIsRefusedWithoutBusMastering) {
  HostInterfaceBench b;
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  b.host_body = [&] {
    b.config_write(pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable);
    sc_time d;
    st = b.dma.write32(0x1000, 1, d);
  };
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(st, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_TRUE(b.upstream.writes.empty());
}

TEST(HostInterface, MsiOncePerRisingEnabledSourceAndWhenAPendingSourceIsEnabled) {
  HostInterfaceBench b;
  std::vector<size_t> msis;  // MSIs sent so far, after each step
  b.host_body = [&] {
    b.config_write(PCICFG_MSI_ADDR_LO, 0xfee00000);
    b.config_write(PCICFG_MSI_DATA, 0x41);
    b.config_write(PCICFG_MSI_CAP, PCICFG_MSI_ENABLE);
    b.config_write(pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable | pcie::kCmdBusMaster);
    sc_time d;
    b.pmc.write32(PMC_INTR_EN, 1u << GPU_INTR_COPY0, d);
    b.hi.intr->raise(GPU_INTR_COPY0, d);
    b.hi.intr->raise(GPU_INTR_COPY0, d);  // still pending: no second MSI
    msis.push_back(b.upstream.writes.size());
    b.pmc.write32(PMC_INTR, 1u << GPU_INTR_COPY0, d);  // acknowledge (W1C): the next raise is a new edge
    b.hi.intr->raise(GPU_INTR_COPY0, d);
    msis.push_back(b.upstream.writes.size());
    b.hi.intr->raise(GPU_INTR_COPY1, d);  // pending, but not enabled
    msis.push_back(b.upstream.writes.size());
    b.pmc.write32(PMC_INTR_EN, (1u << GPU_INTR_COPY0) | (1u << GPU_INTR_COPY1), d);
    msis.push_back(b.upstream.writes.size());
  };
  hetvp::test::start();
  EXPECT_EQ(msis, (std::vector<size_t>{1, 2, 2, 3}));
  for (auto& [addr, data] : b.upstream.writes) {
    EXPECT_EQ(addr, 0xfee00000u);
    EXPECT_EQ(data, 0x41u);
  }
}

// Every interrupt source the models raise has its own PMC_INTR bit, with the most GPCs the schema
// allows (16) and the compute front end: raising them one after the other sets one new bit each.
// (The first wave raised compute on bit 16, which is GPC 8's.)
TEST(HostInterface, InterruptBitsOfSixteenGpcsAndComputeAreDistinct) {
  HostInterfaceBench b;
  std::vector<unsigned> sources = {GPU_INTR_COPY(0), GPU_INTR_COPY(1), GPU_INTR_MMU_FAULT, GPU_INTR_HUB,
                                   GPU_INTR_COMPUTE};
  for (unsigned g = 0; g < GPU_MAX_GPCS; ++g) sources.push_back(GPU_INTR_GPC(g));
  std::vector<uint32_t> seen;
  b.host_body = [&] {
    sc_time d;
    for (unsigned bit : sources) {
      ASSERT_LT(bit, 32u);
      b.hi.intr->raise(bit, d);
      uint32_t v = 0;
      b.pmc.read32(PMC_INTR, v, d);
      seen.push_back(v);
    }
  };
  hetvp::test::start();
  ASSERT_EQ(seen.size(), sources.size());
  for (size_t i = 0; i < seen.size(); ++i)
    EXPECT_EQ(__builtin_popcount(seen[i]), static_cast<int>(i + 1)) << "source " << i << " (bit " << sources[i] << ")";
}

// BAR1 is bound to VRAM itself (#31): an offset inside the aperture but past VRAM (a BAR1 larger
// than VRAM: 256 MiB against the bench's 64 MiB) is refused by the host interface, with a warning
// that names the offset, the initiator and VRAM's size; an offset inside VRAM reaches it.
TEST(HostInterface, Bar1PastVramIsRefusedWithAWarning) {
  HostInterfaceBench b;
  const uint64_t bar1 = 0x90000000;
  tlm::tlm_response_status inside = tlm::TLM_INCOMPLETE_RESPONSE, past = tlm::TLM_INCOMPLETE_RESPONSE;
  b.host_body = [&] {
    b.config_write(PCICFG_BAR + 4, static_cast<uint32_t>(bar1));  // BAR1: slots 1-2 (64-bit)
    b.config_write(PCICFG_BAR + 8, 0);
    b.config_write(pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable);
    sc_time d;
    uint32_t v = 0;
    inside = b.host.read32(bar1 + (64u << 20) - 4, v, d);  // the last word of VRAM
    past = b.host.read32(bar1 + (64u << 20), v, d);        // the first word past it
  };
  Warnings w;
  hetvp::test::start();
  EXPECT_EQ(inside, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(past, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(w.messages().size(), 1u);
  EXPECT_EQ(w.messages()[0], "hi: BAR1 access at offset 0x4000000 (4 bytes) by test lies beyond VRAM (67108864 bytes)");
}
