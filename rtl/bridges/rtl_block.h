// hetvp — the generic co-simulation of a Verilated block (docs/rtl_blocks.md):
//   * RtlCore: owns the VerilatedBlock and its clock, and composes the bridges around it
//     (bus_bridge.h): the register target driving the block's AXI4-Lite or APB slave port
//     (axi4lite_target.h, apb_target.h), the AXI4 master port turned into TLM b_transport calls
//     (axi4_master_bridge.h), each with its protocol checker; the interrupt outputs turned into
//     edges; the full waveform window and the ring buffer of the last cycles (block_waves.h).
//   * ReferenceModel: a TLM model of the same block (optional, per block name), for `mode: tlm`
//     and `mode: lockstep` (rtl/bridges/rtl_component.cpp).
//
// Time: cycle n of a block's clock is its rising edge at n·period (absolute, from time 0). The
// clock runs only while the block has work; a register access arriving at time t is presented at
// cycle floor(t/period)+1 and completes at the rising edge that carries its response.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "platform/implementation.h"
#include "platform/param_set.h"
#include "platform/registry.h"
#include "platform/run_context.h"
#include "rtl/bridges/rules.h"
#include "rtl/bridges/verilated_block.h"

namespace hetvp::rtl {

// Cycle arithmetic shared by the RTL clock and the reference models.
struct Clock {
  uint64_t period_ps = 10000;
  sc_core::sc_time at(uint64_t cycle) const { return sc_core::sc_time(double(cycle * period_ps), sc_core::SC_PS); }
  static uint64_t ps(const sc_core::sc_time& t) { return t.value() / sc_core::sc_time(1, sc_core::SC_PS).value(); }
  // The last cycle whose rising edge is at or before t (the cycle an event at t belongs to).
  uint64_t cycle_at(const sc_core::sc_time& t) const { return ps(t) / period_ps; }
  // The first cycle whose rising edge is strictly after t.
  uint64_t next_after(const sc_core::sc_time& t) const { return ps(t) / period_ps + 1; }
  // Cycles a response takes that the target said takes `latency` (at least one).
  uint64_t cycles_for(const sc_core::sc_time& latency) const {
    const uint64_t c = (ps(latency) + period_ps - 1) / period_ps;
    return c ? c : 1;
  }
  // Wait (in an SC_THREAD) until cycle n's rising edge; no wait if it has passed.
  void wait_until(uint64_t cycle) const {
    const sc_core::sc_time t = at(cycle), now = sc_core::sc_time_stamp();
    if (t > now) sc_core::wait(t - now);
  }
};

// A register access of 1..4 bytes within one 32-bit word, as the register bridges and the
// reference models see it: the word's offset, the write data in its byte lanes, and the lanes it
// writes (WSTRB/PSTRB). The payload's byte enables (TLM_BYTE_ENABLED per byte) narrow the lanes to
// any pattern, non-contiguous too (HostApi::mmio_write_strobed); a read fills only enabled bytes.
struct RegisterWord {
  bool ok = false;  // 1..4 bytes within one word (else the access gets TLM_BURST_ERROR_RESPONSE)
  uint64_t offset = 0;
  uint32_t data = 0;
  unsigned strobe = 0;     // bit k: byte lane k
  uint32_t mask() const {  // the strobe as bits (0xff per lane)
    uint32_t m = 0;
    for (unsigned k = 0; k < 4; ++k)
      if ((strobe >> k) & 1) m |= 0xffu << (8 * k);
    return m;
  }
  static RegisterWord of(const tlm::tlm_generic_payload& gp) {
    RegisterWord w;
    const uint64_t addr = gp.get_address();
    const unsigned len = gp.get_data_length(), lane = unsigned(addr % 4);
    if (len == 0 || len > 4 || lane + len > 4) return w;
    w.ok = true;
    w.offset = addr & ~uint64_t(3);
    for (unsigned i = 0; i < len; ++i) {
      if (!enabled(gp, i)) continue;
      w.strobe |= 1u << (lane + i);
      if (gp.is_write()) w.data |= uint32_t(gp.get_data_ptr()[i]) << (8 * (lane + i));
    }
    return w;
  }
  // A read's answer `word`: the payload's enabled bytes.
  static void answer_read(tlm::tlm_generic_payload& gp, uint32_t word) {
    const unsigned lane = unsigned(gp.get_address() % 4);
    for (unsigned i = 0; i < gp.get_data_length() && lane + i < 4; ++i)
      if (enabled(gp, i)) gp.get_data_ptr()[i] = uint8_t(word >> (8 * (lane + i)));
  }
  static bool enabled(const tlm::tlm_generic_payload& gp, unsigned i) {
    const unsigned char* be = gp.get_byte_enable_ptr();
    const unsigned n = gp.get_byte_enable_length();
    return !be || !n || be[i % n] == TLM_BYTE_ENABLED;
  }
};

// What a block does to the rest of the system, whichever implementation (RTL or TLM) runs it.
struct BlockEnv {
  std::string instance;         // YAML instance name
  std::string type;             // "rtl.<name>"
  const char* initiator = "?";  // AccessInfo initiator name (static storage owned by the component)
  Clock clock;
  // The block's memory traffic (its AXI4 master port), b_transport semantics.
  std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)> mem;
  // An interrupt output changed level (index, new level), at the current SystemC time.
  std::function<void(unsigned, bool)> irq;
  // A memory write the block issued (address, data, byte enables; lockstep observes it).
  std::function<void(uint64_t, const std::vector<uint8_t>&, const std::vector<uint8_t>&)> wrote;
};

// A TLM model of a block: same registers, same memory traffic, same interrupts. It is
// cycle-counted: access() is the register access presented at `cycle` (its response is at
// cycle + 1); it schedules its own work on env().clock. access() must not wait: `mode: tlm` calls
// it at the access's arrival, `mode: lockstep` at the rising edge `cycle` from the RTL's clock
// thread (docs/rtl_blocks.md, "Lockstep").
class ReferenceModel : public sc_core::sc_module {
 public:
  ReferenceModel(sc_core::sc_module_name n, BlockEnv env) : sc_core::sc_module(n), env_(std::move(env)) {}
  virtual void access(tlm::tlm_generic_payload& gp, uint64_t cycle) = 0;
  // The cycles from the access's presentation to its response (at cycle + this); 1 unless the
  // model says otherwise (a block with wait states). `mode: tlm` answers then; lockstep with
  // compare_latency compares it with the RTL's.
  virtual uint64_t response_cycles(const tlm::tlm_generic_payload& gp) const {
    (void)gp;
    return 1;
  }

 protected:
  BlockEnv env_;
};

struct RtlReferenceType {
  static constexpr const char* kKind = "RTL reference model";
  std::string name;  // the block's NAME
  std::string doc;
  std::function<std::unique_ptr<ReferenceModel>(const char* instance, const BlockEnv&)> create;
};
using RtlReferenceRegistry = Registry<RtlReferenceType>;

#define HETVP_REGISTER_RTL_REFERENCE(BLOCK_NAME, CLASS, DOC)                                                \
  HETVP_REGISTER_ENTRY(                                                                                     \
      ::hetvp::rtl::RtlReferenceType, BLOCK_NAME, DOC,                                                      \
      [](const char* n, const ::hetvp::rtl::BlockEnv& e) -> std::unique_ptr<::hetvp::rtl::ReferenceModel> { \
        return std::make_unique<CLASS>(n, e);                                                               \
      })

// "axi_r_after_ar": a rule's id as a statistic's name (relaxed_<this>).
std::string stat_name(Rule r);

// The parameters of every `rtl.<name>` component (rtl_component.cpp): the same for every block,
// whatever its ports (what a block's build fixes, its RtlBlockType, is not a parameter).
struct RtlBlockConfig : ParamSet {
  Enum<Implementation> mode{this, "mode", Implementation::rtl,
                            "rtl: the Verilated block; tlm: its TLM reference model; lockstep: both, compared (needs a "
                            "reference)"};
  Freq clock{this, "clock", "100 MHz", "block clock (runs only while the block has work)"};
  Int<unsigned> reset_cycles{this, "reset_cycles", 4,
                             "cycles the reset (rst_n, or hetvp_add_rtl_block RESET) is held asserted at time 0",
                             Range{1, 1000}};
  Int<unsigned> irq_vector{this, "irq_vector", 0,
                           "interrupt vector raised by irq output 0 (output k raises irq_vector + k)", Range{0, 1023}};
  Int<uint64_t> timeout_cycles{this, "timeout_cycles", 100000,
                               "a register access without READY or response, or a response the block does not "
                               "take, after this many cycles stops the run",
                               Min{1}};
  Int<unsigned> max_outstanding{this, "max_outstanding", 4,
                                "AXI4 master: read and write bursts the bridge accepts in flight", Range{1, 64}};
  Bool compare_latency{this, "compare_latency", false,
                       "mode lockstep: also compare each register access's response latency (cycles from its "
                       "presentation to its response) with the reference's"};
  Int<unsigned> latency_tolerance{this, "latency_tolerance", 0,
                                  "compare_latency: cycles the two latencies may differ by", Range{0, 1000000}};
  Str waves{this, "waves", "", "full waveform (VCD) of every signal of the block; empty = none"};
  Time waves_start{this, "waves_start", "0 s", "waveform window start"};
  Time waves_stop{this, "waves_stop", "0 s", "waveform window end (0 = end of the run)"};
  Int<unsigned> ring_cycles{this, "ring_cycles", 256,
                            "cycles kept in the ring buffer written when the run fails (0 = none)", Range{0, 1 << 20}};
  Str ring_file{this, "ring_file", "", "ring buffer VCD file (empty: <instance>_last_cycles.vcd)"};
  Any relax{this, "relax",
            "rule ids (docs/rtl_blocks.md section 4) this block may break: each becomes a warning, printed once, "
            "counted in the stats (relaxed_<id>), and the bridge does the forgiving thing; e.g. [axi.r_after_ar]"};
  Int<unsigned> test_ready_delay{this, "test_ready_delay", 0,
                                 "TEST ONLY: the bridges raise READY (AXI4 master AR/AW/W, AXI4-Lite B/R) only after "
                                 "VALID was high this many cycles",
                                 Range{0, 1000}};

  // The clock's period (at least 2 ps), the waveform window, the `relax:` ids.
  void validate(Diagnostics& d) const override;
  RelaxedRules relaxed_rules() const;  // `relax:` (validated)
  // What depends on the block's build too: the waveform format, a reference for tlm/lockstep.
  void validate(const RtlBlockType& t, Diagnostics& d) const;
};

struct RtlCounters {
  uint64_t cycles = 0;  // rising edges the clock made (reset included)
  uint64_t wakeups = 0;
};

class RtlCore : public sc_core::sc_module, public RunMember {
 public:
  RtlCore(sc_core::sc_module_name n, const RtlBlockType& type, BlockEnv env, const RtlBlockConfig& opt);
  ~RtlCore() override;
  // A register access (blocking; called from an SC_THREAD at its arrival time). Returns the
  // cycle it was presented at. `on_present(cycle)` runs in the clock thread at that cycle's rising
  // edge, before the block sees the access (lockstep hands the access to the reference there).
  // `responded`, when given, gets the cycle of the response handshake: the clock thread may have
  // moved on to the next edge by the time the caller resumes, so cycle() is not it.
  uint64_t access(tlm::tlm_generic_payload& gp, std::function<void(uint64_t)> on_present = {},
                  uint64_t* responded = nullptr);
  uint64_t cycle() const;  // the current cycle of the clock thread (the edge it is at or last made)
  const RtlCounters& counters() const { return counters_; }
  uint64_t bus_cycles() const;  // cycles out of reset
  const RelaxedRules& relaxed() const;  // the block's `relax:` list and the breaks counted
  // Writes the ring buffer of the last cycles (a failure found outside the core: lockstep).
  void write_ring_now();
  void end_of_run();

  struct Impl;

 private:
  void run();
  Clock clock_;
  std::unique_ptr<Impl> impl_;
  RtlCounters counters_;
};

}  // namespace hetvp::rtl
