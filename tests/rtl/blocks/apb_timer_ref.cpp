// hetvp — TEST ONLY: the cycle-counted TLM reference of tests/rtl/blocks/apb_timer.sv (the
// behaviour written at its top). State is a function of the cycle: the last START (edge w_, count
// start_load_), its expiry edge e_ = w_ + start_load_, and the last ACK edge; reads answer with
// the state after edge g - 1, writes take effect at edge g + 1 (APB ACCESS). The interrupt output
// is re-evaluated by a thread at every edge where it can change (w_, e_, the ACK).
#include <algorithm>
#include <limits>

#include "rtl/bridges/rtl_block.h"
#include "tests/rtl/blocks/apb_timer_regs.h"

namespace hetvp::rtl {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

class ApbTimerReference final : public ReferenceModel {
 public:
  ApbTimerReference(sc_core::sc_module_name n, const BlockEnv& env) : ReferenceModel(n, env) {
    SC_HAS_PROCESS(ApbTimerReference);
    SC_THREAD(irq_thread);
  }

  void access(tlm::tlm_generic_payload& gp, uint64_t g) override {
    const RegisterWord w = RegisterWord::of(gp);  // the lanes written: the strobe (byte enables too)
    const uint64_t off = w.offset;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (gp.is_read()) {
      RegisterWord::answer_read(gp, read(off & 0xff, g - 1));
      return;
    }
    const uint32_t v = w.data, strb = w.mask();
    const uint64_t at = g + 1;  // the ACCESS edge
    if ((off & 0xff) == TIMER_LOAD) load_ = (load_ & ~strb) | (v & strb);
    if ((off & 0xff) != TIMER_CTRL || !(strb & 0xff)) return;
    if (v & TIMER_CTRL_ACK) ack_ = at;
    if (v & TIMER_CTRL_START) {
      started_ = true;
      w_ = at;
      start_load_ = load_;
      e_ = at + load_;
      ack_ = kNever;  // START wins over an ACK in the same write
    }
    changed_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  // The state after edge c (c >= w_ for every access: one access at a time).
  bool running(uint64_t c) const { return started_ && c >= w_ && c < e_; }
  bool expired(uint64_t c) const { return started_ && c >= e_ && !(ack_ >= e_ && ack_ <= c); }
  uint32_t count(uint64_t c) const { return running(c) ? uint32_t(start_load_ - (c - w_)) : 0; }

  uint32_t read(uint64_t off, uint64_t c) const {
    switch (off) {
      case TIMER_LOAD:
        return load_;
      case TIMER_COUNT:
        return count(c);
      case TIMER_STATUS:
        return (running(c) ? TIMER_STATUS_RUNNING : 0) | (expired(c) ? TIMER_STATUS_EXPIRED : 0);
      case TIMER_ID:
        return TIMER_ID_VALUE;
      default:
        return 0;
    }
  }

  // At each edge where EXPIRED may change, the output follows it (an edge at that edge's time).
  void irq_thread() {
    for (;;) {
      uint64_t next = kNever;
      for (uint64_t c : {w_, e_, ack_})
        if (started_ && c != kNever && c >= cursor_) next = std::min(next, c);
      if (next == kNever) {
        sc_core::wait(changed_);
        continue;
      }
      const sc_core::sc_time t = env_.clock.at(next), now = sc_core::sc_time_stamp();
      if (t > now) {
        sc_core::wait(t - now, changed_);
        if (sc_core::sc_time_stamp() < t) continue;  // an access changed the plan: look again
      }
      cursor_ = next + 1;
      if (expired(next) != level_) {
        level_ = !level_;
        env_.irq(0, level_);
      }
    }
  }

  uint32_t load_ = 0, start_load_ = 0;
  bool started_ = false, level_ = false;
  uint64_t w_ = kNever, e_ = kNever, ack_ = kNever, cursor_ = 0;
  sc_core::sc_event changed_;
};

}  // namespace

HETVP_REGISTER_RTL_REFERENCE("apb_timer", ApbTimerReference, "TEST ONLY: cycle-counted TLM model of apb_timer.sv");

}  // namespace hetvp::rtl
