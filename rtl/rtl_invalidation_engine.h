// hetvp — SystemC wrapper around the Verilated range_inval_engine RTL (docs/rtl.md).
#pragma once

#include "models/coherence/invalidation_engine.h"

#include <memory>

namespace hetvp::rtl {

// Capacity of the Verilated model linked into hetvp_lib (the RTL's parameters at verilation time).
// EngineParams must satisfy line_bits() <= kRtlAddrW, max_range <= kRtlMaxLen, open_runs <= kRtlRuns;
// the wrapper programs cfg_max_len / cfg_runs from EngineParams.
constexpr unsigned kRtlAddrW = 62;
constexpr unsigned kRtlMaxLen = 65536;
constexpr unsigned kRtlRuns = 8;

struct RtlStats {
  uint64_t cycles = 0;          // engine cycles spent on histories (what cycles() returns)
  uint64_t reset_cycles = 0;    // cycles spent in reset (not in cycles())
  uint64_t histories = 0;
  uint64_t inputs = 0;
  uint64_t ranges = 0;
};

// Construct during elaboration (before the first sc_start): it instantiates a Verilated
// sc_module and its signals. translate() must be called from an SC_THREAD.
// Clocking: the wrapper's calling thread toggles the RTL clock signal only while a history is
// being translated, in delta cycles (2 deltas per clock cycle, no SystemC time passes); the time
// the RTL took (cycles / clock_hz) is added to the caller's `delay`. An idle engine costs nothing.
// With EngineParams::vcd_file set, the engine runs in timed mode instead: it first waits out
// `delay` (sets it to zero), then each clock half-period is a real wait(), so the VCD shows the
// handshakes on a time axis; simulated end time is identical.
class RtlInvalidationEngine final : public coherence::InvalidationEngine {
 public:
  explicit RtlInvalidationEngine(const coherence::EngineParams& p, const char* name = "rtl_inval_engine");
  ~RtlInvalidationEngine() override;
  const char* kind() const override { return "rtl"; }
  std::vector<coherence::LineRange> translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) override;
  uint64_t cycles() const override { return stats_.cycles; }
  const RtlStats& stats() const { return stats_; }
  // Test-only: hold out_ready low in every `period`-th cycle (0 = never, the default) to exercise
  // the RTL's back-pressure path. Outputs must not change; cycles then exceed the TLM model.
  void set_test_backpressure(unsigned period) { backpressure_ = period; }
  // Completes the VCD file now (SystemC buffers it until the trace file is closed); cycles after
  // this are not traced. Called at the end of a run; no effect without a VCD.
  void close_vcd();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  RtlStats stats_;
  unsigned backpressure_ = 0;
};

std::unique_ptr<coherence::InvalidationEngine> make_rtl_engine(const coherence::EngineParams& p,
                                                               const char* name = "rtl_inval_engine");

}  // namespace hetvp::rtl
