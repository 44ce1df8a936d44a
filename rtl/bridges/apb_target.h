// hetvp — the APB register target, TLM → s_apb_* pins (docs/rtl_blocks.md, "Register target"),
// and its checker. SETUP one cycle (PSEL), then ACCESS (PENABLE) until PREADY.
#pragma once

#include "rtl/bridges/register_target.h"

namespace hetvp::rtl {

// The APB4 rule the block can break: PREADY must come. PRDATA and PSLVERR only count at the
// PREADY edge of ACCESS, so no other value the block drives can be wrong by the protocol.
class ApbChecker {
 public:
  static RegisterTarget::Waiting waiting() { return {"APB", "PREADY"}; }
};

class ApbTarget final : public RegisterTarget {
 public:
  ApbTarget(const ApbPins& pins, CoreState& s) : RegisterTarget(s), a_(pins) {}
  void trace(WaveRing& ring) override;
  void drive() override;
  void sample() override;
  std::optional<RuleViolation> check(uint64_t) override { return std::nullopt; }
  void act() override;

 private:
  Waiting waiting_for(const RegisterAccess&) const override { return ApbChecker::waiting(); }
  const ApbPins& a_;
  bool done_ = false;  // PREADY in ACCESS at this edge
  uint32_t rdata_ = 0;
  unsigned resp_ = 0;
};

}  // namespace hetvp::rtl
