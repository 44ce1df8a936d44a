// hetvp — the register port of a Verilated block, TLM → pins (docs/rtl_blocks.md, "Register
// target"): the queue of register accesses the `regs` socket hands over, presented one at a time
// from the first cycle after their arrival, and the time-out of an access the block does not
// answer. The protocol is a subclass: AxiLiteTarget (axi4lite_target.h), ApbTarget (apb_target.h).
#pragma once

#include <deque>
#include <memory>

#include "rtl/bridges/bus_bridge.h"

namespace hetvp::rtl {

// One 32-bit register access (1..4 bytes within a word, wstrb says which).
struct RegisterAccess {
  bool write = false;
  uint32_t addr = 0, wdata = 0, wstrb = 0;
  sc_core::sc_time arrival;
  uint64_t presented = 0;  // the cycle it was first driven
  uint64_t responded = 0;  // the cycle of its response handshake (B, R, PREADY)
  bool is_presented = false;
  bool aw_done = false, w_done = false, ar_done = false;  // AXI4-Lite: handshakes done
  bool apb_access = false;                                // APB: in the ACCESS phase
  uint32_t rdata = 0;
  unsigned resp = 0;                         // AXI encoding: 0 OKAY, 2 SLVERR, 3 DECERR
  std::function<void(uint64_t)> on_present;  // called once, at the cycle it is first presented
  sc_core::sc_event done;
};

class RegisterTarget : public BusBridge {
 public:
  explicit RegisterTarget(CoreState& s) : s_(s) {}
  void push(RegisterAccess* r) { queue_.push_back(r); }
  // The run failed: every queued access gets a SLVERR at once, so its initiator's thread returns
  // and unwinds (it would otherwise stay suspended past the end of the run).
  void abort();
  // The address of the access being presented (0 if none): named by channels without an address.
  uint64_t addr_hint();
  // After the edge: an access presented timeout_cycles ago and still not answered stops the run.
  void check_timeout();
  bool idle() const override { return queue_.empty(); }
  // What the front access waits for: the channel and "READY", "PREADY" or "response".
  struct Waiting {
    std::string channel;
    const char* what;
  };

 protected:
  virtual Waiting waiting_for(const RegisterAccess& r) const = 0;
  // The access being presented this cycle: the front one once its arrival is before this edge.
  RegisterAccess* head();
  // The response handshake happened: the access returns to its initiator.
  void complete(RegisterAccess* r, uint32_t data, unsigned resp);

  CoreState& s_;
  std::deque<RegisterAccess*> queue_;
};

// The block's register target for its BUS (axi4lite or apb).
std::unique_ptr<RegisterTarget> make_register_target(const RtlBlockType& type, VerilatedBlock& b, CoreState& s);

}  // namespace hetvp::rtl
