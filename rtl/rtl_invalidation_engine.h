// hetvp — the range-invalidation engine as RTL: the Verilated range_inval_engine (C++ model)
// behind the generic stream bridge (rtl/bridges/stream_bridge.h); docs/rtl.md.
#pragma once

#include "models/coherence/invalidation_engine.h"
#include "rtl/bridges/verilated_block.h"

#include <functional>
#include <memory>

namespace hetvp::rtl {

// Capacity of the Verilated model linked into hetvp_lib (the RTL's parameters at verilation time).
// EngineParams must satisfy line_bits() <= kRtlAddrW, max_range <= kRtlMaxLen, open_runs <= kRtlRuns;
// the wrapper programs cfg_max_len / cfg_runs from EngineParams.
constexpr unsigned kRtlAddrW = 62;
constexpr unsigned kRtlMaxLen = 65536;
constexpr unsigned kRtlRuns = 8;
// Cycles kept in the ring buffer written when a history fails (rtl/bridges/protocol.h).
constexpr unsigned kRtlRingCycles = 256;

// The ports of a Verilated range_inval_engine (C++ model, evaluated directly through Pins).
struct RangeEnginePins {
  Pin cfg_max_len, cfg_runs, in_valid, in_ready, in_line, in_last, in_empty, out_valid, out_ready, out_first, out_count,
      done;
};
class RangeEngineModel : public VerilatedBlock {
 public:
  RangeEnginePins pins;
};

// Builds the Verilated model instance `name`. Empty = the model linked into hetvp_lib
// (Vrange_inval_engine). Test-only variants (tests/rtl: the FAULT parameter) pass
// make_rtl_dut<TheirModel> (rtl/range_engine_dut.h).
// Every model must have the kRtl* capacity above.
using RtlDutFactory = std::function<std::unique_ptr<RangeEngineModel>(const char* name)>;

struct RtlStats {
  uint64_t cycles = 0;        // engine cycles spent on histories (what cycles() returns)
  uint64_t reset_cycles = 0;  // cycles spent in reset (not in cycles())
  uint64_t histories = 0;
  uint64_t inputs = 0;
  uint64_t ranges = 0;
};

// translate() must be called from an SC_THREAD.
// Clocking: translate() runs the engine's clock only while a history is being translated, cycle
// by cycle with no SystemC wait; the time the RTL took (cycles / clock_hz, as the TLM engine) is
// added to the caller's `delay`. An idle engine costs nothing.
// With EngineParams::vcd_file set, the full waveform goes to "<vcd_file>.vcd" and the engine
// synchronises: it first waits out `delay` (sets it to zero), then the cycles' time, so the VCD's
// time axis is simulated time (the reset's cycles take time too, as before).
class RtlInvalidationEngine final : public coherence::InvalidationEngine {
 public:
  explicit RtlInvalidationEngine(const coherence::EngineParams& p, const char* name = "rtl_inval_engine",
                                 RtlDutFactory dut = {});
  ~RtlInvalidationEngine() override;
  const char* kind() const override { return "rtl"; }
  std::vector<coherence::LineRange> translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) override;
  uint64_t cycles() const override { return stats_.cycles; }
  const RtlStats& stats() const { return stats_; }
  // Test-only: hold out_ready low in every `period`-th cycle (0 = never, the default) to exercise
  // the RTL's back-pressure path. Outputs must not change; cycles then exceed the TLM model.
  void set_test_backpressure(unsigned period);
  // Completes the VCD file now (else when the engine is destroyed); cycles after this are not
  // traced. No effect without a VCD.
  void close_vcd();
  // The ring buffer of the last kRtlRingCycles cycles (every port) is written to this VCD file when
  // a history fails (default "<name>_last_cycles.vcd"); write_ring() writes it now (lockstep) and
  // returns "; last cycles in FILE" for the error message ("" if nothing was written).
  void set_ring_file(const std::string& path);
  std::string write_ring();
  // The engine's name in the SystemC hierarchy (e.g. "directory.inval_engine").
  std::string full_name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  RtlStats stats_;
  unsigned backpressure_ = 0;
};

std::unique_ptr<coherence::InvalidationEngine> make_rtl_engine(const coherence::EngineParams& p,
                                                               const char* name = "rtl_inval_engine");

}  // namespace hetvp::rtl
