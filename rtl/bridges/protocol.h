// hetvp — generic pieces every co-simulated RTL block uses (docs/rtl_blocks.md): the handshake
// checker of a channel the RTL drives, and the ring buffer of the last cycles written as a VCD
// when a run fails. RtlCore (bus blocks) and RtlInvalidationEngine (the range engine's streams)
// are built on them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rtl/bridges/rules.h"
#include "rtl/bridges/verilated_block.h"

namespace hetvp::rtl {

// A VALID/READY channel driven by the RTL: VALID must stay high until READY (axi.valid_held), and
// the payload must not change meanwhile (axi.payload_stable); AXI A3.2.1, the same rules for any
// ready/valid stream. After a violation the checker goes on from the values it saw (a relaxed rule).
class HandshakeChecker {
 public:
  struct Violation {
    Rule rule;
    std::string detail;  // "VALID dropped before READY", "ARADDR changed from 0x.. to 0x.."
    uint64_t addr;       // the payload field named *ADDR* (else the hint given to check())
  };
  HandshakeChecker(std::string channel, Pin valid, Pin ready, std::vector<std::pair<std::string, Pin>> payload);
  // Call once per rising edge, with the values before the edge.
  std::optional<Violation> check(uint64_t addr_hint = 0);
  const std::string& channel() const { return channel_; }

 private:
  std::string channel_;
  Pin valid_, ready_;
  std::vector<std::pair<std::string, Pin>> payload_;
  bool prev_valid_ = false, prev_hs_ = false;
  std::vector<uint64_t> prev_, cur_;
};

// The values of some pins over the last `depth` cycles.
class WaveRing {
 public:
  explicit WaveRing(unsigned depth) : depth_(depth) {}
  void add(const std::string& name, Pin pin, unsigned width);  // before the first sample()
  // Adds a port's pins, named prefix + each word of `spec` in order: "name" is 1 bit wide,
  // "name:W" W bits (0: the pin's bytes * 8). The number of words must be the number of pins.
  void add_all(const std::string& prefix, const std::string& spec, std::initializer_list<Pin> pins);
  void sample(uint64_t cycle);  // values before the rising edge of `cycle`
  bool empty() const { return count_ == 0 || depth_ == 0; }
  uint64_t kept() const { return count_ < depth_ ? count_ : depth_; }
  // Writes the kept cycles as a VCD file: two time points per cycle (clock low at t - period/2,
  // high at t = cycle * period); a pin named "clk" is drawn as the clock. False if not written.
  bool write(const std::string& path, const std::string& scope, const std::string& comment, uint64_t period_ps) const;

 private:
  struct Traced {
    std::string name;
    Pin pin;
    unsigned width;
  };
  unsigned depth_;
  std::vector<Traced> traced_;
  std::vector<uint64_t> values_, cycles_;
  uint64_t count_ = 0;
};

}  // namespace hetvp::rtl
