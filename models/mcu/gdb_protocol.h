// hetvp — the GDB remote serial protocol without a socket: packet framing and the decoding and
// execution of one packet against a debug target. GdbStub (gdb_stub.*) owns the socket and the run
// control (step, continue, detach); everything it parses goes through here, so the parser can be
// tested and fuzzed without a connection (tests/fuzz/fuzz_gdb.cpp). Pure C++: no SystemC.
#pragma once

#include <cstdint>
#include <string>

namespace hetvp::mcu::gdb {

// What a debugger may do to a target.
class Target {
 public:
  virtual ~Target() = default;
  virtual uint32_t read_gpr(unsigned idx) = 0;  // idx 0..31
  virtual void write_gpr(unsigned idx, uint32_t v) = 0;
  virtual uint32_t read_pc() = 0;
  virtual void write_pc(uint32_t pc) = 0;
  virtual bool read_mem(uint32_t addr, uint8_t* dst, uint32_t len) = 0;  // false: not all readable
  virtual bool write_mem(uint32_t addr, const uint8_t* src, uint32_t len) = 0;
  virtual void set_breakpoint(uint32_t addr) = 0;
  virtual void clear_breakpoint(uint32_t addr) = 0;
  virtual bool trapped() = 0;  // for the '?' stop reason
};

// Takes the next complete packet out of `rx`: "$payload#xx" gives its payload (`out`, true;
// `ack` = true: the caller acknowledges with '+'), a Ctrl-C (0x03) outside a packet gives "\x03".
// Acks and stray bytes before a '$' are dropped. false: `rx` holds no complete packet yet.
bool extract_packet(std::string& rx, std::string& out, bool& ack);

// "$payload#checksum".
std::string frame(const std::string& payload);

// Little-endian hex of a 32-bit word, as GDB's 'g'/'p' want it.
std::string hex32le(uint32_t v);

// The stub's answer to one packet: `reply`, sent when `send` is set, and the `action` it then takes on the core.
struct Outcome {
  enum Action { none, step, cont, kill, detach } action = none;
  bool send = true;
  std::string reply;
  bool set_pc = false;  // 's ADDR' / 'c ADDR': resume at pc
  uint32_t pc = 0;
};

// Decodes one packet and applies what needs no run control (registers, memory, breakpoints).
// Malformed packets give an "E.." reply; unknown ones the empty reply.
Outcome handle_packet(const std::string& pkt, Target& t);

}  // namespace hetvp::mcu::gdb
