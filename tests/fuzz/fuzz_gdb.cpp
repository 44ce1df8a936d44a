// Fuzz harness: the GDB remote-protocol parser (models/mcu/gdb_protocol.*), exactly the code
// GdbStub runs on what arrives on its socket: the input is a byte stream that is framed into
// packets (acks, Ctrl-C, stray bytes, partial packets), and every packet is decoded and executed
// against a sandboxed target (32 registers, pc, 4 KiB of memory at 0x1000 whose neighbours are
// canaries, breakpoints). Replies must be well-formed; nothing may throw, crash or leak.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "models/mcu/gdb_protocol.h"

using namespace hetvp::mcu;

namespace {
struct SandboxTarget : gdb::Target {
  static constexpr uint32_t kBase = 0x1000, kSize = 0x1000;
  uint32_t x[32] = {}, pc = 0;
  std::vector<uint8_t> mem = std::vector<uint8_t>(kSize);
  std::set<uint32_t> bps;
  uint32_t read_gpr(unsigned i) override {
    if (i >= 32) std::abort();
    return x[i];
  }
  void write_gpr(unsigned i, uint32_t v) override {
    if (i >= 32) std::abort();
    if (i) x[i] = v;
  }
  uint32_t read_pc() override { return pc; }
  void write_pc(uint32_t v) override { pc = v; }
  bool read_mem(uint32_t a, uint8_t* d, uint32_t n) override {
    for (uint32_t i = 0; i < n; ++i) {
      if (uint32_t(a + i - kBase) >= kSize) return false;
      d[i] = mem[a + i - kBase];
    }
    return true;
  }
  bool write_mem(uint32_t a, const uint8_t* s, uint32_t n) override {
    for (uint32_t i = 0; i < n; ++i) {
      if (uint32_t(a + i - kBase) >= kSize) return false;
      mem[a + i - kBase] = s[i];
    }
    return true;
  }
  void set_breakpoint(uint32_t a) override {
    if (bps.size() < 64) bps.insert(a);
  }
  void clear_breakpoint(uint32_t a) override { bps.erase(a); }
  bool trapped() override { return pc & 1; }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SandboxTarget t;
  std::string rx;
  // Feed the stream in chunks, as recv() would: chunk sizes come from the data itself.
  size_t pos = 0;
  unsigned packets = 0;
  while (pos < size) {
    const size_t chunk = 1 + data[pos] % 64;
    rx.append(reinterpret_cast<const char*>(data + pos), std::min(chunk, size - pos));
    pos += chunk;
    std::string pkt;
    bool ack = false;
    while (gdb::extract_packet(rx, pkt, ack)) {
      if (pkt == "\x03") continue;
      gdb::Outcome o = gdb::handle_packet(pkt, t);
      if (o.send) {
        const std::string f = gdb::frame(o.reply);
        if (f.size() < 4 || f[0] != '$' || f[f.size() - 3] != '#') std::abort();
        if (o.reply.size() > 2 * 0x1000 + 16) std::abort();  // PacketSize=4000 promised
      }
      if (o.set_pc) t.write_pc(o.pc);
      if (++packets > 10000) return 0;
    }
  }
  return 0;
}
