// hetvp — SystemC wrapper around the Verilated range_inval_engine RTL (docs/rtl.md).
#pragma once

#include "models/coherence/invalidation_engine.h"

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

// The signals between the wrapper and a Verilated range_inval_engine (sc_objects named
// "<wrapper>.clk", ... — they are constructed inside the wrapper's module).
struct RtlPorts {
  sc_core::sc_signal<bool> clk{"clk"}, rst_n{"rst_n"}, in_valid{"in_valid"}, in_ready{"in_ready"}, in_last{"in_last"},
      in_empty{"in_empty"}, out_valid{"out_valid"}, out_ready{"out_ready"}, done{"done"};
  sc_core::sc_signal<uint32_t> cfg_runs{"cfg_runs"}, cfg_max_len{"cfg_max_len"}, out_count{"out_count"};
  sc_core::sc_signal<uint64_t> in_line{"in_line"}, out_first{"out_first"};
};

// Builds the Verilated model named `name` and binds it to `ports`. Empty = the model linked into
// hetvp_lib (Vrange_inval_engine). Test-only variants (tests/rtl: the FAULT parameter) pass
// make_rtl_dut<TheirModel>. Every model must have the kRtl* capacity below.
using RtlDutFactory = std::function<std::unique_ptr<sc_core::sc_module>(const char* name, RtlPorts& ports)>;

template <class Dut>
std::unique_ptr<sc_core::sc_module> make_rtl_dut(const char* name, RtlPorts& s) {
  auto d = std::make_unique<Dut>(name);
  d->clk(s.clk);
  d->rst_n(s.rst_n);
  d->cfg_runs(s.cfg_runs);
  d->cfg_max_len(s.cfg_max_len);
  d->in_valid(s.in_valid);
  d->in_ready(s.in_ready);
  d->in_line(s.in_line);
  d->in_last(s.in_last);
  d->in_empty(s.in_empty);
  d->out_valid(s.out_valid);
  d->out_ready(s.out_ready);
  d->out_first(s.out_first);
  d->out_count(s.out_count);
  d->done(s.done);
  return d;
}

struct RtlStats {
  uint64_t cycles = 0;        // engine cycles spent on histories (what cycles() returns)
  uint64_t reset_cycles = 0;  // cycles spent in reset (not in cycles())
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
  explicit RtlInvalidationEngine(const coherence::EngineParams& p, const char* name = "rtl_inval_engine",
                                 RtlDutFactory dut = {});
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
  // The ring buffer of the last kRtlRingCycles cycles (every port) is written to this VCD file when
  // a history fails (default "<name>_last_cycles.vcd"); write_ring() writes it now (lockstep) and
  // returns "; last cycles in FILE" for the error message ("" if nothing was written).
  void set_ring_file(const std::string& path);
  std::string write_ring();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  RtlStats stats_;
  unsigned backpressure_ = 0;
};

std::unique_ptr<coherence::InvalidationEngine> make_rtl_engine(const coherence::EngineParams& p,
                                                               const char* name = "rtl_inval_engine");

}  // namespace hetvp::rtl
