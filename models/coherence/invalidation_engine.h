// hetvp — invalidation engine of the CPU–GPU coherence directory (SPEC §7).
// Turns a recorded write history (cache-line numbers) into range invalidation requests.
// Exact semantics: docs/invalidation_engine.md. The RTL (rtl/range_inval_engine.sv) matches
// RangeBuilder bit for bit.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "platform/param_set.h"
#include "platform/registry.h"

namespace hetvp::coherence {

// One range request: lines [first, first+count). input_pos = index (into the history) of the
// input whose processing caused the emission; history size for the final flush.
struct LineRange {
  uint64_t first = 0;
  uint32_t count = 0;
  uint64_t input_pos = 0;
  bool operator==(const LineRange& o) const { return first == o.first && count == o.count && input_pos == o.input_pos; }
  bool operator!=(const LineRange& o) const { return !(*this == o); }
};
std::string to_string(const LineRange& r);

// What a lockstep engine does when the RTL's cycle count for a history differs from the TLM's
// cycle model: error stops the run, warning reports it and goes on (directory.lockstep_timing).
HETVP_ENUM(LockstepTiming, error, warning);

struct DirectoryConfig;

// What an engine runs with. The directory builds it from its parameters (DirectoryConfig, where
// each is declared once, default included); tests and benchmarks start from those defaults and
// change fields (addr_bits, or values the YAML's ranges refuse, to test validate()).
struct EngineParams {
  EngineParams();  // the declared defaults: DirectoryConfig's
  explicit EngineParams(const DirectoryConfig& c);

  unsigned line_bytes;      // power of two
  unsigned max_range;       // max lines per request (1 = per-line mode, the thesis' default)
  unsigned open_runs;       // run slots
  unsigned addr_bits = 48;  // physical address width; line numbers have addr_bits-log2(line_bytes) bits
  double clock_hz;          // engine clock (TLM cycle model and RTL clock period)
  // --- RTL wrapper only ---
  std::string vcd_file;  // non-empty: dump a VCD of the RTL's ports (sc_trace) to this file name
                         // (SystemC appends ".vcd"); the RTL then runs in timed mode (see docs/rtl.md)
  // --- lockstep only
  LockstepTiming lockstep_timing;
  // --- test-only perturbation (TLM engine): corrupt output number test_fault_index (0-based,
  //     counted over the engine's lifetime) by adding 1 to its count. -1 = off.
  long long test_fault_index;

  unsigned line_bits() const;  // addr_bits - log2(line_bytes); throws std::invalid_argument if bad
  void validate() const;       // throws std::invalid_argument naming the bad field
};

// The pure algorithm (no SystemC time). push() one line at a time, finish() at end of history.
// Emitted ranges accumulate in out(); take() moves them out.
class RangeBuilder {
 public:
  explicit RangeBuilder(const EngineParams& p);
  // Process one history line (its index in the history is `pos`). Returns the number of
  // ranges emitted by this input (0 or 1). Throws std::out_of_range if line >= 2^line_bits.
  unsigned push(uint64_t line, uint64_t pos);
  // End of history: emit all open runs, oldest first (input_pos = end_pos). Returns how many.
  unsigned finish(uint64_t end_pos);
  const std::vector<LineRange>& out() const { return out_; }
  std::vector<LineRange> take();
  unsigned open_count() const;

  // Convenience: translate a whole history.
  static std::vector<LineRange> run(const EngineParams& p, const std::vector<uint64_t>& lines);

 private:
  struct Slot {
    bool valid = false;
    uint64_t first = 0;
    uint32_t count = 0;
    unsigned rank = 0;  // age rank among valid slots: 0 = oldest (opened earliest)
  };
  void emit_slot(unsigned s, uint64_t pos);   // emit + free slot s, re-rank the others
  void open_slot(unsigned s, uint64_t line);  // open (line,1) in free slot s as the youngest run
  unsigned max_range_;
  uint64_t line_limit_;  // 2^line_bits
  std::vector<Slot> slots_;
  std::vector<LineRange> out_;
};

class InvalidationEngine {
 public:
  virtual ~InvalidationEngine() = default;
  virtual const char* kind() const = 0;
  // Turns one history into range requests, in emission order. Called from an SC_THREAD (the RTL
  // engine runs its clock in delta cycles, i.e. it needs a SystemC process context but does not
  // advance SystemC time itself). Adds the engine's processing time to `delay`.
  virtual std::vector<LineRange> translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) = 0;
  virtual uint64_t cycles() const = 0;  // engine cycles consumed so far (stats)
};

// The cycle count the TLM engine models for one history (equals the RTL's count with the
// consumer always ready): max(n,1) + R + 1, where n = history length and R = ranges emitted
// by the final flush. See docs/invalidation_engine.md "Timing".
uint64_t tlm_cycles_for(uint64_t history_size, uint64_t flush_emissions);

std::unique_ptr<InvalidationEngine> make_tlm_engine(const EngineParams&);

// Engine implementations by name: the vocabulary of platform/implementation.h (tlm | rtl |
// lockstep). The TLM engine registers itself in invalidation_engine.cpp; rtl/ registers the
// Verilated engine and the lockstep pair the same way, so models/ knows nothing of rtl/.
//   HETVP_REGISTER_INVALIDATION_ENGINE("rtl", "Verilated range_inval_engine", make_rtl_engine);
// `create(params, name)` may construct an sc_module called `name` (call during elaboration).
struct InvalidationEngineType {
  static constexpr const char* kKind = "invalidation engine";
  std::string name;
  std::string doc;
  std::function<std::unique_ptr<InvalidationEngine>(const EngineParams&, const char* name)> create;
};
using InvalidationEngineRegistry = Registry<InvalidationEngineType>;

// The YAML's choice: kind "tlm" | "rtl" | "lockstep", looked up in the registry. Throws
// std::invalid_argument for an unknown kind, or for rtl/lockstep when hetvp was built without
// Verilator (nothing registered them).
std::unique_ptr<InvalidationEngine> make_invalidation_engine(const std::string& kind, const EngineParams& p,
                                                             const char* name = "inval_engine");

}  // namespace hetvp::coherence

#define HETVP_REGISTER_INVALIDATION_ENGINE(NAME, DOC, FACTORY) \
  HETVP_REGISTER_ENTRY(::hetvp::coherence::InvalidationEngineType, NAME, DOC, FACTORY)
