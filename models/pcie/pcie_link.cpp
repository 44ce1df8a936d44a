#include "models/pcie/pcie_link.h"

#include <cinttypes>
#include <cstring>

#include "models/pcie/tlp.h"
#include "platform/access_info.h"
#include "platform/registry.h"
#include "platform/format.h"
#include "platform/trace.h"
#include "platform/sim_time.h"

namespace hetvp {

HETVP_REGISTER_COMPONENT("pcie_link", PcieLink, "PCIe link: per-direction shared bandwidth, TLP costs, latency");

PcieLink::PcieLink(sc_core::sc_module_name n, const PcieLinkConfig& c) : Component(n) {
  static const double gts[] = {0, 2.5e9, 5e9, 8e9, 16e9, 32e9};
  const unsigned gen = c.generation;
  double encoding = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  const unsigned lanes = c.lanes;
  bytes_per_second_ = gts[gen] * lanes * encoding / 8.0;
  latency_ = c.latency;
  max_payload_ = c.max_payload;
  max_read_request_ = c.max_read_request;
  framing_ = c.framing;
  trace_each_tlp_ = c.trace_detail == PcieTraceDetail::tlps;
  for (unsigned bytes = 0; bytes <= max_payload_ + 16 + framing_; ++bytes)
    wire_table_.push_back(sc_core::sc_time(bytes / bytes_per_second_, sc_core::SC_SEC));
  down_in.register_transport_dbg(&PcieLink::dbg_down);
  up_in.register_transport_dbg(&PcieLink::dbg_up);
  expose_target("down_in", down_in);
  expose_initiator("down_out", down_out);
  expose_target("up_in", up_in);
  expose_initiator("up_out", up_out);
  declare_stats();
}

// The endpoint below (up_in) or a port above (down_in) asks for the link's TLP limits.
bool PcieLink::answer_link_query(tlm::tlm_generic_payload& gp) const {
  auto* q = gp.get_extension<pcie::LinkQuery>();
  if (!q) return false;
  q->max_payload = max_payload_;
  q->max_read_request = max_read_request_;
  return true;
}
unsigned PcieLink::dbg_down(tlm::tlm_generic_payload& gp) {
  return answer_link_query(gp) ? 0 : down_out->transport_dbg(gp);
}
unsigned PcieLink::dbg_up(tlm::tlm_generic_payload& gp) {
  return answer_link_query(gp) ? 0 : up_out->transport_dbg(gp);
}

sc_core::sc_time PcieLink::send(Direction& d, const sc_core::sc_time& now, sc_core::sc_time at, unsigned payload,
                                uint64_t addr, bool completion, const char* kind) {
  const sc_core::sc_time wire = wire_time(payload, addr, completion);
  const unsigned header = header_bytes(addr, completion);
  d.wire.forget_before(now);
  d.busy_time += wire;
  ++d.tlps;
  d.payload_bytes += payload;
  d.wire_bytes += payload + header + framing_;
  const sc_core::sc_time start = d.wire.reserve(at, wire);
  // A header-only TLP (read request, completion without data) is interleaved by the transmit
  // arbiter between data TLPs rather than queued behind them: it leaves at once, and its wire
  // time still takes a slot from the data.
  const sc_core::sc_time left = payload == 0 ? at + wire : start + wire;
  HETVP_DEBUG(PCIe, "%s %s addr 0x%" PRIx64 ", %u B payload, %u B on the wire: ready at %s, on the wire %s..%s", d.name,
              kind, addr, payload, payload + header + framing_, at.to_string().c_str(),
              (left - wire).to_string().c_str(), left.to_string().c_str());
  Tracer& tr = tracer();
  if (d.track.on(tr) && !trace_each_tlp_) {  // runs of TLPs on the direction's track
    tr.span_run(d.track, kind, left - wire, wire, addr, payload);
  } else if (d.track.on(tr)) {  // one span per TLP on the direction's track; bytes waiting or on the wire
    tr.span(d.track.name(), kind, left - wire, wire,
            TraceArgs()
                .add("addr", addr)
                .add("payload", payload)
                .add("wire_bytes", payload + header + framing_)
                .add("queued_ns", (left - wire - at).to_seconds() * 1e9));
    tr.counter_delta(d.track.name(), "occupancy_bytes", at, payload + header + framing_);
    tr.counter_delta(d.track.name(), "occupancy_bytes", left, -double(payload + header + framing_));
  }
  return left;
}

void PcieLink::transfer(Direction& fwd, Direction& back, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay,
                        DirectInitiator<tlm_utils::simple_initiator_socket<PcieLink>>& out) {
  const sc_core::sc_time now = hetvp::sim_now();
  const unsigned len = gp.get_data_length();
  const uint64_t addr = gp.get_address();
  const bool config = gp.get_extension<pcie::ConfigRequest>() != nullptr;
  const bool posted = gp.is_write() && !config;  // configuration writes are non-posted
  if ((gp.is_write() && len > max_payload_) || (gp.is_read() && len > max_read_request_)) {
    ++protocol_errors_;
    std::string buf =
        format("%s: %s of %u bytes at 0x%" PRIx64 " by %s exceeds %s (%u bytes)", name(),
               gp.is_write() ? "write" : "read", len, addr, initiator_of(gp),
               gp.is_write() ? "max_payload" : "max_read_request", gp.is_write() ? max_payload_ : max_read_request_);
    SC_REPORT_WARNING("hetvp/pcie", buf.c_str());
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const sc_core::sc_time t0 = now + delay;
  if (posted) {
    sc_core::sc_time left = send(fwd, now, t0, len, addr, false, "MWr");
    sc_core::sc_time arrive = left + latency_ - now;
    out.b_transport(gp, arrive);   // the target sees the write when it arrives
    delay = left - now;            // the sender is done once the TLP is on the wire
    return;
  }
  // Non-posted: request (carries data for config writes), completion(s) back.
  sc_core::sc_time left =
      send(fwd, now, t0, gp.is_write() ? len : 0, addr, false, config ? (gp.is_write() ? "CfgWr" : "CfgRd") : "MRd");
  sc_core::sc_time d = left + latency_ - now;
  out.b_transport(gp, d);
  const sc_core::sc_time after = hetvp::sim_now();  // the target may have waited until the arrival
  sc_core::sc_time t = after + d;
  if (gp.is_read() && len > 0) {
    for (unsigned off = 0; off < len; off += max_payload_)
      t = send(back, after, t, std::min(max_payload_, len - off), addr, true, "CplD");
  } else {
    t = send(back, after, t, 0, addr, true, "Cpl");  // completion without data
  }
  delay = t + latency_ - after;
}

void PcieLink::declare_stats() {
  stats().value("bytes_per_second", "B/s", "raw bandwidth of one direction after line encoding",
                [this] { return bytes_per_second_; });
  for (Direction* d : {&down_, &up_})
    stats()
        .group(d->name)
        .counter("tlps", "count", "TLPs sent in this direction", d->tlps)
        .counter("payload_bytes", "bytes", "data payload carried by those TLPs", d->payload_bytes)
        .counter("wire_bytes", "bytes", "bytes on the wire: payload + header + framing", d->wire_bytes)
        .time("busy_ns", "time this direction's wire was occupied", d->busy_time);
  stats().counter("protocol_errors", "count",
                  "requests longer than max_payload (writes) or max_read_request (reads), refused", protocol_errors_);
}

}  // namespace hetvp
