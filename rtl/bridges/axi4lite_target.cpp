// hetvp — AxiLiteTarget and AxiLiteChecker (axi4lite_target.h).
#include "rtl/bridges/axi4lite_target.h"

namespace hetvp::rtl {

AxiLiteChecker::AxiLiteChecker(const AxiLitePins& a)
    : b_("AXI4-Lite B", a.bvalid, a.bready, {{"BRESP", a.bresp}}),
      r_("AXI4-Lite R", a.rvalid, a.rready, {{"RDATA", a.rdata}, {"RRESP", a.rresp}}) {}

std::optional<RuleViolation> AxiLiteChecker::check_handshakes(uint64_t addr_hint) {
  auto b = on_channel(b_, b_.check(addr_hint));  // both checked every edge
  auto r = on_channel(r_, r_.check(addr_hint));
  return b ? b : r;
}

std::optional<RuleViolation> AxiLiteChecker::check_response(const Handshakes& h, const RegisterAccess* in_flight) {
  const uint64_t addr = in_flight ? in_flight->addr : 0;
  const bool write = in_flight && in_flight->write, read = in_flight && !in_flight->write;
  if (h.b && !(write && in_flight->aw_done && in_flight->w_done)) {
    if (write && (in_flight->aw_done || h.aw) && (in_flight->w_done || h.w))
      return RuleViolation{"AXI4-Lite B", Rule::WriteAfterAwW,
                           "B response at the same edge as the write's AW/W handshake", addr};
    return RuleViolation{"AXI4-Lite B", Rule::WriteAfterAwW, "B response with no write in flight", addr};
  }
  if (h.r && !(read && in_flight->ar_done)) {
    if (read && h.ar)
      return RuleViolation{"AXI4-Lite R", Rule::ReadAfterAr, "R response at the same edge as the read's AR handshake",
                           addr};
    return RuleViolation{"AXI4-Lite R", Rule::ReadAfterAr, "R response with no read in flight", addr};
  }
  return std::nullopt;
}

void AxiLiteTarget::trace(WaveRing& ring) {
  ring.add_all("s_axil_",
               "awvalid awready wvalid wready bvalid bready arvalid arready rvalid rready awaddr:0 wdata:32 wstrb:4 "
               "bresp:2 araddr:0 rdata:32 rresp:2",
               {a_.awvalid, a_.awready, a_.wvalid, a_.wready, a_.bvalid, a_.bready, a_.arvalid, a_.arready, a_.rvalid,
                a_.rready, a_.awaddr, a_.wdata, a_.wstrb, a_.bresp, a_.araddr, a_.rdata, a_.rresp});
}

void AxiLiteTarget::drive() {
  RegisterAccess* r = s_.in_reset ? nullptr : head();
  a_.awvalid.set(r && r->write && !r->aw_done);
  a_.awaddr.set(r ? r->addr : 0);
  a_.wvalid.set(r && r->write && !r->w_done);
  a_.wdata.set(r ? r->wdata : 0);
  a_.wstrb.set(r ? r->wstrb : 0);
  a_.arvalid.set(r && !r->write && !r->ar_done);
  a_.araddr.set(r ? r->addr : 0);
  const unsigned d = s_.opt.test_ready_delay;  // TEST ONLY (0: always ready)
  a_.bready.set(!d || b_wait_ >= d);
  a_.rready.set(!d || r_wait_ >= d);
}

void AxiLiteTarget::sample() {
  aw_ = fired(a_.awvalid, a_.awready), w_ = fired(a_.wvalid, a_.wready), ar_ = fired(a_.arvalid, a_.arready);
  b_ = fired(a_.bvalid, a_.bready), r_ = fired(a_.rvalid, a_.rready);
  rdata_ = uint32_t(a_.rdata.get());
  resp_ = unsigned(b_ ? a_.bresp.get() : a_.rresp.get());
}

void AxiLiteTarget::act() {
  b_wait_ = (a_.bvalid.get() && !b_) ? b_wait_ + 1 : 0;
  r_wait_ = (a_.rvalid.get() && !r_) ? r_wait_ + 1 : 0;
  RegisterAccess* r = head();
  bool b = b_, rr = r_;
  if (auto v = AxiLiteChecker::check_response({aw_, w_, ar_, b_, r_}, r)) {
    if (s_.violated(*v)) return;
    // relaxed: a response at the edge of its own address (data) handshake is taken, as if that
    // handshake had come first; a response with nothing of its kind in flight is dropped
    rr = rr && r && !r->write && (r->ar_done || ar_);
    b = b && r && r->write && (r->aw_done || aw_) && (r->w_done || w_);
  }
  if (!r) return;
  if (aw_) r->aw_done = true;
  if (w_) r->w_done = true;
  if (ar_) r->ar_done = true;
  if (b || rr) complete(r, rdata_, resp_);
}

RegisterTarget::Waiting AxiLiteTarget::waiting_for(const RegisterAccess& h) const {
  if (h.write) {
    if (!h.aw_done) return {"AXI4-Lite AW", "READY"};
    if (!h.w_done) return {"AXI4-Lite W", "READY"};
    return {"AXI4-Lite B", "response"};
  }
  if (!h.ar_done) return {"AXI4-Lite AR", "READY"};
  return {"AXI4-Lite R", "response"};
}

}  // namespace hetvp::rtl
