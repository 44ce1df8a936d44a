// Memory (sparse storage, timing, DMI, range errors), the router (decode, translation, DMI
// clipped to a window, unmapped addresses) and register banks (access rules).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "models/memory/memory.h"
#include "platform/config.h"
#include "platform/register_bank.h"
#include "platform/router.h"

using namespace hetvp;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
// Asks the target behind `t` for a DMI pointer to `addr`; returns whether it was granted.
bool get_dmi(TestInitiator& t, uint64_t addr, tlm::tlm_dmi& dmi) {
  tlm::tlm_generic_payload gp;
  gp.set_address(addr);
  return t.socket->get_direct_mem_ptr(gp, dmi);
}
}  // namespace

TEST(Memory, SparseTimedAndBoundsChecked) {
  Memory mem("mem", config_from<MemoryConfig>("{size: 4 GiB, latency: 60 ns, bandwidth: 1e9}"));
  sc_time d1, d2;
  tlm::tlm_response_status beyond = tlm::TLM_OK_RESPONSE;
  uint32_t back = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    t.write32(0xFFFF0000, 0xdeadbeef, d1);
    t.read32(0xFFFF0000, back, d2);
    sc_time d;
    uint32_t v;
    beyond = t.read32(4ull << 30, v, d);
  });
  t.socket.bind(mem.in);
  hetvp::test::start();
  EXPECT_EQ(back, 0xdeadbeefu);
  EXPECT_EQ(d1, sc_time(64, SC_NS));  // 60 ns + 4 bytes at 1 GB/s
  EXPECT_EQ(d2, sc_time(64, SC_NS));
  EXPECT_EQ(beyond, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // A 4 GiB memory touched at one address holds one 1 MiB chunk.
  std::ostringstream os;
  JsonWriter w(os);
  w.begin_object();
  mem.dump_stats(w);
  w.end_object();
  EXPECT_NE(os.str().find("\"resident_bytes\": 1048576"), std::string::npos) << os.str();
}

// Pages never written read as zeros without their storage (#31): around a written run that
// straddles a page boundary, within it, and after a chunk was handed out by DMI and written
// through the pointer (b_transport then reads the pointer's bytes).
TEST(Memory, NeverWrittenBytesReadZeroAndDmiWritesAreSeen) {
  Memory mem("mem", config_from<MemoryConfig>("{size: 4 MiB, latency: 0 ns}"));
  std::vector<uint8_t> before(64, 0xAA), straddle(64, 0xAA), after(64, 0xAA), dmi_read(8, 0);
  bool granted = false;
  TestInitiator t("t", [&](TestInitiator& t) {
    sc_time d;
    t.access(tlm::TLM_READ_COMMAND, 0x1000 - 32, before.data(), 64, d);  // nothing written yet
    std::vector<uint8_t> pattern(40);
    for (unsigned i = 0; i < pattern.size(); ++i) pattern[i] = uint8_t(i + 1);
    t.access(tlm::TLM_WRITE_COMMAND, 0x2000 - 20, pattern.data(), 40, d);  // pages 1 and 2
    t.access(tlm::TLM_READ_COMMAND, 0x2000 - 32, straddle.data(), 64, d);
    t.access(tlm::TLM_READ_COMMAND, 0x3000 - 32, after.data(), 64, d);  // pages 2 and 3: zeros
    tlm::tlm_dmi dmi;
    granted = get_dmi(t, 0x200000, dmi);
    if (granted) std::memcpy(dmi.get_dmi_ptr() + 0x5008, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
    t.access(tlm::TLM_READ_COMMAND, 0x205008, dmi_read.data(), 8, d);
  });
  t.socket.bind(mem.in);
  hetvp::test::start();
  EXPECT_EQ(before, std::vector<uint8_t>(64, 0));
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(straddle[i], i >= 12 && i < 52 ? i - 11 : 0) << "byte " << i;
  EXPECT_EQ(after, std::vector<uint8_t>(64, 0));
  ASSERT_TRUE(granted);
  EXPECT_EQ(dmi_read, (std::vector<uint8_t>{0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}));
}

TEST(Memory, GrantsDmiPerChunk) {
  Memory mem("mem", config_from<MemoryConfig>("{size: 8 MiB}"));
  bool granted = false;
  uint64_t start = 1, end = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    tlm::tlm_dmi dmi;
    granted = get_dmi(t, 0x123456, dmi);
    start = dmi.get_start_address();
    end = dmi.get_end_address();
  });
  t.socket.bind(mem.in);
  hetvp::test::start();
  EXPECT_TRUE(granted);
  EXPECT_EQ(start, 0x100000u);
  EXPECT_EQ(end, 0x1FFFFFu);
}

TEST(Memory, DmiOfAPartialLastChunkEndsAtTheMemoryEnd) {
  // 1536 KiB: the second 1 MiB chunk is only half inside the memory.
  Memory mem("mem", config_from<MemoryConfig>("{size: 1536 KiB}"));
  bool granted = false;
  uint64_t end = 0;
  TestInitiator t("t", [&](TestInitiator& t) {
    tlm::tlm_dmi dmi;
    granted = get_dmi(t, 0x100010, dmi);
    end = dmi.get_end_address();
  });
  t.socket.bind(mem.in);
  hetvp::test::start();
  EXPECT_TRUE(granted);
  EXPECT_EQ(end, 0x17FFFFu);
}

// An owner of a memory (the gpu's `vram`) gives it other defaults by member: its Required size
// becomes optional with the owner's default, and the memory's own schema is left as it is.
namespace {
struct VramOwner : ParamSet {
  Group<MemoryConfig> vram{this, "vram", "the frame buffer", [](MemoryConfig& m) {
                             m.size.set_default("1536 MiB");
                             m.latency.set_default("100 ns");
                             m.bandwidth.set_default_text("177.4e9");
                           }};
};
}  // namespace

TEST(Memory, AnOwnerSetsOtherDefaultsByMember) {
  const auto owned = VramOwner{}.schema()->find("vram")->children;
  EXPECT_FALSE(owned->find("size")->required);
  EXPECT_EQ(owned->find("size")->default_text.value_or(""), "1536 MiB");
  EXPECT_EQ(owned->find("latency")->default_text.value_or(""), "100 ns");
  EXPECT_EQ(owned->find("bandwidth")->default_text.value_or(""), "177.4e9");
  const auto own = MemoryConfig{}.schema();
  EXPECT_TRUE(own->find("size")->required);
  EXPECT_FALSE(own->find("size")->default_text.has_value());
  EXPECT_EQ(own->find("latency")->default_text.value_or(""), "50 ns");

  const VramOwner o = config_from<VramOwner>("{vram: {latency: 7 ns}}");
  EXPECT_EQ(o.vram.size(), 1536ull << 20);
  EXPECT_FALSE(o.vram.size.given());
  EXPECT_EQ(o.vram.latency(), sc_time(7, SC_NS));
  EXPECT_EQ(o.vram.bandwidth(), 177.4e9);
  EXPECT_FALSE(o.vram.write_latency.given());
}

// The map is a list of typed entries; a router without one is reported by the set's validate().
TEST(Router, MapEntriesAreTypedAndAnEmptyMapIsAConfigError) {
  const RouterConfig c = config_from<RouterConfig>(
      "{latency: 2 ns, map: [{to: 'gpc_{i}', base: 0x1000, size: 4 KiB, repeat: 3, "
      "stride: 0x8000}, {to: mem, base: 0, size: 1 MiB, absolute: true}]}",
      "bus");
  ASSERT_EQ(c.map.size(), 2u);
  EXPECT_EQ(c.map[0].to(), "gpc_{i}");
  EXPECT_EQ(c.map[0].base(), 0x1000u);
  EXPECT_EQ(c.map[0].size(), 4096u);
  EXPECT_EQ(c.map[0].repeat(), 3u);
  EXPECT_EQ(c.map[0].stride(), 0x8000u);
  EXPECT_FALSE(c.map[0].absolute());
  EXPECT_TRUE(c.map[1].absolute());
  EXPECT_EQ(c.map[1].stride(), 0u);
  EXPECT_EQ(c.map[1].yaml_path(), "bus.map[1]");
  Diagnostics ok;
  c.validate(ok);
  EXPECT_TRUE(ok.empty());

  Diagnostics d;
  config_from<RouterConfig>("{latency: 2 ns}", "bus").validate(d);
  ASSERT_EQ(d.count(), 1u);
  EXPECT_NE(d.messages()[0].find("(bus): a router needs a 'map' with at least one entry"), std::string::npos)
      << d.messages()[0];
}

TEST(Router, DecodesTranslatesAndRejectsUnmapped) {
  Router bus("bus", config_from<RouterConfig>("{latency: 2 ns}"));
  Memory a("a", config_from<MemoryConfig>("{size: 1 MiB, latency: 0 ns}"));
  Memory b("b", config_from<MemoryConfig>("{size: 1 MiB, latency: 0 ns}"));
  bus.map("a", 0x0, 1 << 20, a.in);
  bus.map("b", 0x40000000, 1 << 20, b.in);
  EXPECT_THROW(bus.map("c", 0x40080000, 1 << 20, b.in), ConfigError);  // overlaps b
  uint32_t via_bus = 0;
  tlm::tlm_response_status hole = tlm::TLM_OK_RESPONSE, straddle = tlm::TLM_OK_RESPONSE;
  sc_time d;
  TestInitiator t("t", [&](TestInitiator& t) {
    t.write32(0x40000010, 77, d);
    t.read32(0x40000010, via_bus, d);
    uint32_t v;
    hole = t.read32(0x20000000, v, d);
    uint64_t x = 0;
    straddle = t.access(tlm::TLM_READ_COMMAND, 0xFFFFC, &x, 8, d);
  });
  t.socket.bind(bus.in);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  hetvp::test::start();
  EXPECT_EQ(via_bus, 77u);
  EXPECT_EQ(hole, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(straddle, tlm::TLM_ADDRESS_ERROR_RESPONSE);  // runs off the end of a's range
  EXPECT_EQ(d, sc_time(4, SC_NS));                       // two routed accesses at 2 ns each
  // 0x40000010 reached b (a 1 MiB memory) as offset 0x10: without translation it would be out of range.
}

TEST(Router, DmiIsClippedToTheWindowAndOnePastItIsUnmapped) {
  Router bus("bus", config_from<RouterConfig>("{latency: 0 ns}"));
  Memory m("m", config_from<MemoryConfig>("{size: 8 MiB, latency: 0 ns}"));
  bus.map("m", 0x40000000, 0x10000, m.in);  // a 64 KiB window onto a larger memory
  bool inside = false, past_end = true;
  uint64_t start = 0, end = 0;
  unsigned debug_bytes = 99;
  TestInitiator t("t", [&](TestInitiator& t) {
    tlm::tlm_dmi dmi, dmi_past;
    inside = get_dmi(t, 0x40000100, dmi);
    start = dmi.get_start_address();
    end = dmi.get_end_address();
    past_end = get_dmi(t, 0x40010000, dmi_past);
    uint32_t v = 0;
    tlm::tlm_generic_payload gp;
    set_access(gp, tlm::TLM_READ_COMMAND, 0x40010000, &v, 4);
    debug_bytes = t.socket->transport_dbg(gp);
  });
  t.socket.bind(bus.in);
  hetvp::test::start();
  EXPECT_TRUE(inside);
  EXPECT_EQ(start, 0x40000000u);
  EXPECT_EQ(end, 0x4000FFFFu) << "the memory's 1 MiB chunk must not leak past the 64 KiB window";
  EXPECT_FALSE(past_end);
  EXPECT_EQ(debug_bytes, 0u);
}

TEST(RegisterBank, EnforcesAccessRules) {
  RegisterBank bank("blk");
  bank.add("CTRL", 0x0, RegAccess::RW, 5);
  bank.add("ID", 0x4, RegAccess::RO, 0x1234);
  bank.add("GO", 0x8, RegAccess::WO);
  bank.add("IRQ", 0xc, RegAccess::W1C, 0xf);
  int writes = 0;
  bank.at(0x8).write([&](Register&, uint32_t v) { writes += static_cast<int>(v); });
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  auto acc = [&](tlm::tlm_command c, uint64_t off, uint32_t& v, unsigned len = 4) {
    tlm::tlm_generic_payload gp;
    gp.set_command(c);
    gp.set_address(off);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(len);
    bank.transport(gp);
    return gp.get_response_status();
  };
  uint32_t v = 0;
  EXPECT_EQ(acc(tlm::TLM_READ_COMMAND, 0x0, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 5u);
  v = 9;
  EXPECT_EQ(acc(tlm::TLM_WRITE_COMMAND, 0x4, v), tlm::TLM_COMMAND_ERROR_RESPONSE);  // read-only
  EXPECT_EQ(acc(tlm::TLM_READ_COMMAND, 0x8, v), tlm::TLM_COMMAND_ERROR_RESPONSE);   // write-only
  v = 3;
  EXPECT_EQ(acc(tlm::TLM_WRITE_COMMAND, 0x8, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(writes, 3);
  v = 0x5;
  acc(tlm::TLM_WRITE_COMMAND, 0xc, v);
  acc(tlm::TLM_READ_COMMAND, 0xc, v);
  EXPECT_EQ(v, 0xau);                                                               // write-1-to-clear
  EXPECT_EQ(acc(tlm::TLM_READ_COMMAND, 0x10, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // hole
  EXPECT_EQ(acc(tlm::TLM_READ_COMMAND, 0x2, v), tlm::TLM_BURST_ERROR_RESPONSE);     // misaligned
  EXPECT_EQ(acc(tlm::TLM_READ_COMMAND, 0x0, v, 2), tlm::TLM_BURST_ERROR_RESPONSE);  // not 32-bit
  EXPECT_EQ(bank.errors(), 5u);
}

TEST(RegisterBank, WriteWithByteEnablesIsRefusedAndChangesNothing) {
  RegisterBank bank("blk");
  bank.add("CTRL", 0x0, RegAccess::RW, 5);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  uint32_t v = 0x12345678;
  unsigned char be[4] = {0xff, 0, 0, 0};  // registers are written whole: partial writes are not supported
  tlm::tlm_generic_payload gp;
  set_access(gp, tlm::TLM_WRITE_COMMAND, 0x0, &v, 4);
  gp.set_byte_enable_ptr(be);
  gp.set_byte_enable_length(4);
  bank.transport(gp);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(bank.at(0x0).value, 5u);
}
