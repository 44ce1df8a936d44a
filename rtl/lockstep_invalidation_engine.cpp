// hetvp — lockstep invalidation engine (RTL vs TLM).
#include "rtl/lockstep_invalidation_engine.h"

#include "rtl/rtl_invalidation_engine.h"

#include <algorithm>
#include <sstream>

namespace hetvp::rtl {

using coherence::EngineParams;
using coherence::LineRange;

static std::string opt_str(const std::optional<LineRange>& r) {
  return r ? coherence::to_string(*r) : std::string("<none>");
}

static std::string mismatch_message(uint64_t idx, uint64_t pos, const std::optional<LineRange>& tlm,
                                    const std::optional<LineRange>& rtl, const sc_core::sc_time& when,
                                    uint64_t history) {
  std::ostringstream os;
  os << "hetvp/lockstep: RTL and TLM invalidation engines differ at output #" << idx << " (input position " << pos
     << ", history #" << history << ", time " << when << "): tlm=" << opt_str(tlm) << " rtl=" << opt_str(rtl);
  return os.str();
}

LockstepMismatch::LockstepMismatch(uint64_t idx, uint64_t pos, std::optional<LineRange> t, std::optional<LineRange> r,
                                   sc_core::sc_time w, uint64_t h)
    : std::runtime_error(mismatch_message(idx, pos, t, r, w, h)),
      output_index(idx),
      input_pos(pos),
      tlm(t),
      rtl(r),
      when(w),
      history(h) {}

static std::string timing_message(uint64_t h, uint64_t lines, uint64_t ranges, uint64_t tc, uint64_t rc,
                                  const sc_core::sc_time& when) {
  std::ostringstream os;
  os << "hetvp/lockstep: RTL and TLM invalidation engines differ in timing at history #" << h << " (" << lines
     << " lines, " << ranges << " identical ranges, time " << when << "): tlm=" << tc << " cycles rtl=" << rc
     << " cycles (" << (rc > tc ? "+" : "-") << (rc > tc ? rc - tc : tc - rc) << ")";
  return os.str();
}

LockstepTimingMismatch::LockstepTimingMismatch(uint64_t h, uint64_t n, uint64_t r, uint64_t tc, uint64_t rc,
                                               sc_core::sc_time w)
    : std::runtime_error(timing_message(h, n, r, tc, rc, w)),
      history(h),
      lines(n),
      ranges(r),
      tlm_cycles(tc),
      rtl_cycles(rc),
      when(w) {}

LockstepInvalidationEngine::LockstepInvalidationEngine(const EngineParams& p, const char* name)
    : LockstepInvalidationEngine(p, name, RtlDutFactory{}) {}

namespace {
EngineParams without_fault(EngineParams p) {
  p.test_fault_index = -1;
  return p;
}
}  // namespace

LockstepInvalidationEngine::LockstepInvalidationEngine(const EngineParams& p, const char* name, RtlDutFactory dut)
    : tlm_(coherence::make_tlm_engine(p)),
      rtl_(std::make_unique<RtlInvalidationEngine>(without_fault(p), name, std::move(dut))),
      monitor_("range engine '" + rtl_->full_name() + "'", [this] { return rtl_->write_ring(); }),
      timing_(p.lockstep_timing) {}
LockstepInvalidationEngine::~LockstepInvalidationEngine() = default;

uint64_t LockstepInvalidationEngine::cycles() const { return rtl_->cycles(); }

std::vector<LineRange> LockstepInvalidationEngine::translate(const std::vector<uint64_t>& lines,
                                                             sc_core::sc_time& delay) {
  sc_core::sc_time tlm_delay = sc_core::SC_ZERO_TIME;
  const uint64_t t0 = tlm_->cycles(), r0 = rtl_->cycles();
  std::vector<LineRange> t = tlm_->translate(lines, tlm_delay);
  std::vector<LineRange> r = rtl_->translate(lines, delay);
  const uint64_t h = stats_.histories++;
  const uint64_t tc = tlm_->cycles() - t0, rc = rtl_->cycles() - r0;
  stats_.tlm_cycles += tc;
  stats_.rtl_cycles += rc;
  const size_t n = std::max(t.size(), r.size());
  for (size_t i = 0; i < n; ++i) {
    std::optional<LineRange> ti, ri;
    if (i < t.size()) ti = t[i];
    if (i < r.size()) ri = r[i];
    if (ti != ri) {
      const uint64_t pos = ri ? ri->input_pos : ti->input_pos;
      LockstepMismatch m(i, pos, ti, ri, sc_core::sc_time_stamp(), h);
      monitor_.diverge("output", i,
                       "input position " + std::to_string(pos) + ", history #" + std::to_string(h) +
                           ": tlm=" + opt_str(ti) + " rtl=" + opt_str(ri));  // writes the last cycles, as a VCD
      throw m;
    }
    ++stats_.ranges_compared;
  }
  // Same ranges; now the time. The TLM's cycle model and the RTL must agree cycle for cycle
  // (docs/rtl.md: max(n,1) + R_flush + 1 per history); a difference is a bug in one of them.
  if (tc != rc) {
    const uint64_t k = stats_.cycle_count_differences++;
    if (timing_ == LockstepTiming::error) {
      LockstepTimingMismatch m(h, lines.size(), r.size(), tc, rc, sc_core::sc_time_stamp());
      monitor_.diverge("history timing", h,
                       std::to_string(lines.size()) + " lines, " + std::to_string(r.size()) +
                           " identical ranges: tlm=" + std::to_string(tc) + " cycles rtl=" + std::to_string(rc) +
                           " cycles");  // writes the last cycles, as a VCD
      throw m;
    }
    if (k < kMaxTimingWarnings) {
      std::string msg = timing_message(h, lines.size(), r.size(), tc, rc, sc_core::sc_time_stamp());
      if (k + 1 == kMaxTimingWarnings) msg += " (further timing differences are only counted)";
      SC_REPORT_WARNING("hetvp/lockstep", msg.c_str() + std::string("hetvp/lockstep: ").size());
    }
  }
  return r;
}

std::unique_ptr<coherence::InvalidationEngine> make_lockstep_engine(const EngineParams& p, const char* name) {
  return std::make_unique<LockstepInvalidationEngine>(p, name);
}

// directory.engine: lockstep (models/coherence/invalidation_engine.h).
HETVP_REGISTER_INVALIDATION_ENGINE("lockstep", "the Verilated engine and the TLM engine on the same history, compared",
                                   make_lockstep_engine);

}  // namespace hetvp::rtl
