// The GDB remote protocol without a socket (models/mcu/gdb_protocol.*): framing, and
// regression tests for what tests/fuzz/fuzz_gdb.cpp found.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/mcu/gdb_protocol.h"

using namespace hetvp::mcu;

namespace {
struct FakeTarget : gdb::Target {
  uint32_t x[32] = {}, pc = 0;
  std::vector<uint8_t> mem = std::vector<uint8_t>(256);
  uint32_t read_gpr(unsigned i) override { return x[i]; }
  void write_gpr(unsigned i, uint32_t v) override { x[i] = v; }
  uint32_t read_pc() override { return pc; }
  void write_pc(uint32_t v) override { pc = v; }
  bool read_mem(uint32_t a, uint8_t* d, uint32_t n) override {
    if (a + uint64_t(n) > mem.size()) return false;
    std::memcpy(d, mem.data() + a, n);
    return true;
  }
  bool write_mem(uint32_t a, const uint8_t* s, uint32_t n) override {
    if (a + uint64_t(n) > mem.size()) return false;
    std::memcpy(mem.data() + a, s, n);
    return true;
  }
  void set_breakpoint(uint32_t) override {}
  void clear_breakpoint(uint32_t) override {}
  bool trapped() override { return false; }
};
}  // namespace

TEST(GdbProtocol, FramesAndExtractsPackets) {
  std::string rx = "+$m10,4#" + gdb::frame("m10,4").substr(7) + "$g#67";
  std::string pkt;
  bool ack = false;
  ASSERT_TRUE(gdb::extract_packet(rx, pkt, ack));
  EXPECT_EQ(pkt, "m10,4");
  EXPECT_TRUE(ack);
  ASSERT_TRUE(gdb::extract_packet(rx, pkt, ack));
  EXPECT_EQ(pkt, "g");
  EXPECT_FALSE(gdb::extract_packet(rx, pkt, ack));
}

TEST(GdbProtocol, WritesMemory) {
  FakeTarget t;
  EXPECT_EQ(gdb::handle_packet("M10,2:abcd", t).reply, "OK");
  EXPECT_EQ(t.mem[0x10], 0xab);
  EXPECT_EQ(t.mem[0x11], 0xcd);
  EXPECT_EQ(gdb::handle_packet("m10,2", t).reply, "abcd");
}

// Found by fuzzing: 'M' allocated the length it was given before looking at the data, so
// "M0,deadbeef:" made the stub allocate 3.7 GB (out of memory). A length beyond the packet's data
// is now malformed: E01, nothing allocated, nothing written.
TEST(GdbProtocol, MemoryWriteLongerThanItsDataIsRefused) {
  FakeTarget t;
  EXPECT_EQ(gdb::handle_packet("M0,deadbeef:", t).reply, "E01");
  EXPECT_EQ(gdb::handle_packet("M0,ffffffff:00", t).reply, "E01");
  EXPECT_EQ(gdb::handle_packet("M0,3:abcd", t).reply, "E01");
  EXPECT_EQ(gdb::handle_packet("M0,2", t).reply, "E01");  // no ':' at all
  EXPECT_EQ(t.mem[0], 0);
}
