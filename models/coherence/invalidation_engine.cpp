// hetvp — invalidation engine: RangeBuilder (pure algorithm) and the TLM engine.
#include "models/coherence/invalidation_engine.h"

#include <algorithm>
#include <sstream>

#include "models/coherence/directory.h"
#include "platform/implementation.h"

namespace hetvp::coherence {

std::string to_string(const LineRange& r) {
  std::ostringstream os;
  os << "{first=0x" << std::hex << r.first << std::dec << ", count=" << r.count << ", input_pos=" << r.input_pos << "}";
  return os.str();
}

EngineParams::EngineParams() : EngineParams(DirectoryConfig{}) {}

EngineParams::EngineParams(const DirectoryConfig& c)
    : line_bytes(c.line),
      max_range(c.mode == InvalidationMode::per_line ? 1 : c.max_range()),
      open_runs(c.open_runs),
      clock_hz(c.engine_clock),
      vcd_file(c.vcd),
      lockstep_timing(c.lockstep_timing),
      test_fault_index(c.test_fault_index) {}

static bool is_pow2(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }

unsigned EngineParams::line_bits() const {
  validate();
  unsigned lb = 0;
  while ((1u << lb) < line_bytes) ++lb;
  return addr_bits - lb;
}

void EngineParams::validate() const {
  if (!is_pow2(line_bytes))
    throw std::invalid_argument("EngineParams.line_bytes must be a power of two, got " + std::to_string(line_bytes));
  unsigned lb = 0;
  while ((1u << lb) < line_bytes) ++lb;
  if (addr_bits > 64 || addr_bits <= lb)
    throw std::invalid_argument("EngineParams.addr_bits must be in (log2(line_bytes), 64], got " +
                                std::to_string(addr_bits));
  if (addr_bits - lb > 62)
    throw std::invalid_argument("EngineParams: line-number width above 62 bits is not supported");
  if (max_range == 0 || max_range > (1u << 24))
    throw std::invalid_argument("EngineParams.max_range must be in [1, 2^24], got " + std::to_string(max_range));
  if (open_runs == 0 || open_runs > 64)
    throw std::invalid_argument("EngineParams.open_runs must be in [1, 64], got " + std::to_string(open_runs));
  if (!(clock_hz > 0)) throw std::invalid_argument("EngineParams.clock_hz must be > 0");
}

// ---------------------------------------------------------------------------------------------
RangeBuilder::RangeBuilder(const EngineParams& p)
    : max_range_(p.max_range), line_limit_(uint64_t(1) << p.line_bits()), slots_(p.open_runs) {}

unsigned RangeBuilder::open_count() const {
  unsigned n = 0;
  for (const auto& s : slots_) n += s.valid;
  return n;
}

void RangeBuilder::emit_slot(unsigned s, uint64_t pos) {
  Slot& e = slots_[s];
  out_.push_back(LineRange{e.first, e.count, pos});
  for (auto& o : slots_)
    if (o.valid && o.rank > e.rank) --o.rank;
  e.valid = false;
}

void RangeBuilder::open_slot(unsigned s, uint64_t line) {
  unsigned n = open_count();  // slot s is free here, so n = other open runs
  Slot& e = slots_[s];
  e.valid = true;
  e.first = line;
  e.count = 1;
  e.rank = n;  // youngest
}

unsigned RangeBuilder::push(uint64_t a, uint64_t pos) {
  if (a >= line_limit_) {
    std::ostringstream os;
    os << "RangeBuilder: line number 0x" << std::hex << a << " at history position " << std::dec << pos
       << " exceeds the line-number space (limit 0x" << std::hex << line_limit_ << ")";
    throw std::out_of_range(os.str());
  }
  const unsigned n = unsigned(slots_.size());
  // Runs never overlap (a new or grown line is never inside another run), so at most one slot
  // matches each test below; no tie rules are needed for rules 1-3.
  for (unsigned s = 0; s < n; ++s) {  // rule 1: duplicate
    const Slot& e = slots_[s];
    if (e.valid && a >= e.first && a < e.first + e.count) return 0;
  }
  for (unsigned s = 0; s < n; ++s) {  // rules 2/3: extends a run (end computed without wrap)
    Slot& e = slots_[s];
    if (e.valid && e.first + e.count == a) {
      if (e.count < max_range_) {
        ++e.count;  // rule 2: grow; keeps its age
        return 0;
      }
      emit_slot(s, pos);  // rule 3: full -> emit, reuse the slot for (a,1), youngest
      open_slot(s, a);
      return 1;
    }
  }
  for (unsigned s = 0; s < n; ++s) {  // rule 4a: lowest-numbered free slot
    if (!slots_[s].valid) {
      open_slot(s, a);
      return 0;
    }
  }
  for (unsigned s = 0; s < n; ++s) {  // rule 4b: evict the oldest (rank 0)
    if (slots_[s].rank == 0) {
      emit_slot(s, pos);
      open_slot(s, a);
      return 1;
    }
  }
  throw std::logic_error("RangeBuilder: no oldest run (internal error)");
}

unsigned RangeBuilder::finish(uint64_t end_pos) {
  unsigned k = 0;
  for (;;) {
    unsigned s = 0, n = unsigned(slots_.size());
    for (; s < n; ++s)
      if (slots_[s].valid && slots_[s].rank == 0) break;
    if (s == n) break;
    emit_slot(s, end_pos);
    ++k;
  }
  return k;
}

std::vector<LineRange> RangeBuilder::take() {
  std::vector<LineRange> r;
  r.swap(out_);
  return r;
}

std::vector<LineRange> RangeBuilder::run(const EngineParams& p, const std::vector<uint64_t>& lines) {
  RangeBuilder b(p);
  for (uint64_t i = 0; i < lines.size(); ++i) b.push(lines[i], i);
  b.finish(lines.size());
  return b.take();
}

uint64_t tlm_cycles_for(uint64_t history_size, uint64_t flush_emissions) {
  return (history_size ? history_size : 1) + flush_emissions + 1;
}

// ---------------------------------------------------------------------------------------------
namespace {
class TlmInvalidationEngine final : public InvalidationEngine {
 public:
  explicit TlmInvalidationEngine(const EngineParams& p) : p_(p) { p_.validate(); }
  const char* kind() const override { return "tlm"; }
  std::vector<LineRange> translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) override {
    RangeBuilder b(p_);
    for (uint64_t i = 0; i < lines.size(); ++i) b.push(lines[i], i);
    const unsigned flushed = b.finish(lines.size());
    std::vector<LineRange> out = b.take();
    for (auto& r : out) {
      if (p_.test_fault_index >= 0 && emitted_ == uint64_t(p_.test_fault_index)) r.count += 1;
      ++emitted_;
    }
    const uint64_t c = tlm_cycles_for(lines.size(), flushed);
    cycles_ += c;
    delay += sc_core::sc_time(double(c) / p_.clock_hz, sc_core::SC_SEC);
    return out;
  }
  uint64_t cycles() const override { return cycles_; }

 private:
  EngineParams p_;
  uint64_t cycles_ = 0;
  uint64_t emitted_ = 0;
};
}  // namespace

std::unique_ptr<InvalidationEngine> make_tlm_engine(const EngineParams& p) {
  return std::make_unique<TlmInvalidationEngine>(p);
}

HETVP_REGISTER_INVALIDATION_ENGINE("tlm", "the C++ engine (RangeBuilder with its cycle model)",
                                   [](const EngineParams& p, const char*) { return make_tlm_engine(p); });

std::unique_ptr<InvalidationEngine> make_invalidation_engine(const std::string& kind, const EngineParams& p,
                                                             const char* name) {
  if (const InvalidationEngineType* t = InvalidationEngineRegistry::get().find(kind)) return t->create(p, name);
  const auto& known = implementation_names();
  if (std::find(known.begin(), known.end(), kind) != known.end())  // rtl/ registers rtl and lockstep
    throw std::invalid_argument("invalidation engine '" + kind + "': hetvp was built without Verilator");
  throw std::invalid_argument("unknown invalidation engine kind '" + kind + "' (expected " +
                              implementation_names_text() + ")");
}

}  // namespace hetvp::coherence
