// hetvp — SystemC wrapper around the Verilated range_inval_engine RTL.
#include "rtl/rtl_invalidation_engine.h"

#include "Vrange_inval_engine.h"
#include "rtl/bridges/protocol.h"

#include <sstream>
#include <stdexcept>

namespace hetvp::rtl {

using coherence::EngineParams;
using coherence::LineRange;

// The wrapper's own sc_module ("<name>"): holds the Verilated model ("<name>.dut") and the
// signals that connect it ("<name>.clk", ...). The first base holds the validated parameters so
// that bad parameters throw before any SystemC object exists.
struct ParamHolder {
  EngineParams p;
};

struct RtlInvalidationEngine::Impl : ParamHolder, sc_core::sc_module, RtlPorts {
  unsigned line_bits;
  sc_core::sc_time period, half;
  bool timed;
  bool was_reset = false;
  bool out_ready_val = true;                // value last written to out_ready
  std::unique_ptr<sc_core::sc_module> dut;  // after the signals (RtlPorts): destroyed first
  sc_core::sc_trace_file* tf = nullptr;
  // The generic parts (rtl/bridges/protocol.h): the output stream's handshake rules and the ring
  // buffer of the last cycles, written when a history fails (no done, a checker, lockstep).
  HandshakeChecker out_check;
  WaveRing ring{kRtlRingCycles};
  uint64_t ring_cycle = 0;  // engine cycles since construction (the ring's time axis)
  std::string ring_file;

  template <class T>
  // The signal's current value, read-only (tick() samples the ring when the inputs written for
  // this cycle are current and the outputs not yet updated by the edge).
  static Pin pin(const sc_core::sc_signal<T>& s) {
    return Pin{const_cast<T*>(&s.read()), uint8_t(sizeof(T))};
  }

  // Validates before any SystemC object is constructed.
  static const EngineParams& checked(const EngineParams& p, const char* name) {
    // (name is the sc_module_name being constructed)
    const unsigned lb = p.line_bits();  // validates the rest
    if (lb > kRtlAddrW || p.max_range > kRtlMaxLen || p.open_runs > kRtlRuns) {
      std::ostringstream os;
      os << "RtlInvalidationEngine '" << name << "': parameters exceed the Verilated RTL (line bits " << lb
         << " <= " << kRtlAddrW << ", max_range " << p.max_range << " <= " << kRtlMaxLen << ", open_runs "
         << p.open_runs << " <= " << kRtlRuns << ")";
      throw std::invalid_argument(os.str());
    }
    return p;
  }

  Impl(const EngineParams& ep, sc_core::sc_module_name name, const RtlDutFactory& make_dut)
      : ParamHolder{checked(ep, name)},
        sc_core::sc_module(name),
        line_bits(ep.line_bits()),
        timed(!ep.vcd_file.empty()),
        out_check("range engine out", pin(out_valid), pin(out_ready),
                  {{"out_first", pin(out_first)}, {"out_count", pin(out_count)}}) {
    ring_file = std::string(basename()) + "_last_cycles.vcd";
    const std::pair<const char*, Pin> traced[] = {{"clk", pin(clk)},
                                                  {"rst_n", pin(rst_n)},
                                                  {"in_valid", pin(in_valid)},
                                                  {"in_ready", pin(in_ready)},
                                                  {"in_line", pin(in_line)},
                                                  {"in_last", pin(in_last)},
                                                  {"in_empty", pin(in_empty)},
                                                  {"out_valid", pin(out_valid)},
                                                  {"out_ready", pin(out_ready)},
                                                  {"out_first", pin(out_first)},
                                                  {"out_count", pin(out_count)},
                                                  {"done", pin(done)}};
    for (auto& [nm, p] : traced) ring.add(nm, p, p.bytes == 1 ? 1 : 0);
    period = sc_core::sc_time(1.0 / p.clock_hz, sc_core::SC_SEC);
    half = period / 2;
    RtlPorts& ports = *this;
    dut = make_dut ? make_dut("dut", ports) : make_rtl_dut<Vrange_inval_engine>("dut", ports);
    cfg_runs.write(p.open_runs);
    cfg_max_len.write(p.max_range);
    out_ready.write(true);
    if (timed) {
      tf = sc_core::sc_create_vcd_trace_file(p.vcd_file.c_str());
      tf->set_time_unit(1, sc_core::SC_PS);
      sc_core::sc_trace(tf, clk, "clk");
      sc_core::sc_trace(tf, rst_n, "rst_n");
      sc_core::sc_trace(tf, in_valid, "in_valid");
      sc_core::sc_trace(tf, in_ready, "in_ready");
      sc_core::sc_trace(tf, in_line, "in_line");
      sc_core::sc_trace(tf, in_last, "in_last");
      sc_core::sc_trace(tf, in_empty, "in_empty");
      sc_core::sc_trace(tf, out_valid, "out_valid");
      sc_core::sc_trace(tf, out_ready, "out_ready");
      sc_core::sc_trace(tf, out_first, "out_first");
      sc_core::sc_trace(tf, out_count, "out_count");
      sc_core::sc_trace(tf, done, "done");
    }
  }
  ~Impl() { close_vcd(); }
  void close_vcd() {
    if (tf) sc_core::sc_close_vcd_trace_file(tf);
    tf = nullptr;
  }

  // One clock cycle: the inputs written before this call are sampled at the rising edge.
  // On return the RTL's registered outputs of the new cycle are readable.
  // Delta mode: clk rises in the same delta as the inputs change, 2 deltas per cycle, no time.
  // Timed mode (VCD): inputs change with the falling edge at t, clk rises at t+period/2, falls
  // again at t+period, where the new outputs are read — so the VCD looks like synchronous logic.
  // Writes the ring buffer; returns the text to append to an error message.
  std::string write_ring() {
    const uint64_t period_ps = uint64_t(1e12 / p.clock_hz + 0.5);
    if (!ring.write(ring_file, basename(),
                    "hetvp: last " + std::to_string(ring.kept()) + " cycles of the range engine " + name() +
                        " before the failure (time axis: engine cycles)",
                    period_ps ? period_ps : 1))
      return "";
    return "; last cycles in " + ring_file;
  }

  void tick() {
    if (timed) {
      sc_core::wait(half);
      ring.sample(++ring_cycle);
      clk.write(true);
      sc_core::wait(half);
      clk.write(false);
    } else {
      clk.write(true);
      sc_core::wait(sc_core::SC_ZERO_TIME);
      ring.sample(++ring_cycle);  // inputs current, the edge's outputs not yet
      clk.write(false);
      sc_core::wait(sc_core::SC_ZERO_TIME);
    }
  }
};

RtlInvalidationEngine::RtlInvalidationEngine(const EngineParams& p, const char* name, RtlDutFactory dut)
    : impl_(new Impl(p, name, dut)) {}  // const char* -> sc_module_name lives until Impl is built
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
  if (m.timed) {  // timed mode: synchronise, then spend real SystemC time
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  if (!m.was_reset) {
    m.rst_n.write(false);
    m.in_valid.write(false);
    for (int i = 0; i < 2; ++i) m.tick();
    m.rst_n.write(true);
    m.tick();
    stats_.reset_cycles += 3;
    m.was_reset = true;
  }

  const uint64_t n = lines.size();
  const uint64_t beats = n ? n : 1;
  std::vector<LineRange> out;
  uint64_t i = 0;  // next beat to present
  uint64_t cyc = 0;
  uint64_t last_accepted = n;  // input accepted at the previous edge (n = none / flush)
  uint64_t cur_pos = n;        // input_pos of the range in the output register
  bool prev_ov = false, prev_hs = false;
  const uint64_t bp = backpressure_;
  const uint64_t guard = beats + m.p.open_runs + 64 + 4 * beats + (bp ? 2 * (beats + m.p.open_runs) : 0);
  for (;;) {
    // registered outputs of this cycle (settled after the previous edge)
    const bool ov = m.out_valid.read();
    if (ov && (!prev_ov || prev_hs)) cur_pos = last_accepted;  // register (re)loaded at the last edge
    const bool ordy = !(bp && cyc % bp == bp - 1);
    if (ordy != m.out_ready_val) {  // test-only back-pressure: in_ready depends on out_ready
      m.out_ready.write(ordy);
      m.out_ready_val = ordy;
      sc_core::wait(sc_core::SC_ZERO_TIME);
      sc_core::wait(sc_core::SC_ZERO_TIME);
    }
    const bool hs = ov && ordy;
    if (hs) out.push_back(LineRange{m.out_first.read(), m.out_count.read(), cur_pos});
    if (m.done.read() && cyc > 0) break;
    const bool ready = m.in_ready.read();
    const bool valid = i < beats;
    if (valid) {
      m.in_valid.write(true);
      m.in_line.write(n ? lines[i] : 0);
      m.in_last.write(i + 1 == beats);
      m.in_empty.write(n == 0);
    } else {
      m.in_valid.write(false);
    }
    if (auto v = m.out_check.check()) {
      m.was_reset = false;
      std::ostringstream os;
      os << "RtlInvalidationEngine '" << m.name() << "': " << m.out_check.channel() << " channel: " << v->rule
         << ", out_first 0x" << std::hex << m.out_first.read() << std::dec << ", at " << sc_core::sc_time_stamp()
         << " (history cycle " << cyc << ")" << m.write_ring();
      throw std::runtime_error(os.str());
    }
    m.tick();
    ++cyc;
    prev_ov = ov;
    prev_hs = hs;
    if (valid && ready) {
      last_accepted = n ? i : 0;
      ++i;
    } else {
      last_accepted = n;
    }
    if (cyc > guard) {
      m.was_reset = false;  // reset again before the next history
      std::ostringstream os;
      os << "RtlInvalidationEngine: no 'done' after " << cyc << " cycles for a history of " << n << " lines (" << i
         << " accepted, " << out.size() << " ranges) at " << sc_core::sc_time_stamp() << m.write_ring();
      throw std::runtime_error(os.str());
    }
  }
  m.in_valid.write(false);
  stats_.cycles += cyc;
  stats_.histories += 1;
  stats_.inputs += n;
  stats_.ranges += out.size();
  if (!m.timed) delay += sc_core::sc_time(double(cyc) / m.p.clock_hz, sc_core::SC_SEC);
  return out;
}

std::unique_ptr<coherence::InvalidationEngine> make_rtl_engine(const EngineParams& p, const char* name) {
  return std::make_unique<RtlInvalidationEngine>(p, name);
}

}  // namespace hetvp::rtl

void hetvp::rtl::RtlInvalidationEngine::close_vcd() { impl_->close_vcd(); }
std::string hetvp::rtl::RtlInvalidationEngine::write_ring() { return impl_->write_ring(); }
void hetvp::rtl::RtlInvalidationEngine::set_ring_file(const std::string& path) { impl_->ring_file = path; }
