// hetvp — what every lockstep of an RTL block against its TLM reference shares (the component
// `rtl.<name>` with `mode: lockstep`, rtl/bridges/rtl_component.cpp; the range engine's
// LockstepInvalidationEngine, rtl/lockstep_invalidation_engine.h): the first divergence, named by
// block, field, index and simulated time, and the RTL's ring buffer of its last cycles, written
// once, when it is found. What is compared, and how a divergence stops the run, stays with each
// user (a failed run, or a typed exception).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <systemc>

namespace hetvp::rtl {

struct Divergence {
  std::string block;      // "rtl.crc32 'crc0'", "range engine 'directory.inval_engine'"
  std::string field;      // what differs: "register read", "memory write", "output", "timing", ...
  uint64_t index = 0;     // which one of that field, in order (0-based)
  std::string detail;     // both sides
  sc_core::sc_time when;  // sc_time_stamp() when it was found
  // "hetvp/lockstep: <block>: first divergence: <field> <index>: <detail>, at <when>"
  std::string report() const;
};

class LockstepMonitor {
 public:
  // write_ring writes the RTL's ring buffer and returns "; last cycles in FILE" or "".
  explicit LockstepMonitor(std::string block, std::function<std::string()> write_ring = {})
      : block_(std::move(block)), write_ring_(std::move(write_ring)) {}
  // Records the first divergence (now) and writes the ring buffer. False, and nothing recorded,
  // if a divergence was recorded before: only the first one is reported.
  bool diverge(const std::string& field, uint64_t index, const std::string& detail);
  bool failed() const { return first_.has_value(); }
  const Divergence& first() const { return *first_; }          // only when failed()
  const std::string& ring_note() const { return ring_note_; }  // what write_ring returned

 private:
  std::string block_;
  std::function<std::string()> write_ring_;
  std::optional<Divergence> first_;
  std::string ring_note_;
};

}  // namespace hetvp::rtl
