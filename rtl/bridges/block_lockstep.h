// hetvp — the comparison of an RTL block against its TLM reference in `mode: lockstep`
// (rtl/bridges/rtl_component.cpp; docs/rtl_blocks.md, "Lockstep"). The RTL drives the platform;
// the reference's memory port is this shadow. Compared, each with the cycle it happens at:
//   * bus transactions (an AR, or a write burst's b_transport): command, address, length, cycle;
//   * memory writes: address, the bytes the strobes enable, cycle;
//   * interrupt edges: index, direction, cycle;
//   * register reads: the data (both sides see the access at the same cycle);
//   * with compare_latency: each register access's response latency, within a tolerance.
// At the end of the run it reports what it compared (the run summary and the `lockstep_*` stats).
// The cycle of an RTL event is the clock thread's edge; of a reference event, the cycle its
// SystemC time falls in (Clock::cycle_at). The first divergence stops the run.
#pragma once

#include <deque>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>

#include "rtl/bridges/lockstep.h"
#include "rtl/bridges/rtl_block.h"

namespace hetvp::rtl {

class BlockLockstep {
 public:
  // `block` names the block in reports ("rtl.crc32 'crc0'"); write_ring writes the RTL's ring buffer;
  // `debug_read` reads memory without time (the reference's reads); `owner`'s run is told of a divergence.
  BlockLockstep(const RunMember& owner, std::string block, std::string instance, Clock clock, std::function<void()> write_ring,
                std::function<unsigned(tlm::tlm_generic_payload&)> debug_read);
  bool failed() const { return monitor_.failed(); }

  // The RTL side (cycle: the clock thread's current edge).
  void rtl_transaction(uint64_t cycle, const tlm::tlm_generic_payload& gp, const sc_core::sc_time& latency);
  void rtl_wrote(uint64_t cycle, uint64_t addr, const std::vector<uint8_t>& data, const std::vector<uint8_t>& be);
  void rtl_irq(uint64_t cycle, unsigned index, bool level) { push_irq(rtl_irqs_, {cycle, index, level}); }
  // The reference side: its memory port (waits for the RTL's matching transaction) and interrupts.
  void tlm_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d);
  void tlm_irq(unsigned index, bool level) { push_irq(tlm_irqs_, {now_cycle(), index, level}); }
  // A register access both answered (`cycle`: where it was presented); `tlm_data` is the
  // reference's read data (reads are compared).
  // `rtl_cycles`/`tlm_cycles`: each side's response latency (compared if `latency_tolerance` >= 0).
  void compare_access(const tlm::tlm_generic_payload& rtl, const uint8_t* tlm_data, uint64_t cycle, uint64_t rtl_cycles,
                      uint64_t tlm_cycles);
  void set_latency_tolerance(int64_t cycles) { latency_tolerance_ = cycles; }  // < 0: not compared
  struct Counts {
    uint64_t accesses = 0, reads = 0, latencies = 0, transactions = 0, writes = 0, irqs = 0, divergences = 0;
  };
  const Counts& counts() const { return counts_; }
  // Events one side had and the other not, at the end of the run.
  void end_of_run();

 private:
  struct Transaction {
    uint64_t cycle;
    bool read;
    uint64_t addr;
    unsigned len;
    sc_core::sc_time latency;
  };
  struct MemWrite {
    uint64_t cycle, addr;
    std::vector<uint8_t> data, be;
  };
  struct IrqEdge {
    uint64_t cycle;
    unsigned index;
    bool level;
  };
  uint64_t now_cycle() const { return clock_.cycle_at(sc_core::sc_time_stamp()); }
  void push_irq(std::deque<IrqEdge>& q, IrqEdge e);
  void compare_writes();
  void compare_irqs();
  void compare_leftovers();  // events one side had and the other not
  void mismatch(const char* field, uint64_t index, const std::string& detail);

  const RunMember& owner_;
  std::string instance_;
  Clock clock_;
  std::function<unsigned(tlm::tlm_generic_payload&)> debug_read_;
  LockstepMonitor monitor_;
  std::deque<Transaction> rtl_tx_;
  std::deque<MemWrite> rtl_writes_, tlm_writes_;
  std::deque<IrqEdge> rtl_irqs_, tlm_irqs_;
  sc_core::sc_event rtl_tx_ev_, never_;
  Counts counts_;
  int64_t latency_tolerance_ = -1;
};

}  // namespace hetvp::rtl
