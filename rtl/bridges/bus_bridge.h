// hetvp — what the bus bridges around a Verilated block share (docs/rtl_blocks.md, "The bridges").
// RtlCore (rtl_block.cpp) runs the block's clock and composes one bridge per bus port:
//   * a register target, TLM → pins: AxiLiteTarget (axi4lite_target.h) or ApbTarget (apb_target.h);
//   * the memory master, pins → TLM: Axi4MasterBridge (axi4_master_bridge.h), only with MASTER axi4.
// Each bridge owns the pins of its port, the state of the transactions in flight on it and a
// protocol checker of its own (the rules of that protocol, beside the bridge in its file), and
// adds its pins to the ring buffer (block_waves.h). Per rising edge the core calls, on every
// bridge in that order: drive() (inputs), then evaluates with clk low, sample() (handshakes seen
// before the edge), check() (the checker's per-edge rules), evaluates with clk high, then act().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "rtl/bridges/protocol.h"
#include "rtl/bridges/rtl_block.h"
#include "rtl/bridges/rules.h"
#include "platform/trace_track.h"

namespace hetvp::rtl {

// A protocol rule a block broke (rules.h): stops the run with
// "<channel> channel: rule <id> (<source>: <text>) violated: <detail>, address <addr>", unless the
// block relaxes the rule (CoreState::violated).
struct RuleViolation {
  std::string channel;  // "AXI4 AR", "AXI4-Lite B", "APB", ...
  Rule rule;
  std::string detail;  // what the block did: "R response with no read in flight", "time-out: ..."
  uint64_t addr = 0;
  std::string text() const { return describe(rule) + " violated: " + detail; }
};

// A handshake checker's violation on its channel.
inline std::optional<RuleViolation> on_channel(const HandshakeChecker& c,
                                               std::optional<HandshakeChecker::Violation> v) {
  if (!v) return std::nullopt;
  return RuleViolation{c.channel(), v->rule, std::move(v->detail), v->addr};
}

// What the clock thread shares with the bridges of one block.
struct CoreState {
  BlockEnv env;
  RtlBlockConfig opt;
  uint64_t n = 0;  // the current cycle (rising edge)
  bool in_reset = true, failed = false;
  RelaxedRules relax;  // the block's `relax:` list and the count of each relaxed rule's breaks
  // A rule was broken. True: the run stops (the first call stops it; later ones are ignored), the
  // caller returns. False: the rule is relaxed (counted, a warning the first time), the caller
  // does the forgiving thing of rules.cpp.
  std::function<bool(const RuleViolation&)> violated;
  const RunMember* owner = nullptr;  // the RtlCore: its run's timeline and debug categories
  TraceTrack regs_track, mem_track;  // "<the RtlCore's name>.regs" and ".mem", named by the RtlCore
  const Clock& clock() const { return env.clock; }
};

class BusBridge {
 public:
  virtual ~BusBridge() = default;
  virtual void trace(WaveRing& ring) = 0;  // adds the port's pins to the ring buffer
  virtual void drive() = 0;                // the inputs for this cycle's edge (also during reset)
  virtual void sample() = 0;               // the handshakes of this edge (clk low, outputs settled)
  // The checker's per-edge rules (not called during reset); `addr_hint` names the register access
  // in flight for channels without an address.
  virtual std::optional<RuleViolation> check(uint64_t addr_hint) = 0;
  virtual void act() = 0;         // after the rising edge: completes what the handshakes did
  virtual bool idle() const = 0;  // nothing in flight (the clock may stop)

 protected:
  // A handshake at this edge: VALID and READY both high.
  static bool fired(const Pin& valid, const Pin& ready) { return valid.get() && ready.get(); }
};

}  // namespace hetvp::rtl
