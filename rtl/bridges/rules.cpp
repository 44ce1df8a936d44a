// hetvp — the table of the bridges' protocol rules (rules.h).
//
// Sources: ARM, "AMBA AXI and ACE Protocol Specification", ARM IHI 0022E (2013): A3.2.1
// "Handshake process", A3.3.1 "Dependencies between channel handshake signals", A3.4.1 "Address
// structure" (burst length, size, type, the 4 KiB boundary). AXI4-Lite (part B of the same
// document) keeps AXI4's handshake and dependency rules. The WLAST rule is stated with the write
// data channel's signals; its section number is not given here (not confirmed). ARM, "AMBA APB
// Protocol Specification", ARM IHI 0024: PREADY low extends an APB transfer without a bound, so the
// bound is hetvp's (timeout_cycles).
#include "rtl/bridges/rules.h"

namespace hetvp::rtl {

namespace {

constexpr const char* kAxi = "AMBA AXI, ARM IHI 0022E";

const std::vector<RuleSpec> kRules = {
    {Rule::ValidHeld, "axi.valid_held", "AMBA AXI, ARM IHI 0022E A3.2.1",
     "once VALID is high it stays high until READY (the handshake)",
     "the checker goes on; the bridge never saw a transfer, so none happened"},
    {Rule::PayloadStable, "axi.payload_stable", "AMBA AXI, ARM IHI 0022E A3.2.1",
     "the payload stays stable while VALID is high and READY low",
     "the checker goes on; the bridge takes the payload present at the handshake"},
    {Rule::ReadAfterAr, "axi.r_after_ar", "AMBA AXI, ARM IHI 0022E A3.3.1",
     "the slave raises RVALID only after the AR handshake",
     "an R handshake at the same edge as the AR handshake completes the read (the address handshake counts as "
     "first); an R with no read in flight is dropped"},
    {Rule::WriteAfterAwW, "axi.b_after_aw_w", "AMBA AXI, ARM IHI 0022E A3.3.1",
     "the slave raises BVALID only after the AW and W handshakes",
     "a B handshake at the same edge as the last AW/W handshake completes the write (the address and data "
     "handshakes count as first); a B with no write in flight is dropped"},
    {Rule::BurstType, "axi.burst_type", "AMBA AXI, ARM IHI 0022E A3.4.1", "AxBURST 0b11 is reserved", nullptr},
    {Rule::BurstSize, "axi.burst_size", "AMBA AXI, ARM IHI 0022E A3.4.1",
     "a beat (AxSIZE) is no wider than the data bus", nullptr},
    {Rule::Burst4k, "axi.burst_4k", "AMBA AXI, ARM IHI 0022E A3.4.1", "a burst does not cross a 4 KiB boundary",
     "the burst is issued as one transaction across the boundary"},
    {Rule::Wlast, "axi.wlast", kAxi, "WLAST is high on the last beat of a write burst (beat AWLEN + 1), and only there",
     "the burst ends after AWLEN + 1 beats whatever WLAST says"},
    {Rule::IncrOnly, "bridge.incr_only", "hetvp bridge limit (AXI also has FIXED and WRAP bursts)",
     "the AXI4 master bridge takes INCR bursts only", nullptr},
    {Rule::AlignedStart, "bridge.aligned_start", "hetvp bridge limit (AXI allows unaligned start addresses)",
     "a burst starts aligned to its beat size", nullptr},
    {Rule::ResponseTaken, "hetvp.response_taken", "hetvp (timeout_cycles)",
     "the block takes an R or B beat (RREADY, BREADY) within timeout_cycles", nullptr},
    {Rule::AccessAnswered, "hetvp.access_answered",
     "hetvp (timeout_cycles; neither AXI nor APB, ARM IHI 0024, bounds a slave's wait)",
     "a register access gets READY (PREADY) and its response within timeout_cycles", nullptr},
};

}  // namespace

const std::vector<RuleSpec>& rule_table() { return kRules; }

const RuleSpec& rule_spec(Rule r) { return kRules[unsigned(r)]; }

const RuleSpec* find_rule(const std::string& id) {
  for (const RuleSpec& s : kRules)
    if (id == s.id) return &s;
  return nullptr;
}

std::string relaxable_rule_ids() {
  std::string out;
  for (const RuleSpec& s : kRules)
    if (s.relaxed) out += (out.empty() ? "" : ", ") + std::string(s.id);
  return out;
}

std::string describe(Rule r) {
  const RuleSpec& s = rule_spec(r);
  return std::string("rule ") + s.id + " (" + s.source + ": " + s.text + ")";
}

}  // namespace hetvp::rtl
