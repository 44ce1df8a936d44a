// hetvp — lockstep: runs the RTL and the TLM invalidation engines on the same history and
// compares their outputs range by range (docs/rtl.md "Lockstep").
#pragma once

#include "models/coherence/invalidation_engine.h"
#include "rtl/bridges/lockstep.h"
#include "rtl/rtl_invalidation_engine.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace hetvp::rtl {

// Thrown by LockstepInvalidationEngine::translate on the first mismatch (after recording it in
// its LockstepMonitor, which writes the RTL's ring buffer). what() starts with
// "hetvp/lockstep: " and names every field; the platform maps it to exit status 1.
class LockstepMismatch : public std::runtime_error {
 public:
  LockstepMismatch(uint64_t output_index, uint64_t input_pos, std::optional<coherence::LineRange> tlm,
                   std::optional<coherence::LineRange> rtl, sc_core::sc_time when, uint64_t history);
  uint64_t output_index;                         // index of the first differing output (0-based)
  uint64_t input_pos;                            // history position that caused it (RTL's, else TLM's)
  std::optional<coherence::LineRange> tlm, rtl;  // nullopt: that engine produced no such output
  sc_core::sc_time when;                         // sc_time_stamp() at the comparison
  uint64_t history;                              // 0-based number of the translate() call
};

// Thrown by LockstepInvalidationEngine::translate (timing policy error, the default) when both
// engines produced the same ranges for a history but the RTL took a different number of cycles
// than the TLM's cycle model. what() starts with "hetvp/lockstep: " and names every field.
class LockstepTimingMismatch : public std::runtime_error {
 public:
  LockstepTimingMismatch(uint64_t history, uint64_t lines, uint64_t ranges, uint64_t tlm_cycles, uint64_t rtl_cycles,
                         sc_core::sc_time when);
  uint64_t history;       // 0-based number of the translate() call
  uint64_t lines;         // history length (input beats; an empty history still takes one beat)
  uint64_t ranges;        // ranges produced (identical in both engines)
  uint64_t tlm_cycles;    // the TLM's cycle model for this history
  uint64_t rtl_cycles;    // cycles the RTL took for this history
  sc_core::sc_time when;  // sc_time_stamp() at the comparison
};

// What a cycle-count difference does (coherence::LockstepTiming, directory.lockstep_timing): error
// stops the run (LockstepTimingMismatch), warning reports it with SC_REPORT_WARNING (the first
// kMaxTimingWarnings histories; all are counted in stats().cycle_count_differences) and carries on
// with the RTL's ranges and time.
using coherence::LockstepTiming;
constexpr unsigned kMaxTimingWarnings = 10;

struct LockstepStats {
  uint64_t histories = 0;
  uint64_t ranges_compared = 0;
  uint64_t tlm_cycles = 0;
  uint64_t rtl_cycles = 0;
  uint64_t cycle_count_differences = 0;  // histories whose TLM cycle model != RTL cycles
};

// Construct during elaboration (it contains an RTL engine). The TLM engine gets the params as
// given (including EngineParams::test_fault_index); the RTL engine ignores test_fault_index.
// Time: the RTL's cycles are added to `delay`; the TLM's modelled cycles are compared with them
// per history (see LockstepTiming).
class LockstepInvalidationEngine final : public coherence::InvalidationEngine {
 public:
  explicit LockstepInvalidationEngine(const coherence::EngineParams& p, const char* name = "lockstep_inval_engine");
  // Test-only: the RTL side uses the Verilated model `dut` builds (e.g. a fault-injection variant
  // of range_inval_engine, tests/rtl); see RtlInvalidationEngine's constructor.
  LockstepInvalidationEngine(const coherence::EngineParams& p, const char* name, RtlDutFactory dut);
  ~LockstepInvalidationEngine() override;
  const char* kind() const override { return "lockstep"; }
  std::vector<coherence::LineRange> translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) override;
  uint64_t cycles() const override;
  const LockstepStats& stats() const { return stats_; }
  void set_timing(LockstepTiming t) { timing_ = t; }
  // Where the RTL side's ring buffer of the last cycles goes on a mismatch (RtlInvalidationEngine).
  void set_ring_file(const std::string& path) { rtl_->set_ring_file(path); }
  LockstepTiming timing() const { return timing_; }
  // The first divergence in the generic form every lockstep reports (rtl/bridges/lockstep.h):
  // block "range engine '<name>'", field "output" (index = output) or "history timing" (index = history).
  const LockstepMonitor& monitor() const { return monitor_; }

 private:
  std::unique_ptr<coherence::InvalidationEngine> tlm_;
  std::unique_ptr<RtlInvalidationEngine> rtl_;
  LockstepMonitor monitor_;
  LockstepStats stats_;
  LockstepTiming timing_;
};

std::unique_ptr<coherence::InvalidationEngine> make_lockstep_engine(const coherence::EngineParams& p,
                                                                    const char* name = "lockstep_inval_engine");

}  // namespace hetvp::rtl
