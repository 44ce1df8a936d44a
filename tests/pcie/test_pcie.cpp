// PCIe: TLP timing on the link, bandwidth sharing per direction, protocol limits, the endpoint
// configuration space (BAR sizing, command register, MSI), and the root complex's root port
// (window decode, device 0 only, bus-master gating).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include <tlm_utils/simple_target_socket.h>

#include "common/test_run.h"
#include "common/irq_counter.h"
#include "common/tlm_harness.h"
#include "models/memory/memory.h"
#include "models/pcie/config_space.h"
#include "models/pcie/pcie_link.h"
#include "models/pcie/root_complex.h"
#include "models/pcie/tlp.h"
#include "platform/register_table.h"

using namespace hetvp;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
// Gen2 x16: 8e9 bytes/s after 8b/10b. A 128-byte write TLP with a 3DW header and 8 bytes of
// framing is 148 bytes on the wire: 18.5 ns.
// Two initiators into one socket (two link instances would not share a direction).
struct FanIn : sc_core::sc_module {
  tlm_utils::simple_target_socket_tagged<FanIn> a{"a"}, b{"b"};
  tlm_utils::simple_initiator_socket<FanIn> out{"out"};
  explicit FanIn(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    a.register_b_transport(this, &FanIn::bt, 0);
    b.register_b_transport(this, &FanIn::bt, 1);
  }
  void bt(int, tlm::tlm_generic_payload& gp, sc_time& d) { out->b_transport(gp, d); }
};
struct LinkBench {
  PcieLink link;
  Memory down_mem, up_mem;
  LinkBench()
      : link("link", config_from<PcieLinkConfig>("{generation: 2, lanes: 16, latency: 250 ns}")),
        down_mem("down_mem", config_from<MemoryConfig>("{size: 1 MiB, latency: 0 ns}")),
        up_mem("up_mem", config_from<MemoryConfig>("{size: 1 MiB, latency: 0 ns}")) {
    link.down_out.bind(down_mem.in);
    link.up_out.bind(up_mem.in);
  }
  // One request (made by `request`, which adds to the delay it is given) from the host or the
  // device side with the other side idle, simulated to the end: the delay the sender saw.
  using Request = std::function<void(TestInitiator&, sc_time&)>;
  sc_time host_request(const Request& request) { return delay_of(link.down_in, link.up_in, request); }
  sc_time device_request(const Request& request) { return delay_of(link.up_in, link.down_in, request); }

 private:
  sc_time delay_of(tlm::tlm_target_socket<32>& from, tlm::tlm_target_socket<32>& other, const Request& request) {
    sc_time seen;
    TestInitiator sender("sender", [&](TestInitiator& t) {
      sc_time d;
      request(t, d);
      seen = d;
    });
    TestInitiator idle("idle", [](TestInitiator&) {});
    sender.socket.bind(from);
    idle.socket.bind(other);
    hetvp::test::start();
    return seen;
  }
};
}  // namespace

TEST(PcieLink, PostedWriteCostsTheSenderOnlyWireTime) {
  LinkBench b;
  const sc_time seen = b.host_request([](TestInitiator& t, sc_time& d) {
    uint8_t data[128] = {1};
    ASSERT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x100, data, 128, d), tlm::TLM_OK_RESPONSE);
  });
  EXPECT_EQ(seen, sc_time(18.5, SC_NS));
  EXPECT_DOUBLE_EQ(b.link.raw_bandwidth(), 8e9);
}

TEST(PcieLink, ReadIsARoundTripWithCompletionsSplitAtMaxPayload) {
  LinkBench b;
  const sc_time seen = b.device_request([](TestInitiator& t, sc_time& d) {
    uint8_t data[512];
    ASSERT_EQ(t.access(tlm::TLM_READ_COMMAND, 0x0, data, 512, d), tlm::TLM_OK_RESPONSE);
  });
  // request (20 B = 2.5 ns) + 250 ns + 4 completions of 148 B (74 ns) + 250 ns
  EXPECT_EQ(seen, sc_time(2.5 + 250 + 74 + 250, SC_NS));
}

TEST(PcieLink, ReadCompletionsUseThreeDwordHeadersEvenAbove4GiB) {
  LinkBench b;
  const sc_time seen = b.device_request([](TestInitiator& t, sc_time& d) {
    uint8_t data[128];
    t.access(tlm::TLM_READ_COMMAND, 0x100000000ull, data, 128, d);  // the timing does not depend on the answer
  });
  // request with a 4DW header (24 B = 3 ns) + 250 ns + completion (128 + 12 + 8 B = 18.5 ns) + 250 ns
  EXPECT_EQ(seen, sc_time(3 + 250 + 18.5 + 250, SC_NS));
}

TEST(PcieLink, ConfigurationWriteIsNonPosted) {
  LinkBench b;
  const sc_time seen = b.host_request([](TestInitiator& t, sc_time& d) {
    uint32_t v = 1;
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_WRITE_COMMAND, 0x4, &v, 4);
    pcie::ConfigRequest cfg;
    gp.set_extension(&cfg);
    t.socket->b_transport(gp, d);
    gp.clear_extension(&cfg);
  });
  // the sender waits for the completion: request (4 + 12 + 8 B = 3 ns) + 250 ns
  // + completion without data (20 B = 2.5 ns) + 250 ns
  EXPECT_EQ(seen, sc_time(3 + 250 + 2.5 + 250, SC_NS));
}

TEST(PcieLink, SameDirectionIsSharedOppositeDirectionIsNot) {
  LinkBench b;
  sc_time a_done, up_done;
  TestInitiator h1("h1", [&](TestInitiator& t) {
    uint8_t data[128] = {};
    sc_time d;
    for (int i = 0; i < 100; ++i) t.access(tlm::TLM_WRITE_COMMAND, 0, data, 128, d);
    a_done = d;
  });
  TestInitiator dev("dev", [&](TestInitiator& t) {
    uint8_t data[128] = {};
    sc_time d;
    for (int i = 0; i < 100; ++i) t.access(tlm::TLM_WRITE_COMMAND, 0, data, 128, d);
    up_done = d;
  });
  h1.socket.bind(b.link.down_in);
  dev.socket.bind(b.link.up_in);
  hetvp::test::start();
  // 100 TLPs alone: 1850 ns each way, in parallel on the two directions.
  EXPECT_EQ(a_done, sc_time(1850, SC_NS));
  EXPECT_EQ(up_done, sc_time(1850, SC_NS));
}

TEST(PcieLink, TwoSendersOnOneDirectionEachTakeLonger) {
  PcieLink link("link", config_from<PcieLinkConfig>("{}"));
  Memory mem("mem", config_from<MemoryConfig>("{size: 1 MiB, latency: 0 ns}"));
  Memory up("up", config_from<MemoryConfig>("{size: 1 MiB}"));
  link.down_out.bind(mem.in);
  link.up_out.bind(up.in);
  // Two initiators reach the down direction through a tiny fan-in (two link instances would
  // not share): the first sends 100 TLPs, the second interleaves 100 more at the same times.
  sc_time first, second;
  FanIn fan("fan");
  fan.out.bind(link.down_in);
  auto sender = [](sc_time& result) {
    return [&result](TestInitiator& t) {
      uint8_t data[128] = {};
      sc_time d;
      for (int i = 0; i < 100; ++i) {
        t.access(tlm::TLM_WRITE_COMMAND, 0, data, 128, d);
        sc_core::wait(d);  // stay in step so the two senders interleave
        result += d;
        d = sc_core::SC_ZERO_TIME;
      }
    };
  };
  TestInitiator s1("s1", sender(first)), s2("s2", sender(second));
  s1.socket.bind(fan.a);
  s2.socket.bind(fan.b);
  TestInitiator dev("dev", [](TestInitiator&) {});
  dev.socket.bind(link.up_in);
  hetvp::test::start();
  // Alone each would finish in 1850 ns; sharing, the pair needs 3700 ns on the wire.
  EXPECT_GT(first, sc_time(1850, SC_NS));
  EXPECT_GT(second, sc_time(1850, SC_NS));
  EXPECT_GE(sc_core::sc_time_stamp(), sc_time(3700, SC_NS) - sc_time(18.5, SC_NS));
}

TEST(PcieLink, OversizedRequestsAreProtocolErrors) {
  LinkBench b;
  tlm::tlm_response_status w = tlm::TLM_OK_RESPONSE, r = tlm::TLM_OK_RESPONSE;
  TestInitiator host("host", [&](TestInitiator& t) {
    uint8_t data[1024] = {};
    sc_time d;
    w = t.access(tlm::TLM_WRITE_COMMAND, 0, data, 256, d);  // > max_payload 128
    r = t.access(tlm::TLM_READ_COMMAND, 0, data, 1024, d);  // > max_read_request 512
  });
  host.socket.bind(b.link.down_in);
  TestInitiator dev("dev", [](TestInitiator&) {});
  dev.socket.bind(b.link.up_in);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(w, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(r, tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(PcieConfigSpace, BarSizingByWritingAllOnes) {
  pcie::Type0ConfigSpace cs(PCICFG_VENDOR_NVIDIA, PCICFG_DEVICE_GTX480, PCICFG_CLASS_VGA,
                            {{16u << 20, false, false}, {256u << 20, true, true}});
  EXPECT_EQ(cs.read32(PCICFG_ID), 0x06c010deu);  // the GTX 480's IDs, as lspci shows them
  cs.write32(PCICFG_BAR, 0xffffffff);
  EXPECT_EQ(cs.read32(PCICFG_BAR), 0xff000000u);  // 16 MiB, 32-bit, non-prefetchable
  cs.write32(PCICFG_BAR + 4, 0xffffffff);
  cs.write32(PCICFG_BAR + 8, 0xffffffff);
  EXPECT_EQ(cs.read32(PCICFG_BAR + 4), 0xf0000000u | PCICFG_BAR_64BIT | PCICFG_BAR_PREFETCH);  // 256 MiB
  EXPECT_EQ(cs.read32(PCICFG_BAR + 8), 0xffffffffu);
  cs.write32(PCICFG_BAR, 0x80000000);
  cs.write32(PCICFG_BAR + 4, 0x90000000);
  cs.write32(PCICFG_BAR + 8, 0);
  uint64_t off = 0;
  EXPECT_EQ(cs.decode(0x80001000, off), -1);  // memory decoding is off until the command register says so
  cs.write32(PCICFG_COMMAND, PCICFG_COMMAND_MEMORY | PCICFG_COMMAND_MASTER);
  EXPECT_EQ(cs.decode(0x80001000, off), 0);
  EXPECT_EQ(off, 0x1000u);
  EXPECT_EQ(cs.decode(0x90000010, off), 1);
  EXPECT_EQ(cs.decode(0xa0000000, off), -1);
  EXPECT_TRUE(cs.bus_master());
}

TEST(PcieConfigSpace, MsiCapability) {
  pcie::Type0ConfigSpace cs(PCICFG_VENDOR_NVIDIA, PCICFG_DEVICE_GTX480, PCICFG_CLASS_VGA, {{16u << 20, false, false}});
  EXPECT_EQ(cs.read32(PCICFG_CAP_PTR) & 0xff, unsigned(PCICFG_MSI_CAP));
  EXPECT_EQ(cs.read32(PCICFG_MSI_CAP) & 0xff, PCICFG_MSI_CAP_ID);
  cs.write32(PCICFG_MSI_ADDR_LO, 0xfee00000);
  cs.write32(PCICFG_MSI_DATA, 0x41);
  EXPECT_FALSE(cs.msi_enabled());
  cs.write32(PCICFG_MSI_CAP, PCICFG_MSI_ENABLE);
  EXPECT_TRUE(cs.msi_enabled());
  EXPECT_EQ(cs.msi_address(), 0xfee00000u);
  EXPECT_EQ(cs.msi_data(), 0x41);
}

// Every register of pcie_config.h reads its table reset value from a fresh GPU configuration
// space (the BARs as the flags of the GPU's BAR layout: BAR0 32-bit, BAR1 64-bit prefetchable).
TEST(PcieConfigSpace, ResetValuesAreTheTables) {
  const hetvp::RegSpec table[] = {HETVP_REG_TABLE(HETVP_PCICFG_REGS)};
  pcie::Type0ConfigSpace cs(PCICFG_VENDOR_NVIDIA, PCICFG_DEVICE_GTX480, PCICFG_CLASS_VGA,
                            {{16u << 20, false, false}, {256u << 20, true, true}});
  const uint32_t bar_flags[6] = {0, PCICFG_BAR_64BIT | PCICFG_BAR_PREFETCH, 0, 0, 0, 0};
  for (const hetvp::RegSpec& r : table)
    for (unsigned k = 0; k < std::max(1u, r.count); ++k)
      EXPECT_EQ(cs.read32(r.offset + 4 * k), r.count > 1 ? r.reset | bar_flags[k] : r.reset) << r.name << k;
  // Registers outside the table read as zero.
  for (unsigned reg : {0x2cu, 0x30u, 0x3cu, 0x40u, 0x60u, 0xffcu}) EXPECT_EQ(cs.read32(reg), 0u) << std::hex << reg;
}

namespace {
// A target that records the local time at which each write arrived.
struct ArrivalRecorder : sc_core::sc_module {
  tlm_utils::simple_target_socket<ArrivalRecorder> in{"in"};
  std::vector<sc_time> arrivals;
  explicit ArrivalRecorder(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.register_b_transport(this, &ArrivalRecorder::bt);
  }
  void bt(tlm::tlm_generic_payload& gp, sc_time& d) {
    arrivals.push_back(sc_core::sc_time_stamp() + d);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};
}  // namespace

TEST(PcieLink, PostedWriteArrivesOneLatencyAfterLeaving) {
  PcieLink link("link", config_from<PcieLinkConfig>("{generation: 2, lanes: 16, latency: 250 ns}"));
  ArrivalRecorder dev("dev");
  Memory up("up", config_from<MemoryConfig>("{size: 1 MiB}"));
  link.down_out.bind(dev.in);
  link.up_out.bind(up.in);
  TestInitiator host("host", [&](TestInitiator& t) {
    uint8_t data[128] = {};
    sc_time d;
    t.access(tlm::TLM_WRITE_COMMAND, 0x100, data, 128, d);
  });
  host.socket.bind(link.down_in);
  TestInitiator other("other", [](TestInitiator&) {});
  other.socket.bind(link.up_in);
  hetvp::test::start();
  ASSERT_EQ(dev.arrivals.size(), 1u);
  EXPECT_EQ(dev.arrivals[0], sc_time(18.5 + 250, SC_NS));
}

TEST(PcieLink, HeaderOnlyTlpsStillOccupyTheWire) {
  // A read request (20 bytes, no data) and then 100 posted writes on the up direction: the
  // request's wire time pushes the last write back by 2.5 ns.
  LinkBench b;
  sc_time last_write;
  TestInitiator dev("dev", [&](TestInitiator& t) {
    uint8_t data[128] = {};
    sc_time d;
    sc_core::wait(sc_core::SC_ZERO_TIME);  // let the reader go first
    for (int i = 0; i < 100; ++i) t.access(tlm::TLM_WRITE_COMMAND, 0, data, 128, d);
    last_write = d;
  });
  TestInitiator reader("reader", [&](TestInitiator& t) {
    uint8_t data[4];
    sc_time d;
    t.access(tlm::TLM_READ_COMMAND, 0, data, 4, d);
  });
  FanIn fan("fan");
  dev.socket.bind(fan.a);
  reader.socket.bind(fan.b);
  fan.out.bind(b.link.up_in);
  TestInitiator host("host", [](TestInitiator&) {});
  host.socket.bind(b.link.down_in);
  hetvp::test::start();
  EXPECT_EQ(last_write, sc_time(1850 + 2.5, SC_NS));
}

TEST(PcieLink, SixtyFourBitAddressesUseFourDwordHeaders) {
  LinkBench b;
  sc_time low, high;
  TestInitiator host("host", [&](TestInitiator& t) {
    uint8_t data[128] = {};
    sc_time d;
    t.access(tlm::TLM_WRITE_COMMAND, 0x1000, data, 128, d);
    low = d;
    sc_core::wait(sc_time(1, sc_core::SC_US));
    sc_time d2;
    // The target is 1 MiB: a 64-bit address gets an error there, but the TLP still crossed.
    t.access(tlm::TLM_WRITE_COMMAND, 0x100000000ull, data, 128, d2);
    high = d2;
  });
  host.socket.bind(b.link.down_in);
  TestInitiator dev("dev", [](TestInitiator&) {});
  dev.socket.bind(b.link.up_in);
  hetvp::test::start();
  EXPECT_EQ(low, sc_time(18.5, SC_NS));   // (128 + 12 + 8) B at 8 GB/s
  EXPECT_EQ(high, sc_time(19.0, SC_NS));  // (128 + 16 + 8) B
}

TEST(RootComplex, RootPortDecodesItsWindowOnlyDeviceZeroAndGatesDmaOnBusMaster) {
  RootComplex rc("rc", config_from<RootComplexConfig>("{latency: 0 ns}"));
  ArrivalRecorder link("link"), host_mem("host_mem");
  IrqCounter irq("irq");  // the root complex's MSI output must be bound
  rc.bind_initiator("down0", link.in);
  rc.host.bind(host_mem.in);
  rc.irq.bind(irq.in);
  TestInitiator ecam("ecam", [](TestInitiator&) {}), mmio("mmio", [](TestInitiator&) {});
  ecam.socket.bind(rc.ecam);
  mmio.socket.bind(rc.mmio);
  tlm::tlm_response_status window_end = tlm::TLM_INCOMPLETE_RESPONSE, dma_off = tlm::TLM_OK_RESPONSE,
                           dma_on = tlm::TLM_INCOMPLETE_RESPONSE;
  uint32_t dev1_id = 0;
  TestInitiator device("device", [&](TestInitiator& t) {
    sc_time d;
    auto port_cfg = [&](unsigned reg, uint32_t v) { ecam.write32(pcie::ecam_offset(0, 0, 0, reg), v, d); };
    port_cfg(pcie::kCfgBusNumbers, (1u << 8) | (1u << 16));       // secondary = subordinate = 1
    port_cfg(pcie::kCfgMemBaseLimit, 0x8000u | (0x80f0u << 16));  // [0x8000_0000, 0x80FF_FFFF]
    port_cfg(pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable);    // no bus mastering yet
    uint32_t v = 0;
    window_end = mmio.read32(0x80FFFFFC, v, d);              // the last word under the limit
    ecam.read32(pcie::ecam_offset(1, 1, 0, 0), dev1_id, d);  // below a root port only device 0 exists
    dma_off = t.write32(0x1000, 7, d);
    port_cfg(pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable | pcie::kCmdBusMaster);
    dma_on = t.write32(0x1000, 7, d);
  });
  device.socket.bind(*rc.target("up0"));
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(window_end, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(link.arrivals.size(), 1u) << "only the MMIO read crosses the link";
  EXPECT_EQ(dev1_id, 0xffffffffu);
  EXPECT_EQ(dma_off, tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(dma_on, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(host_mem.arrivals.size(), 1u);
}
