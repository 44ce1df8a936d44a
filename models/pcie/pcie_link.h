// A PCIe link: two independent directions, each a shared serial resource.
//
// Every transaction crossing the link becomes TLPs whose wire time is
//   (payload + header + framing) bytes * encoding / (rate * lanes)
// (gen1/2: 8b/10b, gen3+: 128b/130b). A direction is busy while it serialises a TLP; a TLP
// takes the first free slot of its direction at or after its own time (a Calendar), so
// transfers sharing a direction share its bandwidth and the two directions never slow each
// other. A slot once given is kept: when two requests want the same time, the one called first
// gets it. The initiators therefore call at their own time whenever another process could call
// before them (HostCpu's uncached accesses, CopyEngine's booking_window, a microcontroller's
// xfer), so the order of the calls, and every time, is the same at every quantum (#43). Header-only TLPs (read requests,
// data-less completions) are interleaved ahead of queued data TLPs, as a transmit arbiter
// does, and still cost the direction their wire time. Posted writes cost the sender only
// the time to put the TLP on the wire; non-posted reads cost a request TLP one way, the
// one-way latency, the target's time, completion TLPs (split at max_payload) the other way
// and the latency back. Requests larger than max_payload (writes) or max_read_request
// (reads) are a protocol error the requester must avoid (TLM_BURST_ERROR_RESPONSE).
//
// Ports: target `down_in` (from the root port), initiator `down_out` (to the device),
//        target `up_in` (from the device), initiator `up_out` (to the root port).
#pragma once

#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/calendar.h"
#include "platform/component.h"
#include "platform/direct_target_socket.h"
#include "platform/param_set.h"
#include "platform/trace_track.h"

namespace hetvp {

HETVP_ENUM(PcieTraceDetail, runs, tlps);

// The parameters of a PCIe link (YAML type `pcie_link`).
struct PcieLinkConfig : ParamSet {
  Int<unsigned> generation{this, "generation", 2,
                           "PCIe generation: 1 (2.5 GT/s), 2 (5 GT/s), 3 (8 GT/s), 4 (16 GT/s), 5 (32 GT/s)",
                           Range{1, 5}};
  Int<unsigned> lanes{this, "lanes", 16, "link width", Allowed{{1, 2, 4, 8, 16, 32}}};
  Time latency{this, "latency", "250 ns", "one-way latency of a TLP (PHY, data link layer, switch-free)"};
  Int<unsigned> max_payload{
      this, "max_payload", 128,
      "max payload size (bytes) of a TLP; the endpoint below uses it too (up to what it supports)",
      Allowed{{128, 256, 512, 1024, 2048, 4096}}};
  Int<unsigned> max_read_request{this, "max_read_request", 512,
                                 "max read request size (bytes); the endpoint below uses it too",
                                 Allowed{{128, 256, 512, 1024, 2048, 4096}}};
  Int<unsigned> framing{this, "framing", 8, "per-TLP bytes besides the header: STP/SDP, sequence number, LCRC, END",
                        Range{0, 64}};
  Enum<PcieTraceDetail> trace_detail{
      this, "trace_detail", PcieTraceDetail::runs,
      "--trace: `runs` writes TLPs of one kind at consecutive addresses, each within 5 us of the previous one, as "
      "one span (\"CplD x8\", Tracer::span_run); "
      "`tlps` a span per TLP and each direction's occupancy_bytes counter (many more events)"};
};

class PcieLink : public Component {
  void b_down(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by the sockets)
  void b_up(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

 public:
  DirectTargetSocket<PcieLink, &PcieLink::b_down> down_in{"down_in", this};
  DirectInitiator<tlm_utils::simple_initiator_socket<PcieLink>> down_out{"down_out"};
  DirectTargetSocket<PcieLink, &PcieLink::b_up> up_in{"up_in", this};
  DirectInitiator<tlm_utils::simple_initiator_socket<PcieLink>> up_out{"up_out"};

  using Config = PcieLinkConfig;
  PcieLink(sc_core::sc_module_name name, const PcieLinkConfig& c);

  // Wire time of a TLP carrying `payload` bytes to/from `addr` (header size depends on it).
  sc_core::sc_time wire_time(unsigned payload, uint64_t addr, bool completion) const {
    // 3DW header for completions and 32-bit addresses, 4DW for 64-bit addresses.
    const unsigned bytes = payload + header_bytes(addr, completion) + framing_;
    return bytes < wire_table_.size() ? wire_table_[bytes] : sc_core::sc_time(bytes / bytes_per_second_, sc_core::SC_SEC);
  }
  static unsigned header_bytes(uint64_t addr, bool completion) {
    return (!completion && addr > 0xffffffffull) ? 16 : 12;
  }
  double raw_bandwidth() const { return bytes_per_second_; }  // bytes/s after line encoding

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  struct Direction {
    Direction(const char* n, const std::string& link) : name(n), track(link + "." + n) {}
    const char* name;
    TraceTrack track;  // "pcie0.down": its track in the trace
    Calendar wire;  // when this direction serialises TLPs
    uint64_t tlps = 0, payload_bytes = 0, wire_bytes = 0;
    sc_core::sc_time busy_time;
  };
  void transfer(Direction& fwd, Direction& back, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay,
                DirectInitiator<tlm_utils::simple_initiator_socket<PcieLink>>& out);
  // Puts one TLP on `d` no earlier than `at` (absolute); returns when its last bit left.
  // `kind` (MWr, MRd, CfgWr, CfgRd, CplD, Cpl) names the TLP in the trace. `now`: SystemC's
  // current time, which the caller has at hand (one library call less per TLP, #31).
  sc_core::sc_time send(Direction& d, const sc_core::sc_time& now, sc_core::sc_time at, unsigned payload, uint64_t addr,
                        bool completion, const char* kind);
  unsigned dbg_down(tlm::tlm_generic_payload& gp);
  unsigned dbg_up(tlm::tlm_generic_payload& gp);
  bool answer_link_query(tlm::tlm_generic_payload& gp) const;

  double bytes_per_second_;  // per direction, after encoding
  sc_core::sc_time latency_;
  unsigned max_payload_, max_read_request_, framing_;
  bool trace_each_tlp_ = false;  // trace_detail: tlps
  // wire_time by TLP size (payload + header + framing), computed once (#31: no double -> sc_time
  // conversion per TLP).
  std::vector<sc_core::sc_time> wire_table_;
  Direction down_{"down", name()}, up_{"up", name()};
  uint64_t protocol_errors_ = 0;
};

inline void PcieLink::b_down(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  transfer(down_, up_, gp, delay, down_out);
}
inline void PcieLink::b_up(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  transfer(up_, down_, gp, delay, up_out);
}

}  // namespace hetvp
