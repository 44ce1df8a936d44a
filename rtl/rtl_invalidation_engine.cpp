// hetvp — the Verilated range_inval_engine behind the generic stream bridge.
// The Verilated model first: verilated.h would take its SystemC path after <systemc>.
#include "Vrange_inval_engine.h"
#include "rtl/range_engine_dut.h"

#include "rtl/bridges/stream_bridge.h"
#include "rtl/rtl_invalidation_engine.h"

#include <sstream>
#include <stdexcept>

namespace hetvp::rtl {

using coherence::EngineParams;
using coherence::LineRange;

namespace {

// Validates before anything is constructed.
const EngineParams& checked(const EngineParams& p, const char* name) {
  const unsigned lb = p.line_bits();  // validates the rest
  if (lb > kRtlAddrW || p.max_range > kRtlMaxLen || p.open_runs > kRtlRuns) {
    std::ostringstream os;
    os << "RtlInvalidationEngine '" << name << "': parameters exceed the Verilated RTL (line bits " << lb
       << " <= " << kRtlAddrW << ", max_range " << p.max_range << " <= " << kRtlMaxLen << ", open_runs " << p.open_runs
       << " <= " << kRtlRuns << ")";
    throw std::invalid_argument(os.str());
  }
  return p;
}

// Gives the engine its place (and full name) in the SystemC hierarchy, as the module it was.
struct Named : sc_core::sc_object {
  explicit Named(const char* n) : sc_core::sc_object(n) {}
  const char* kind() const override { return "hetvp_rtl_engine"; }
};

StreamOptions options(const EngineParams& p, const Named& obj) {
  StreamOptions o;
  o.block = std::string("RtlInvalidationEngine '") + obj.name() + "'";
  o.scope = obj.basename();
  o.clock.period_ps = uint64_t(1e12 / p.clock_hz + 0.5);
  if (!o.clock.period_ps) o.clock.period_ps = 1;
  o.reset_low = 2;  // the first translate(): rst_n low for 2 cycles, high for 1
  o.reset_high = 1;
  o.ring_cycles = kRtlRingCycles;
  o.ring_file = std::string(obj.basename()) + "_last_cycles.vcd";
  if (!p.vcd_file.empty()) o.waves = p.vcd_file + ".vcd";
  return o;
}

}  // namespace

struct RtlInvalidationEngine::Impl {
  EngineParams p;
  Named obj;
  unsigned line_bits;
  std::unique_ptr<RangeEngineModel> dut;  // before the bridge, which refers to it
  RangeEnginePins& s;
  StreamBridge bridge;
  Clock clock;

  Impl(const EngineParams& ep, const char* name, const RtlDutFactory& make_dut)
      : p(checked(ep, name)),
        obj(name),
        line_bits(ep.line_bits()),
        dut(make_dut ? make_dut(obj.name()) : make_rtl_dut<Vrange_inval_engine>(obj.name())),
        s(dut->pins),
        bridge(*dut,
               {"in",
                {"in_valid", s.in_valid, 1},
                {"in_ready", s.in_ready, 1},
                {{"in_line", s.in_line, 0}, {"in_last", s.in_last, 1}, {"in_empty", s.in_empty, 1}}},
               {"range engine out",
                {"out_valid", s.out_valid, 1},
                {"out_ready", s.out_ready, 1},
                {{"out_first", s.out_first, 0}, {"out_count", s.out_count, 0}}},
               {"done", s.done, 1}, options(ep, obj)) {
    clock = options(ep, obj).clock;
    s.cfg_runs.set(p.open_runs);
    s.cfg_max_len.set(p.max_range);
  }
};

RtlInvalidationEngine::RtlInvalidationEngine(const EngineParams& p, const char* name, RtlDutFactory dut)
    : impl_(new Impl(p, name, dut)) {}
RtlInvalidationEngine::~RtlInvalidationEngine() = default;

std::vector<LineRange> RtlInvalidationEngine::translate(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) {
  Impl& m = *impl_;
  sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
  if (!h.valid() || h.proc_kind() != sc_core::SC_THREAD_PROC_)
    throw std::logic_error("RtlInvalidationEngine::translate must be called from an SC_THREAD");
  const uint64_t limit = uint64_t(1) << m.line_bits;
  for (uint64_t i = 0; i < lines.size(); ++i) {
    if (lines[i] >= limit) {
      std::ostringstream os;
      os << "RtlInvalidationEngine: line number 0x" << std::hex << lines[i] << " at history position " << std::dec << i
         << " exceeds the line-number space (limit 0x" << std::hex << limit << ")";
      throw std::out_of_range(os.str());
    }
  }
  const bool waves = !m.p.vcd_file.empty();
  if (waves) {  // the waveform's time axis is simulated time: synchronise first
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    m.bridge.set_time(Clock::ps(sc_core::sc_time_stamp()));
  }
  const uint64_t reset0 = m.bridge.counters().reset_cycles;

  // One beat per line; the empty history is one beat that carries no line (in_empty).
  const uint64_t n = lines.size();
  const uint64_t beats = n ? n : 1;
  std::vector<LineRange> out;
  RangeEnginePins& s = m.s;
  auto drive = [&](uint64_t i) {
    s.in_line.set(n ? lines[i] : 0);
    s.in_last.set(i + 1 == beats);
    s.in_empty.set(n == 0);
  };
  // A range's input_pos is the beat accepted at the edge that loaded the output register (none:
  // the flush, position n).
  auto take = [&](const StreamBridge::OutBeat& b) {
    const uint64_t pos = b.cause == StreamBridge::kNone ? n : b.cause;
    out.push_back(LineRange{s.out_first.get(), uint32_t(s.out_count.get()), pos});
  };
  const uint64_t timeout = beats + m.p.open_runs + 64 + 4 * beats + (backpressure_ ? 2 * (beats + m.p.open_runs) : 0);
  const uint64_t cyc = m.bridge.transfer(beats, drive, take, timeout);

  stats_.cycles += cyc;
  stats_.reset_cycles = m.bridge.counters().reset_cycles;
  stats_.histories += 1;
  stats_.inputs += n;
  stats_.ranges += out.size();
  if (waves)
    sc_core::wait(m.clock.at(m.bridge.counters().reset_cycles - reset0 + cyc));  // reset and history
  else  // the TLM engine's formula, so that both give the same time at any clock
    delay += sc_core::sc_time(double(cyc) / m.p.clock_hz, sc_core::SC_SEC);
  return out;
}

void RtlInvalidationEngine::set_test_backpressure(unsigned period) {
  backpressure_ = period;
  impl_->bridge.set_test_backpressure(period);
}
std::string RtlInvalidationEngine::full_name() const { return impl_->obj.name(); }
void RtlInvalidationEngine::close_vcd() { impl_->bridge.close_waves(); }
std::string RtlInvalidationEngine::write_ring() { return impl_->bridge.write_ring(); }
void RtlInvalidationEngine::set_ring_file(const std::string& path) { impl_->bridge.set_ring_file(path); }

std::unique_ptr<coherence::InvalidationEngine> make_rtl_engine(const EngineParams& p, const char* name) {
  return std::make_unique<RtlInvalidationEngine>(p, name);
}

// directory.engine: rtl (models/coherence/invalidation_engine.h).
HETVP_REGISTER_INVALIDATION_ENGINE("rtl", "the Verilated range_inval_engine behind the stream bridge", make_rtl_engine);

}  // namespace hetvp::rtl
