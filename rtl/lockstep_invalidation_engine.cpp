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
  os << "hetvp/lockstep: RTL and TLM invalidation engines differ at output #" << idx << " (input position "
     << pos << ", history #" << history << ", time " << when << "): tlm=" << opt_str(tlm)
     << " rtl=" << opt_str(rtl);
  return os.str();
}

LockstepMismatch::LockstepMismatch(uint64_t idx, uint64_t pos, std::optional<LineRange> t,
                                   std::optional<LineRange> r, sc_core::sc_time w, uint64_t h)
    : std::runtime_error(mismatch_message(idx, pos, t, r, w, h)),
      output_index(idx), input_pos(pos), tlm(t), rtl(r), when(w), history(h) {}

LockstepInvalidationEngine::LockstepInvalidationEngine(const EngineParams& p, const char* name) {
  tlm_ = coherence::make_tlm_engine(p);
  EngineParams rp = p;
  rp.test_fault_index = -1;
  rtl_ = make_rtl_engine(rp, name);
}
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
  if (tc != rc) ++stats_.cycle_count_differences;
  const size_t n = std::max(t.size(), r.size());
  for (size_t i = 0; i < n; ++i) {
    std::optional<LineRange> ti, ri;
    if (i < t.size()) ti = t[i];
    if (i < r.size()) ri = r[i];
    if (ti != ri) {
      const uint64_t pos = ri ? ri->input_pos : ti->input_pos;
      throw LockstepMismatch(i, pos, ti, ri, sc_core::sc_time_stamp(), h);
    }
    ++stats_.ranges_compared;
  }
  return r;
}

std::unique_ptr<coherence::InvalidationEngine> make_lockstep_engine(const EngineParams& p, const char* name) {
  return std::make_unique<LockstepInvalidationEngine>(p, name);
}

}  // namespace hetvp::rtl
