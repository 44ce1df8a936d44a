// hetvp — TLM reference model of the example block rtl.crc32 (crc32_dma.sv): the same registers
// (firmware/include/hetvp/crc32.h), the same bus transactions at the same cycles, the same
// interrupt. It follows the cycle behaviour written at the top of crc32_dma.sv; `mode: tlm` runs
// it instead of the RTL, `mode: lockstep` beside it (docs/rtl_blocks.md).
#include <cstdint>
#include <limits>

#include "firmware/include/hetvp/crc32.h"
#include "platform/access_info.h"
#include "platform/payload.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

uint32_t crc32_update(uint32_t crc, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  return crc;
}

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// Register accesses are answered one cycle after their presentation, as the RTL answers them
// (ReferenceModel::response_cycles' default): crc32_dma.sv takes AW+W (AR) at the edge they are
// presented at unless its previous B (R) is still waiting — never the case behind hetvp's bridge,
// which presents an access only after the previous response's handshake — and raises BVALID
// (RVALID) at that edge, so the handshake is at the next one. compare_latency checks it
// (tests/rtl/test_rtl_lockstep_report.cpp `RtlLockstepReport.Crc32LatencyMatchesTheRtl`).
class Crc32Reference final : public ReferenceModel {
 public:
  Crc32Reference(sc_core::sc_module_name n, const BlockEnv& env) : ReferenceModel(n, env) {
    SC_HAS_PROCESS(Crc32Reference);
    SC_THREAD(job_thread);
  }
  // A transaction lockstep stopped (a divergence) never returned to clear its extension.
  ~Crc32Reference() override { gp_.clear_extension(&info_); }

  void access(tlm::tlm_generic_payload& gp, uint64_t g) override {
    const RegisterWord w = RegisterWord::of(gp);  // the lanes written: the strobe (byte enables too)
    const uint64_t off = w.offset;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (gp.is_read()) {
      RegisterWord::answer_read(gp, read(off & 0xff, g));
      return;
    }
    const uint32_t v = w.data, strb = w.mask();
    auto merge = [&](uint32_t old) { return (old & ~strb) | (v & strb); };
    switch (off & 0xff) {
      case CRC_SRC_LO:
        src_ = (src_ & ~0xffffffffull) | merge(uint32_t(src_));
        break;
      case CRC_SRC_HI:
        src_ = (src_ & 0xffffffffull) | uint64_t(merge(uint32_t(src_ >> 32))) << 32;
        break;
      case CRC_LENGTH:
        len_ = merge(len_);
        break;
      case CRC_DST_LO:
        dst_ = (dst_ & ~0xffffffffull) | merge(uint32_t(dst_));
        break;
      case CRC_DST_HI:
        dst_ = (dst_ & 0xffffffffull) | uint64_t(merge(uint32_t(dst_ >> 32))) << 32;
        break;
      case CRC_CTRL:
        if (strb & 0xff) ctrl(v, g);
        break;
      default:
        break;
    }
  }

 private:
  // State after the rising edge of cycle `c` (what a read presented at c+1 sees).
  bool busy_after(uint64_t c) const { return busy_from_ <= c && c < busy_until_; }
  bool done_after(uint64_t c) const { return done_from_ <= c && !(ack_at_ >= done_from_ && ack_at_ <= c); }
  uint32_t read(uint64_t off, uint64_t g) const {
    const uint64_t c = g - 1;
    switch (off) {
      case CRC_SRC_LO:
        return uint32_t(src_);
      case CRC_SRC_HI:
        return uint32_t(src_ >> 32);
      case CRC_LENGTH:
        return len_;
      case CRC_DST_LO:
        return uint32_t(dst_);
      case CRC_DST_HI:
        return uint32_t(dst_ >> 32);
      case CRC_STATUS:
        return (busy_after(c) ? CRC_STATUS_BUSY : 0) | (done_after(c) ? CRC_STATUS_DONE : 0) |
               (done_after(c) && err_ ? CRC_STATUS_ERROR : 0);
      case CRC_RESULT:
        return done_from_ <= c ? result_new_ : result_old_;
      case CRC_ID:
        return CRC_ID_VALUE;
      default:
        return 0;
    }
  }

  void ctrl(uint32_t v, uint64_t g) {
    if ((v & CRC_CTRL_ACK) && done_after(g - 1)) {
      ack_at_ = g;
      env_.irq(0, false);
    }
    if (!(v & CRC_CTRL_GO) || busy_after(g - 1)) return;
    const bool was_done = done_after(g - 1);  // the interrupt output is still high
    if (done_from_ != kNever && done_from_ <= g - 1) result_old_ = result_new_;
    ack_at_ = kNever;
    err_ = false;
    if ((src_ & 7) || (dst_ & 3)) {  // DONE|ERROR at once, no bus traffic
      err_ = true;
      result_new_ = result_old_;
      done_from_ = g;
      busy_from_ = busy_until_ = kNever;
      if (!was_done) {
        job_ = {g, true, src_, len_, dst_};
        go_.notify(sc_core::SC_ZERO_TIME);
      }
      return;
    }
    if (was_done) env_.irq(0, false);
    busy_from_ = g;
    busy_until_ = kNever;
    done_from_ = kNever;
    job_ = {g, false, src_, len_, dst_};
    go_.notify(sc_core::SC_ZERO_TIME);
  }

  tlm::tlm_generic_payload& payload(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    set_access(gp_, cmd, addr, data, len);  // platform/payload.h
    info_.initiator = env_.initiator;
    info_.uncached = true;
    info_.side = Side::Other;
    if (!gp_.get_extension<AccessInfo>()) gp_.set_extension(&info_);
    return gp_;
  }

  // Issues one bus transaction at the rising edge of cycle c; returns the cycle its response is
  // presented at (the bridge's rule: c + max(1, ceil(latency / period))).
  uint64_t transact(tlm::tlm_generic_payload& gp, uint64_t c, bool& err) {
    env_.clock.wait_until(c);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    env_.mem(gp, d);
    gp.clear_extension(&info_);
    if (!gp.is_response_ok()) err = true;
    return c + env_.clock.cycles_for(sc_core::sc_time_stamp() - t0 + d);
  }

  void job_thread() {
    for (;;) {
      sc_core::wait(go_);
      const Job j = job_;
      if (j.misaligned) {
        env_.clock.wait_until(j.go);
        env_.irq(0, true);
        continue;
      }
      bool err = false;
      uint32_t crc = 0xFFFFFFFFu;
      uint64_t addr = j.src, left = j.len, c = j.go + 1;
      std::vector<uint8_t> buf;
      while (left) {  // one burst per iteration: <= 16 beats of 8 bytes, never across 4 KiB
        uint64_t beats = std::min<uint64_t>({16, (left + 7) / 8, (0x1000 - (addr & 0xfff)) / 8});
        buf.assign(beats * 8, 0);
        const uint64_t rdy = transact(payload(tlm::TLM_READ_COMMAND, addr, buf.data(), unsigned(buf.size())), c, err);
        const uint64_t n = std::min<uint64_t>(left, beats * 8);
        crc = crc32_update(crc, buf.data(), n);
        left -= n;
        addr += beats * 8;
        c = rdy + beats - 1 + 1;  // the cycle after the last beat
      }
      uint32_t result = crc ^ 0xFFFFFFFFu;
      uint8_t out[4] = {uint8_t(result), uint8_t(result >> 8), uint8_t(result >> 16), uint8_t(result >> 24)};
      const uint64_t b = transact(payload(tlm::TLM_WRITE_COMMAND, j.dst, out, 4), c, err);
      result_new_ = result;
      err_ = err;
      busy_until_ = b;
      done_from_ = b;
      env_.clock.wait_until(b);
      env_.irq(0, true);
    }
  }

  struct Job {
    uint64_t go = 0;
    bool misaligned = false;
    uint64_t src = 0;
    uint32_t len = 0;
    uint64_t dst = 0;
  };
  uint64_t src_ = 0, dst_ = 0;
  uint32_t len_ = 0, result_old_ = 0, result_new_ = 0;
  bool err_ = false;
  uint64_t busy_from_ = kNever, busy_until_ = kNever, done_from_ = kNever, ack_at_ = kNever;
  Job job_;
  sc_core::sc_event go_;
  tlm::tlm_generic_payload gp_;
  AccessInfo info_;
};

}  // namespace

HETVP_REGISTER_RTL_REFERENCE("crc32", Crc32Reference, "cycle-counted TLM model of crc32_dma.sv");

}  // namespace hetvp::rtl
