// hetvp — the AXI4 master port of a Verilated block, m_axi_* pins → TLM (docs/rtl_blocks.md,
// "AXI4 master → TLM initiator"), and its checker. An AR handshake becomes one b_transport for the
// whole INCR burst through BlockEnv::mem, its data presented one beat per cycle from the cycle the
// latency allows; a write burst becomes one b_transport per run of enabled bytes once its AW and
// all its W beats are in, its B presented the same way. At most max_outstanding read and write
// bursts are accepted.
#pragma once

#include <deque>
#include <vector>

#include "platform/access_info.h"
#include "rtl/bridges/bus_bridge.h"

namespace hetvp::rtl {

// An address handshake's payload (AR or AW), sampled before the rising edge.
struct BurstAddr {
  uint64_t id = 0, addr = 0;
  unsigned len = 0, size_code = 0, burst = 0;
};

// The rules of the AXI4 channels the block drives (rules.h): VALID held until READY and the payload
// stable on AR, AW, W (A3.2.1); the burst rules at AR/AW (A3.4.1: type, size, 4 KiB; the bridge's
// INCR only and aligned start); WLAST exactly on beat AWLEN + 1; R and B taken within timeout_cycles.
class Axi4MasterChecker {
 public:
  Axi4MasterChecker(const AxiPins& x, unsigned bus_bytes, uint64_t timeout_cycles);
  std::optional<RuleViolation> check_handshakes(uint64_t addr_hint);
  // What the bridge cannot issue (type, size, INCR only, alignment: not relaxable).
  std::optional<RuleViolation> check_burst(const char* channel, const BurstAddr& a) const;
  static std::optional<RuleViolation> check_4k(const char* channel, const BurstAddr& a);
  // The W beats of a burst end at index `last` (0-based), with WLAST set there or not.
  static std::optional<RuleViolation> check_wlast(const BurstAddr& aw, size_t last, bool wlast);
  // Per edge: was an R (B) beat offered and not taken? A response left waiting too long stops the run.
  std::optional<RuleViolation> check_responses_taken(bool r_waiting, uint64_t r_addr, bool b_waiting, uint64_t b_addr);

 private:
  HandshakeChecker ar_, aw_, w_;
  unsigned bus_bytes_;
  uint64_t timeout_, r_wait_ = 0, b_wait_ = 0;
};

class Axi4MasterBridge final : public BusBridge {
 public:
  Axi4MasterBridge(const AxiPins& pins, CoreState& s);
  void trace(WaveRing& ring) override;
  void drive() override;
  void sample() override;
  std::optional<RuleViolation> check(uint64_t addr_hint) override { return checker_.check_handshakes(addr_hint); }
  void act() override;
  bool idle() const override;

 private:
  struct ReadBurst {
    uint64_t id, addr;
    unsigned len, size;
    std::vector<uint8_t> data;
    unsigned resp;
    uint64_t ready;  // the cycle its first beat is presented
    unsigned beat = 0;
  };
  struct WriteBurst {
    uint64_t id, addr;
    unsigned len, size;
  };
  struct WBeat {
    uint64_t data, strb;
    bool last;
  };
  struct BResp {
    uint64_t id;
    unsigned resp;
    uint64_t ready;
    uint64_t addr;
  };
  void read(const BurstAddr& a);  // at the AR handshake
  void write_complete_bursts();   // the front AW has all its W beats: perform the write
  tlm::tlm_generic_payload& payload(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
  void send(tlm::tlm_generic_payload& gp, sc_core::sc_time& d);

  const AxiPins& x_;
  CoreState& s_;
  unsigned db_;  // data bus bytes
  Axi4MasterChecker checker_;
  std::deque<ReadBurst> rq_;
  std::deque<WriteBurst> awq_;
  std::deque<WBeat> wq_;
  std::deque<BResp> bq_;
  unsigned ar_wait_ = 0, aw_wait_ = 0, w_wait_ = 0;                   // test_ready_delay: cycles VALID waited
  bool ar_ = false, aw_ = false, w_ = false, r_ = false, b_ = false;  // handshakes at this edge
  BurstAddr ar_sample_, aw_sample_;
  WBeat w_sample_{};
  // One payload per block: the clock thread issues one transaction at a time (a static one would be
  // shared by blocks whose threads interleave while a target waits).
  tlm::tlm_generic_payload gp_;
  AccessInfo info_;
};

}  // namespace hetvp::rtl
