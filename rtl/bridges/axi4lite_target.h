// hetvp — the AXI4-Lite register target, TLM → s_axil_* pins (docs/rtl_blocks.md, "Register
// target"), and its checker. A write drives AW and W together, a read AR; BREADY and RREADY are
// high (with test_ready_delay, only once VALID waited that long); the access completes at its B
// or R handshake.
#pragma once

#include "rtl/bridges/register_target.h"

namespace hetvp::rtl {

// The rules of the AXI4-Lite channels the block drives (B, R; rules.h): VALID held until READY and
// the payload stable meanwhile (A3.2.1), and a response only after its request's handshakes
// (A3.3.1: RVALID after AR, BVALID after AW and W).
class AxiLiteChecker {
 public:
  explicit AxiLiteChecker(const AxiLitePins& a);
  std::optional<RuleViolation> check_handshakes(uint64_t addr_hint);
  struct Handshakes {
    bool aw, w, ar, b, r;  // at this edge
  };
  // The B or R handshake of this edge, with `in_flight` the access being presented (its
  // handshakes before this edge in aw_done, w_done, ar_done).
  static std::optional<RuleViolation> check_response(const Handshakes& h, const RegisterAccess* in_flight);

 private:
  HandshakeChecker b_, r_;
};

class AxiLiteTarget final : public RegisterTarget {
 public:
  AxiLiteTarget(const AxiLitePins& pins, CoreState& s) : RegisterTarget(s), a_(pins), checker_(pins) {}
  void trace(WaveRing& ring) override;
  void drive() override;
  void sample() override;
  std::optional<RuleViolation> check(uint64_t addr_hint) override { return checker_.check_handshakes(addr_hint); }
  void act() override;

 private:
  Waiting waiting_for(const RegisterAccess& r) const override;
  const AxiLitePins& a_;
  AxiLiteChecker checker_;
  bool aw_ = false, w_ = false, ar_ = false, b_ = false, r_ = false;  // handshakes at this edge
  uint32_t rdata_ = 0;
  unsigned resp_ = 0;
  unsigned b_wait_ = 0, r_wait_ = 0;  // test_ready_delay: cycles BVALID / RVALID waited
};

}  // namespace hetvp::rtl
