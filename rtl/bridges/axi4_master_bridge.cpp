// hetvp — Axi4MasterBridge and Axi4MasterChecker (axi4_master_bridge.h).
#include "rtl/bridges/axi4_master_bridge.h"

#include <cinttypes>

#include "platform/format.h"
#include "platform/payload.h"

namespace hetvp::rtl {

namespace {

unsigned resp_of(const tlm::tlm_generic_payload& gp) {
  if (gp.is_response_ok()) return 0;
  return gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE ? 3 : 2;  // DECERR : SLVERR
}

BurstAddr sample_addr(const Pin& id, const Pin& addr, const Pin& len, const Pin& size, const Pin& burst) {
  return {id.get(), addr.get(), unsigned(len.get()), unsigned(size.get()), unsigned(burst.get())};
}

}  // namespace

// ---------------------------------------------------------------- checker

Axi4MasterChecker::Axi4MasterChecker(const AxiPins& x, unsigned bus_bytes, uint64_t timeout_cycles)
    : ar_("AXI4 AR", x.arvalid, x.arready,
          {{"ARID", x.arid}, {"ARADDR", x.araddr}, {"ARLEN", x.arlen}, {"ARSIZE", x.arsize}, {"ARBURST", x.arburst}}),
      aw_("AXI4 AW", x.awvalid, x.awready,
          {{"AWID", x.awid}, {"AWADDR", x.awaddr}, {"AWLEN", x.awlen}, {"AWSIZE", x.awsize}, {"AWBURST", x.awburst}}),
      w_("AXI4 W", x.wvalid, x.wready, {{"WDATA", x.wdata}, {"WSTRB", x.wstrb}, {"WLAST", x.wlast}}),
      bus_bytes_(bus_bytes),
      timeout_(timeout_cycles) {}

std::optional<RuleViolation> Axi4MasterChecker::check_handshakes(uint64_t addr_hint) {
  // Every channel is checked each edge (a relaxed violation on one must not skip the others).
  std::optional<RuleViolation> first;
  for (HandshakeChecker* c : {&ar_, &aw_, &w_})
    if (auto v = on_channel(*c, c->check(addr_hint)); v && !first) first = std::move(v);
  return first;
}

std::optional<RuleViolation> Axi4MasterChecker::check_burst(const char* ch, const BurstAddr& a) const {
  const unsigned size = 1u << a.size_code;
  auto broken = [&](Rule r, const std::string& detail) { return RuleViolation{ch, r, detail, a.addr}; };
  if (a.burst == 3) return broken(Rule::BurstType, "burst type 0b11");
  if (a.burst != 1) return broken(Rule::IncrOnly, format("a %s burst", a.burst ? "WRAP" : "FIXED"));
  if (size > bus_bytes_)
    return broken(Rule::BurstSize, format("beats of %u bytes on the %u-byte data bus", size, bus_bytes_));
  if (a.addr % size) return broken(Rule::AlignedStart, format("start not aligned to the %u-byte beat size", size));
  return std::nullopt;
}

std::optional<RuleViolation> Axi4MasterChecker::check_4k(const char* ch, const BurstAddr& a) {
  const unsigned size = 1u << a.size_code;
  if ((a.addr & 0xfff) + uint64_t(a.len + 1) * size > 0x1000)
    return RuleViolation{ch, Rule::Burst4k, format("%u beats of %u bytes cross a 4 KiB boundary", a.len + 1, size),
                         a.addr};
  return std::nullopt;
}

std::optional<RuleViolation> Axi4MasterChecker::check_wlast(const BurstAddr& aw, size_t last, bool wlast) {
  if (last == aw.len && wlast) return std::nullopt;
  const std::string detail =
      wlast ? format("WLAST on beat %zu of a burst of %u beats (AWLEN %u)", last + 1, aw.len + 1, aw.len)
            : format("no WLAST on beat %u, the last of a burst of %u beats (AWLEN %u)", aw.len + 1, aw.len + 1, aw.len);
  return RuleViolation{"AXI4 W", Rule::Wlast, detail, aw.addr};
}

std::optional<RuleViolation> Axi4MasterChecker::check_responses_taken(bool r_waiting, uint64_t r_addr, bool b_waiting,
                                                                      uint64_t b_addr) {
  r_wait_ = r_waiting ? r_wait_ + 1 : 0;
  b_wait_ = b_waiting ? b_wait_ + 1 : 0;
  if (r_wait_ > timeout_)
    return RuleViolation{"AXI4 R", Rule::ResponseTaken, format("time-out: RREADY low for %" PRIu64 " cycles", r_wait_),
                         r_addr};
  if (b_wait_ > timeout_)
    return RuleViolation{"AXI4 B", Rule::ResponseTaken, format("time-out: BREADY low for %" PRIu64 " cycles", b_wait_),
                         b_addr};
  return std::nullopt;
}

// ---------------------------------------------------------------- bridge

Axi4MasterBridge::Axi4MasterBridge(const AxiPins& pins, CoreState& s)
    : x_(pins), s_(s), db_(pins.wdata.bytes), checker_(pins, db_, s.opt.timeout_cycles) {}

void Axi4MasterBridge::trace(WaveRing& ring) {
  ring.add_all(
      "m_axi_",
      format("arvalid arready rvalid rready rlast awvalid awready wvalid wready wlast bvalid bready arid:0 "
             "araddr:0 arlen:8 arsize:3 arburst:2 rid:0 rdata:%u rresp:2 awid:0 awaddr:0 awlen:8 awsize:3 "
             "awburst:2 wdata:%u wstrb:%u bid:0 bresp:2",
             db_ * 8, db_ * 8, db_),
      {x_.arvalid, x_.arready, x_.rvalid, x_.rready, x_.rlast,   x_.awvalid, x_.awready, x_.wvalid, x_.wready, x_.wlast,
       x_.bvalid,  x_.bready,  x_.arid,   x_.araddr, x_.arlen,   x_.arsize,  x_.arburst, x_.rid,    x_.rdata,  x_.rresp,
       x_.awid,    x_.awaddr,  x_.awlen,  x_.awsize, x_.awburst, x_.wdata,   x_.wstrb,   x_.bid,    x_.bresp});
}

bool Axi4MasterBridge::idle() const {
  if (!rq_.empty() || !awq_.empty() || !wq_.empty() || !bq_.empty()) return false;
  return !(x_.arvalid.get() || x_.awvalid.get() || x_.wvalid.get());
}

void Axi4MasterBridge::drive() {
  const bool on = !s_.in_reset;
  const unsigned d = s_.opt.test_ready_delay, max = s_.opt.max_outstanding;
  const uint64_t n = s_.n;
  x_.arready.set(on && rq_.size() < max && (!d || ar_wait_ >= d));
  x_.awready.set(on && awq_.size() < max && (!d || aw_wait_ >= d));
  x_.wready.set(on && wq_.size() < 256 * max && (!d || w_wait_ >= d));
  if (!rq_.empty() && rq_.front().ready <= n) {
    const ReadBurst& rb = rq_.front();
    const uint64_t a0 = rb.addr + uint64_t(rb.beat) * rb.size;
    const unsigned lane = unsigned(a0 % db_);
    uint64_t v = 0;
    for (unsigned i = 0; i < rb.size; ++i) v |= uint64_t(rb.data[rb.beat * rb.size + i]) << (8 * (lane + i));
    x_.rvalid.set(1);
    x_.rid.set(rb.id);
    x_.rdata.set(v);
    x_.rresp.set(rb.resp);
    x_.rlast.set(rb.beat == rb.len);
  } else {
    x_.rvalid.set(0);
    x_.rlast.set(0);
  }
  if (!bq_.empty() && bq_.front().ready <= n) {
    x_.bvalid.set(1);
    x_.bid.set(bq_.front().id);
    x_.bresp.set(bq_.front().resp);
  } else {
    x_.bvalid.set(0);
  }
}

void Axi4MasterBridge::sample() {
  ar_ = fired(x_.arvalid, x_.arready), aw_ = fired(x_.awvalid, x_.awready), w_ = fired(x_.wvalid, x_.wready);
  r_ = fired(x_.rvalid, x_.rready), b_ = fired(x_.bvalid, x_.bready);
  if (ar_) ar_sample_ = sample_addr(x_.arid, x_.araddr, x_.arlen, x_.arsize, x_.arburst);
  if (aw_) aw_sample_ = sample_addr(x_.awid, x_.awaddr, x_.awlen, x_.awsize, x_.awburst);
  if (w_) w_sample_ = {x_.wdata.get(), x_.wstrb.get(), bool(x_.wlast.get())};
}

tlm::tlm_generic_payload& Axi4MasterBridge::payload(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  set_access(gp_, cmd, addr, data, len);  // platform/payload.h
  info_.initiator = s_.env.initiator;
  info_.uncached = true;
  info_.side = Side::Other;
  info_.may_wait = true;
  gp_.set_extension(&info_);  // cleared after the call (send)
  return gp_;
}

void Axi4MasterBridge::send(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
  const sc_core::sc_time t0 = sc_core::sc_time_stamp() + d;
  s_.env.mem(gp, d);
  gp.clear_extension<AccessInfo>();
  // A span per burst on the block's memory track, from the handshake to the data's arrival.
  if (!s_.owner || !s_.owner->in_run()) return;
  const sc_core::sc_time end = sc_core::sc_time_stamp() + d;
  const uint64_t addr = gp.get_address();
  if (s_.mem_track.on(s_.owner->tracer()))  // "ok" is a JSON boolean, which TraceArgs does not write
    s_.owner->tracer().span(s_.mem_track.name(),
                            format("%s %u B", gp.is_read() ? "read" : "write", gp.get_data_length()), t0, end - t0,
                            TraceArgs().add("addr", addr).add("size", gp.get_data_length()).str() +
                                (gp.is_response_ok() ? ",\"ok\":true" : ",\"ok\":false"));
  if (s_.owner->debug_on(DebugFlag::Rtl))
    s_.owner->debug_print(DebugFlag::Rtl, format("AXI4 %s burst of %u B at 0x%" PRIx64 " took %s: %s",
                                                 gp.is_read() ? "read" : "write", gp.get_data_length(), addr,
                                                 (end - t0).to_string().c_str(), gp.get_response_string().c_str()));
}

void Axi4MasterBridge::read(const BurstAddr& a) {
  if (auto v = checker_.check_burst("AXI4 AR", a)) {
    s_.violated(*v);  // not relaxable: the bridge cannot issue it
    return;
  }
  if (auto v = Axi4MasterChecker::check_4k("AXI4 AR", a); v && s_.violated(*v)) return;
  ReadBurst rb{a.id, a.addr, a.len, 1u << a.size_code, {}, 0, 0};
  rb.data.assign(size_t(a.len + 1) * rb.size, 0);
  auto& gp = payload(tlm::TLM_READ_COMMAND, a.addr, rb.data.data(), unsigned(rb.data.size()));
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  send(gp, d);
  rb.resp = resp_of(gp);
  rb.ready = s_.n + s_.clock().cycles_for(sc_core::sc_time_stamp() - t0 + d);
  rq_.push_back(std::move(rb));
}

void Axi4MasterBridge::write_complete_bursts() {
  while (!awq_.empty()) {
    const WriteBurst& aw = awq_.front();
    size_t last = 0;
    bool found = false;
    const bool ignore_wlast = s_.relax.relaxed(Rule::Wlast);  // the burst is AWLEN + 1 beats
    for (size_t i = 0; i < wq_.size(); ++i)
      if ((wq_[i].last && !ignore_wlast) || i == aw.len) {
        last = i;
        found = true;
        break;
      }
    if (!found) return;
    const BurstAddr a{aw.id, aw.addr, aw.len, 0, 1};
    if (ignore_wlast)
      for (size_t i = 0; i < last; ++i)  // an early WLAST inside the burst (relaxed: counted once per burst)
        if (wq_[i].last && !s_.violated(*Axi4MasterChecker::check_wlast(a, i, true))) break;
    if (auto v = Axi4MasterChecker::check_wlast(a, last, wq_[last].last); v && s_.violated(*v)) return;
    std::vector<uint8_t> data(size_t(aw.len + 1) * aw.size), be(data.size());
    for (unsigned i = 0; i <= aw.len; ++i) {
      const unsigned lane = unsigned((aw.addr + uint64_t(i) * aw.size) % db_);
      for (unsigned k = 0; k < aw.size; ++k) {
        data[i * aw.size + k] = uint8_t(wq_[i].data >> (8 * (lane + k)));
        be[i * aw.size + k] = ((wq_[i].strb >> (lane + k)) & 1) ? 0xff : 0;
      }
    }
    if (s_.env.wrote) s_.env.wrote(aw.addr, data, be);
    unsigned resp = 0;
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    for (size_t i = 0; i < data.size();) {  // one transaction per run of enabled bytes
      if (!be[i]) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < data.size() && be[j]) ++j;
      auto& gp = payload(tlm::TLM_WRITE_COMMAND, aw.addr + i, &data[i], unsigned(j - i));
      send(gp, d);
      resp = std::max(resp, resp_of(gp));
      i = j;
    }
    bq_.push_back({aw.id, resp, s_.n + s_.clock().cycles_for(sc_core::sc_time_stamp() - t0 + d), aw.addr});
    wq_.erase(wq_.begin(), wq_.begin() + long(aw.len) + 1);
    awq_.pop_front();
  }
}

void Axi4MasterBridge::act() {
  if (r_) {
    ReadBurst& rb = rq_.front();
    if (rb.beat++ == rb.len) rq_.pop_front();
  }
  if (b_) bq_.pop_front();
  if (ar_) read(ar_sample_);
  if (s_.failed) return;
  if (aw_) {
    if (auto v = checker_.check_burst("AXI4 AW", aw_sample_)) {
      s_.violated(*v);
      return;
    }
    if (auto v = Axi4MasterChecker::check_4k("AXI4 AW", aw_sample_); v && s_.violated(*v)) return;
    awq_.push_back({aw_sample_.id, aw_sample_.addr, aw_sample_.len, 1u << aw_sample_.size_code});
  }
  if (w_) wq_.push_back(w_sample_);
  if (aw_ || w_) write_complete_bursts();
  if (s_.failed) return;
  ar_wait_ = (x_.arvalid.get() && !ar_) ? ar_wait_ + 1 : 0;
  aw_wait_ = (x_.awvalid.get() && !aw_) ? aw_wait_ + 1 : 0;
  w_wait_ = (x_.wvalid.get() && !w_) ? w_wait_ + 1 : 0;
  // the block must take its responses
  const bool r_waiting = !rq_.empty() && rq_.front().ready <= s_.n && !r_;
  const bool b_waiting = !bq_.empty() && bq_.front().ready <= s_.n && !b_;
  if (auto v = checker_.check_responses_taken(r_waiting, r_waiting ? rq_.front().addr : 0, b_waiting,
                                              b_waiting ? bq_.front().addr : 0))
    s_.violated(*v);
}

}  // namespace hetvp::rtl
