// hetvp — the protocol rules the RTL bridges check, in one table (rules.cpp): each rule's id, its
// source (the section of the AMBA specification, or "hetvp" for a limit of the bridge or a
// time-out), what it says, and what the bridge does instead of stopping when a block's `relax:`
// list names it. The checkers' messages, the `relax:` parameter's doc and docs/rtl_blocks.md
// section 4 (checked by a test against this table) all come from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hetvp::rtl {

enum class Rule : unsigned {
  ValidHeld,       // axi.valid_held
  PayloadStable,   // axi.payload_stable
  ReadAfterAr,     // axi.r_after_ar
  WriteAfterAwW,   // axi.b_after_aw_w
  BurstType,       // axi.burst_type
  BurstSize,       // axi.burst_size
  Burst4k,         // axi.burst_4k
  Wlast,           // axi.wlast
  IncrOnly,        // bridge.incr_only
  AlignedStart,    // bridge.aligned_start
  ResponseTaken,   // hetvp.response_taken
  AccessAnswered,  // hetvp.access_answered
  kCount
};

struct RuleSpec {
  Rule rule;
  const char* id;       // what `relax:` and the messages name
  const char* source;   // "AMBA AXI, ARM IHI 0022E A3.2.1", or hetvp's own
  const char* text;     // what the rule says
  const char* relaxed;  // what the bridge does when the rule is relaxed; nullptr: not relaxable
};

const std::vector<RuleSpec>& rule_table();  // in Rule order
const RuleSpec& rule_spec(Rule r);
const RuleSpec* find_rule(const std::string& id);  // nullptr if no rule has that id
std::string relaxable_rule_ids();                  // "axi.valid_held, axi.payload_stable, ..."
// "rule ID (SOURCE: TEXT)", the head of every checker message.
std::string describe(Rule r);

// The rules one block relaxes (its `relax:` list) and how often each was broken.
class RelaxedRules {
 public:
  void relax(Rule r) { mask_ |= 1u << unsigned(r); }
  bool relaxed(Rule r) const { return (mask_ >> unsigned(r)) & 1; }
  // A relaxed rule was broken: true the first time (the caller warns once per rule).
  bool count(Rule r) { return counts_[unsigned(r)]++ == 0; }
  const uint64_t& breaks(Rule r) const { return counts_[unsigned(r)]; }
  bool any() const { return mask_ != 0; }

 private:
  unsigned mask_ = 0;
  uint64_t counts_[unsigned(Rule::kCount)] = {};
};

}  // namespace hetvp::rtl
