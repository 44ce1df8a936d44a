// hetvp — RtlCore: clock, bridges, checkers and waveforms around a Verilated block (rtl_block.h).
#include "rtl/bridges/rtl_block.h"

#include <cinttypes>
#include <fstream>
#include <sstream>

#include "platform/access_info.h"
#include "platform/format.h"
#include "platform/run_state.h"
#include "rtl/bridges/protocol.h"

namespace hetvp::rtl {

namespace {

struct LiteReq {
  bool write = false;
  uint32_t addr = 0, wdata = 0, wstrb = 0;
  sc_core::sc_time arrival;
  uint64_t presented = 0;
  bool is_presented = false, aw_done = false, w_done = false, ar_done = false, apb_access = false, complete = false;
  uint32_t rdata = 0;
  unsigned resp = 0;
  sc_core::sc_event done;
};

struct ReadBurst {
  uint64_t id, addr;
  unsigned len, size;
  std::vector<uint8_t> data;
  unsigned resp;
  uint64_t ready;
  unsigned beat = 0;
};
struct WriteAddr {
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
};

unsigned resp_of(const tlm::tlm_generic_payload& gp) {
  if (gp.is_response_ok()) return 0;
  return gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE ? 3 : 2;  // DECERR : SLVERR
}

}  // namespace

struct RtlCore::Impl {
  const RtlBlockType& type;
  BlockEnv env;
  RtlOptions opt;
  std::unique_ptr<VerilatedBlock> b;
  const Clock& clk;
  unsigned db = 8;  // AXI4 master data bytes
  uint64_t n = 0;   // current cycle
  bool stopped = true, failed = false, in_reset = true;
  sc_core::sc_event wake, never;
  std::deque<LiteReq*> lite;
  std::deque<ReadBurst> rq;
  std::deque<WriteAddr> awq;
  std::deque<WBeat> wq;
  std::deque<BResp> bq;
  unsigned ar_wait = 0, aw_wait = 0, w_wait = 0;
  uint64_t r_wait = 0, b_wait = 0;
  uint64_t irq_level = 0;
  std::vector<HandshakeChecker> checks;
  WaveRing ring;  // the bus pins of the last ring_cycles cycles
  bool waves_open = false, waves_done = false;

  Impl(const RtlBlockType& t, BlockEnv e, RtlOptions o, const Clock& c)
      : type(t), env(std::move(e)), opt(std::move(o)), clk(c), ring(opt.ring_cycles) {
    b = type.create((env.instance + ".rtl").c_str());
    if (type.master) db = b->axi.wdata.bytes;
    setup_checks();
    setup_traced();
  }

  void setup_checks() {
    if (type.bus == "axi4lite") {
      auto& a = b->axil;
      checks.push_back(HandshakeChecker{"AXI4-Lite B", a.bvalid, a.bready, {{"BRESP", a.bresp}}});
      checks.push_back(HandshakeChecker{"AXI4-Lite R", a.rvalid, a.rready, {{"RDATA", a.rdata}, {"RRESP", a.rresp}}});
    }
    if (type.master) {
      auto& x = b->axi;
      checks.push_back(HandshakeChecker{
          "AXI4 AR",
          x.arvalid,
          x.arready,
          {{"ARID", x.arid}, {"ARADDR", x.araddr}, {"ARLEN", x.arlen}, {"ARSIZE", x.arsize}, {"ARBURST", x.arburst}}});
      checks.push_back(HandshakeChecker{
          "AXI4 AW",
          x.awvalid,
          x.awready,
          {{"AWID", x.awid}, {"AWADDR", x.awaddr}, {"AWLEN", x.awlen}, {"AWSIZE", x.awsize}, {"AWBURST", x.awburst}}});
      checks.push_back(
          HandshakeChecker{"AXI4 W", x.wvalid, x.wready, {{"WDATA", x.wdata}, {"WSTRB", x.wstrb}, {"WLAST", x.wlast}}});
    }
  }

  void add(const std::string& name, Pin p, unsigned width) { ring.add(name, p, width); }
  void setup_traced() {
    add("clk", b->clk, 1);
    add("rst_n", b->rst_n, 1);
    if (type.irqs) add("irq", b->irq, type.irqs);
    add("busy", b->busy, 1);
    if (type.bus == "axi4lite") {
      auto& a = b->axil;
      const std::pair<const char*, Pin> one[] = {{"awvalid", a.awvalid}, {"awready", a.awready}, {"wvalid", a.wvalid},
                                                 {"wready", a.wready},   {"bvalid", a.bvalid},   {"bready", a.bready},
                                                 {"arvalid", a.arvalid}, {"arready", a.arready}, {"rvalid", a.rvalid},
                                                 {"rready", a.rready}};
      for (auto& [nm, p] : one) add(std::string("s_axil_") + nm, p, 1);
      add("s_axil_awaddr", a.awaddr, 0);
      add("s_axil_wdata", a.wdata, 32);
      add("s_axil_wstrb", a.wstrb, 4);
      add("s_axil_bresp", a.bresp, 2);
      add("s_axil_araddr", a.araddr, 0);
      add("s_axil_rdata", a.rdata, 32);
      add("s_axil_rresp", a.rresp, 2);
    } else {
      auto& a = b->apb;
      for (auto& [nm, p] : std::initializer_list<std::pair<const char*, Pin>>{{"psel", a.psel},
                                                                              {"penable", a.penable},
                                                                              {"pwrite", a.pwrite},
                                                                              {"pready", a.pready},
                                                                              {"pslverr", a.pslverr}})
        add(std::string("s_apb_") + nm, p, 1);
      add("s_apb_paddr", a.paddr, 0);
      add("s_apb_pwdata", a.pwdata, 32);
      add("s_apb_pstrb", a.pstrb, 4);
      add("s_apb_prdata", a.prdata, 32);
    }
    if (type.master) {
      auto& x = b->axi;
      for (auto& [nm, p] : std::initializer_list<std::pair<const char*, Pin>>{{"arvalid", x.arvalid},
                                                                              {"arready", x.arready},
                                                                              {"rvalid", x.rvalid},
                                                                              {"rready", x.rready},
                                                                              {"rlast", x.rlast},
                                                                              {"awvalid", x.awvalid},
                                                                              {"awready", x.awready},
                                                                              {"wvalid", x.wvalid},
                                                                              {"wready", x.wready},
                                                                              {"wlast", x.wlast},
                                                                              {"bvalid", x.bvalid},
                                                                              {"bready", x.bready}})
        add(std::string("m_axi_") + nm, p, 1);
      add("m_axi_arid", x.arid, 0);
      add("m_axi_araddr", x.araddr, 0);
      add("m_axi_arlen", x.arlen, 8);
      add("m_axi_arsize", x.arsize, 3);
      add("m_axi_arburst", x.arburst, 2);
      add("m_axi_rid", x.rid, 0);
      add("m_axi_rdata", x.rdata, db * 8);
      add("m_axi_rresp", x.rresp, 2);
      add("m_axi_awid", x.awid, 0);
      add("m_axi_awaddr", x.awaddr, 0);
      add("m_axi_awlen", x.awlen, 8);
      add("m_axi_awsize", x.awsize, 3);
      add("m_axi_awburst", x.awburst, 2);
      add("m_axi_wdata", x.wdata, db * 8);
      add("m_axi_wstrb", x.wstrb, db);
      add("m_axi_bid", x.bid, 0);
      add("m_axi_bresp", x.bresp, 2);
    }
  }

  // ---------------------------------------------------------------- failure
  std::string ring_path() const { return opt.ring_file.empty() ? env.instance + "_last_cycles.vcd" : opt.ring_file; }
  void write_ring() {
    ring.write(ring_path(), env.instance,
               format("hetvp: last %" PRIu64 " cycles of %s '%s' before the failure", ring.kept(), env.type.c_str(),
                      env.instance.c_str()),
               clk.period_ps);
  }
  void fail(const std::string& channel, const std::string& rule, uint64_t addr, const std::string& detail = "") {
    if (failed) return;
    failed = true;
    // A register access the block will now never answer gets a SLVERR at once: its initiator's
    // thread returns and unwinds (it would otherwise stay suspended past the end of the run).
    for (LiteReq* h : lite) {
      h->resp = 2;
      h->done.notify();
    }
    lite.clear();
    write_ring();
    std::string msg = format("%s '%s': %s channel: %s, address 0x%" PRIx64 ", at %s (cycle %" PRIu64 ")",
                             env.type.c_str(), env.instance.c_str(), channel.c_str(), rule.c_str(), addr,
                             sc_core::sc_time_stamp().to_string().c_str(), n);
    if (!detail.empty()) msg += "; " + detail;
    if (!ring.empty()) msg += "; last cycles in " + ring_path();
    close_waves();
    RunState::get().fail(env.instance, msg);
  }
  void close_waves() {
    if (waves_open) b->trace_close();
    waves_open = false;
    waves_done = true;
  }

  // ---------------------------------------------------------------- one clock cycle
  bool idle() const {
    if (!lite.empty() || !rq.empty() || !awq.empty() || !wq.empty() || !bq.empty() || irq_level) return false;
    if (type.master && (b->axi.arvalid.get() || b->axi.awvalid.get() || b->axi.wvalid.get())) return false;
    if (b->busy && b->busy.get()) return false;
    return true;
  }

  LiteReq* head() {
    if (lite.empty() || !(lite.front()->arrival < clk.at(n))) return nullptr;
    LiteReq* r = lite.front();
    if (!r->is_presented) {
      r->is_presented = true;
      r->presented = n;
    }
    return r;
  }

  void drive() {
    LiteReq* r = in_reset ? nullptr : head();
    if (type.bus == "axi4lite") {
      auto& a = b->axil;
      a.awvalid.set(r && r->write && !r->aw_done);
      a.awaddr.set(r ? r->addr : 0);
      a.wvalid.set(r && r->write && !r->w_done);
      a.wdata.set(r ? r->wdata : 0);
      a.wstrb.set(r ? r->wstrb : 0);
      a.arvalid.set(r && !r->write && !r->ar_done);
      a.araddr.set(r ? r->addr : 0);
      a.bready.set(1);
      a.rready.set(1);
    } else {
      auto& a = b->apb;
      a.psel.set(r != nullptr);
      a.penable.set(r && r->apb_access);
      a.pwrite.set(r && r->write);
      a.paddr.set(r ? r->addr : 0);
      a.pwdata.set(r ? r->wdata : 0);
      a.pstrb.set(r && r->write ? r->wstrb : 0);
    }
    if (type.master) {
      auto& x = b->axi;
      const unsigned d = opt.test_ready_delay;
      x.arready.set(!in_reset && rq.size() < opt.max_outstanding && (!d || ar_wait >= d));
      x.awready.set(!in_reset && awq.size() < opt.max_outstanding && (!d || aw_wait >= d));
      x.wready.set(!in_reset && wq.size() < 256 * opt.max_outstanding && (!d || w_wait >= d));
      if (!rq.empty() && rq.front().ready <= n) {
        const ReadBurst& rb = rq.front();
        const uint64_t a0 = rb.addr + uint64_t(rb.beat) * rb.size;
        const unsigned lane = unsigned(a0 % db);
        uint64_t v = 0;
        for (unsigned i = 0; i < rb.size; ++i) v |= uint64_t(rb.data[rb.beat * rb.size + i]) << (8 * (lane + i));
        x.rvalid.set(1);
        x.rid.set(rb.id);
        x.rdata.set(v);
        x.rresp.set(rb.resp);
        x.rlast.set(rb.beat == rb.len);
      } else {
        x.rvalid.set(0);
        x.rlast.set(0);
      }
      if (!bq.empty() && bq.front().ready <= n) {
        x.bvalid.set(1);
        x.bid.set(bq.front().id);
        x.bresp.set(bq.front().resp);
      } else {
        x.bvalid.set(0);
      }
    }
  }

  void check(uint64_t addr_hint) {
    for (HandshakeChecker& c : checks)
      if (auto v = c.check(addr_hint)) return fail(c.channel(), v->rule, v->addr);
  }

  void sample_ring() { ring.sample(n); }

  void waves(uint64_t t_ps) {
    if (opt.waves.empty() || waves_done) return;
    const uint64_t start = Clock::ps(opt.waves_start), stop = Clock::ps(opt.waves_stop);
    if (t_ps < start) return;
    if (stop && t_ps > stop) {
      close_waves();
      return;
    }
    if (!waves_open) {
      b->trace_open(opt.waves);
      waves_open = true;
    }
    b->trace_dump(t_ps);
  }

  // One payload per block: the clock thread issues one transaction at a time (a static one would be
  // shared by blocks whose threads interleave while a target waits).
  tlm::tlm_generic_payload gp_;
  AccessInfo info_;
  tlm::tlm_generic_payload& new_gp(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload& gp = gp_;
    AccessInfo& info = info_;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_byte_enable_length(0);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    info.initiator = env.initiator;
    info.uncached = true;
    info.side = Side::Other;
    info.may_wait = true;
    gp.set_extension(&info);  // cleared after the call (send)
    return gp;
  }
  void send(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    env.mem(gp, d);
    gp.clear_extension<AccessInfo>();
  }

  // Burst rules the bridge checks at AR/AW (AXI4 A3.4): returns false after fail().
  bool burst_ok(const char* ch, uint64_t addr, unsigned len, unsigned size_code, unsigned burst) {
    const unsigned size = 1u << size_code;
    if (burst == 3) return fail(ch, "burst rule: reserved burst type 0b11", addr), false;
    if (burst != 1)
      return fail(ch,
                  format("burst rule: %s bursts are not supported by the bridge (INCR only)", burst ? "WRAP" : "FIXED"),
                  addr),
             false;
    if (size > db)
      return fail(ch, format("burst rule: size %u bytes wider than the %u-byte data bus", size, db), addr), false;
    if (addr % size)
      return fail(ch, format("burst rule: start not aligned to the %u-byte beat size", size), addr), false;
    if ((addr & 0xfff) + uint64_t(len + 1) * size > 0x1000)
      return fail(ch, format("burst rule: %u beats of %u bytes cross a 4 KiB boundary", len + 1, size), addr), false;
    return true;
  }

  // An address handshake's payload, sampled before the rising edge.
  struct Addr {
    uint64_t id, addr;
    unsigned len, size_code, burst;
  };
  static Addr sample(const Pin& id, const Pin& addr, const Pin& len, const Pin& size, const Pin& burst) {
    return {id.get(), addr.get(), unsigned(len.get()), unsigned(size.get()), unsigned(burst.get())};
  }

  void do_read(const Addr& a) {
    const uint64_t addr = a.addr;
    const unsigned len = a.len, sc = a.size_code;
    if (!burst_ok("AXI4 AR", addr, len, sc, a.burst)) return;
    ReadBurst rb{a.id, addr, len, 1u << sc, {}, 0, 0};
    rb.data.assign(size_t(len + 1) * rb.size, 0);
    auto& gp = new_gp(tlm::TLM_READ_COMMAND, addr, rb.data.data(), unsigned(rb.data.size()));
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    send(gp, d);
    rb.resp = resp_of(gp);
    rb.ready = n + clk.cycles_for(sc_core::sc_time_stamp() - t0 + d);
    rq.push_back(std::move(rb));
  }

  // The front AW has all its W beats: perform the write.
  void try_write() {
    while (!awq.empty()) {
      const WriteAddr& aw = awq.front();
      size_t last = 0;
      bool found = false;
      for (size_t i = 0; i < wq.size(); ++i)
        if (wq[i].last || i == aw.len) {
          last = i;
          found = true;
          break;
        }
      if (!found) return;
      if (last != aw.len || !wq[last].last) {
        fail("AXI4 W",
             format("burst rule: WLAST on beat %zu of a burst of %u beats (AWLEN %u)", last + (wq[last].last ? 1 : 0),
                    aw.len + 1, aw.len),
             aw.addr);
        return;
      }
      std::vector<uint8_t> data(size_t(aw.len + 1) * aw.size), be(data.size());
      for (unsigned i = 0; i <= aw.len; ++i) {
        const unsigned lane = unsigned((aw.addr + uint64_t(i) * aw.size) % db);
        for (unsigned k = 0; k < aw.size; ++k) {
          data[i * aw.size + k] = uint8_t(wq[i].data >> (8 * (lane + k)));
          be[i * aw.size + k] = ((wq[i].strb >> (lane + k)) & 1) ? 0xff : 0;
        }
      }
      if (env.wrote) env.wrote(aw.addr, data, be);
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
        auto& gp = new_gp(tlm::TLM_WRITE_COMMAND, aw.addr + i, &data[i], unsigned(j - i));
        send(gp, d);
        resp = std::max(resp, resp_of(gp));
        i = j;
      }
      bq.push_back({aw.id, resp, n + clk.cycles_for(sc_core::sc_time_stamp() - t0 + d)});
      wq.erase(wq.begin(), wq.begin() + long(aw.len) + 1);
      awq.pop_front();
    }
  }

  void complete(LiteReq* r, uint32_t data, unsigned resp) {
    r->rdata = data;
    r->resp = resp;
    r->complete = true;
    lite.pop_front();
    r->done.notify();
  }

  void cycle() {
    drive();
    b->clk.set(0);
    b->eval();
    LiteReq* r = in_reset ? nullptr : head();
    // handshakes at this rising edge
    bool l_aw = false, l_w = false, l_ar = false, l_b = false, l_r = false, apb_done = false;
    uint32_t l_rdata = 0;
    unsigned l_resp = 0;
    if (type.bus == "axi4lite") {
      auto& a = b->axil;
      l_aw = a.awvalid.get() && a.awready.get();
      l_w = a.wvalid.get() && a.wready.get();
      l_ar = a.arvalid.get() && a.arready.get();
      l_b = a.bvalid.get() && a.bready.get();
      l_r = a.rvalid.get() && a.rready.get();
      l_rdata = uint32_t(a.rdata.get());
      l_resp = unsigned(l_b ? a.bresp.get() : a.rresp.get());
    } else if (r && r->apb_access && b->apb.pready.get()) {
      apb_done = true;
      l_rdata = uint32_t(b->apb.prdata.get());
      l_resp = b->apb.pslverr.get() ? 2 : 0;
    }
    bool m_ar = false, m_aw = false, m_w = false, m_r = false, m_b = false;
    if (type.master) {
      auto& x = b->axi;
      m_ar = x.arvalid.get() && x.arready.get();
      m_aw = x.awvalid.get() && x.awready.get();
      m_w = x.wvalid.get() && x.wready.get();
      m_r = x.rvalid.get() && x.rready.get();
      m_b = x.bvalid.get() && x.bready.get();
      if (m_ar) ar_sample = sample(x.arid, x.araddr, x.arlen, x.arsize, x.arburst);
      if (m_aw) aw_sample = sample(x.awid, x.awaddr, x.awlen, x.awsize, x.awburst);
      if (m_w) w_sample = {x.wdata.get(), x.wstrb.get(), bool(x.wlast.get())};
    }
    if (!in_reset) check(r ? r->addr : 0);
    if (failed) return;
    sample_ring();
    waves(n * clk.period_ps - clk.period_ps / 2);
    b->clk.set(1);
    b->eval();
    waves(n * clk.period_ps);
    if (in_reset) return;
    ++counters_cycles;
    // AXI4-Lite / APB target side
    if (type.bus == "axi4lite") {
      if (l_b && !(r && r->write && r->aw_done && r->w_done))
        return fail("AXI4-Lite B", "response ordering: B response with no write in flight", r ? r->addr : 0);
      if (l_r && !(r && !r->write && r->ar_done))
        return fail("AXI4-Lite R", "response ordering: R response with no read in flight", r ? r->addr : 0);
      if (r) {
        if (l_aw) r->aw_done = true;
        if (l_w) r->w_done = true;
        if (l_ar) r->ar_done = true;
        if (l_b || l_r) complete(r, l_rdata, l_resp);
      }
    } else if (r) {
      if (apb_done) {
        complete(r, l_rdata, l_resp);
      } else {
        r->apb_access = true;  // SETUP -> ACCESS
      }
    }
    if (type.master) {
      auto& x = b->axi;
      if (m_r) {
        ReadBurst& rb = rq.front();
        if (rb.beat++ == rb.len) rq.pop_front();
      }
      if (m_b) bq.pop_front();
      if (m_ar) do_read(ar_sample);
      if (failed) return;
      if (m_aw) {
        const Addr& a = aw_sample;
        if (!burst_ok("AXI4 AW", a.addr, a.len, a.size_code, a.burst)) return;
        awq.push_back({a.id, a.addr, a.len, 1u << a.size_code});
      }
      if (m_w) wq.push_back(w_sample);
      if (m_aw || m_w) try_write();
      if (failed) return;
      ar_wait = (x.arvalid.get() && !m_ar) ? ar_wait + 1 : 0;
      aw_wait = (x.awvalid.get() && !m_aw) ? aw_wait + 1 : 0;
      w_wait = (x.wvalid.get() && !m_w) ? w_wait + 1 : 0;
      // the block must take its responses
      r_wait = (!rq.empty() && rq.front().ready <= n && !m_r) ? r_wait + 1 : 0;
      b_wait = (!bq.empty() && bq.front().ready <= n && !m_b) ? b_wait + 1 : 0;
      if (r_wait > opt.timeout_cycles)
        return fail("AXI4 R", format("time-out: RREADY low for %" PRIu64 " cycles", r_wait), rq.front().addr);
      if (b_wait > opt.timeout_cycles)
        return fail("AXI4 B", format("time-out: BREADY low for %" PRIu64 " cycles", b_wait), 0);
    }
    // interrupts
    if (type.irqs) {
      const uint64_t lv = b->irq.get();
      for (unsigned k = 0; k < type.irqs; ++k)
        if (((lv ^ irq_level) >> k) & 1) env.irq(k, (lv >> k) & 1);
      irq_level = lv;
    }
    // the register access must be answered
    if (!lite.empty()) {
      LiteReq* h = lite.front();
      if (h->is_presented && n - h->presented >= opt.timeout_cycles) {
        std::string ch;
        bool req = true;  // waiting for READY (else for the response)
        if (type.bus == "apb") {
          ch = "APB";
        } else if (h->write) {
          ch = !h->aw_done ? "AXI4-Lite AW" : !h->w_done ? "AXI4-Lite W" : "AXI4-Lite B";
          req = !h->aw_done || !h->w_done;
        } else {
          ch = !h->ar_done ? "AXI4-Lite AR" : "AXI4-Lite R";
          req = !h->ar_done;
        }
        fail(ch,
             format("time-out: no %s after %" PRIu64 " cycles (%s of the register access)",
                    type.bus == "apb" ? "PREADY"
                    : req             ? "READY"
                                      : "response",
                    n - h->presented, h->write ? "write" : "read"),
             h->addr);
      }
    }
  }
  uint64_t counters_cycles = 0;
  Addr ar_sample{}, aw_sample{};
  WBeat w_sample{};
};

RtlCore::RtlCore(sc_core::sc_module_name nm, const RtlBlockType& type, BlockEnv env, RtlOptions opt)
    : sc_core::sc_module(nm) {
  clock_ = env.clock;
  impl_ = std::make_unique<Impl>(type, std::move(env), std::move(opt), clock_);
  SC_HAS_PROCESS(RtlCore);
  SC_THREAD(run);
}
RtlCore::~RtlCore() = default;

void RtlCore::run() {
  Impl& m = *impl_;
  // reset: rst_n low for reset_cycles rising edges from cycle 1
  m.b->rst_n.set(0);
  for (m.n = 1; m.n <= m.opt.reset_cycles; ++m.n) {
    clock_.wait_until(m.n);
    m.cycle();
  }
  m.b->rst_n.set(1);
  m.b->eval();
  m.in_reset = false;
  --m.n;
  counters_.cycles = m.opt.reset_cycles;
  for (;;) {
    if (m.failed) sc_core::wait(m.never);
    if (m.idle()) {
      m.stopped = true;
      sc_core::wait(m.wake);
      m.stopped = false;
      ++counters_.wakeups;
      m.n = clock_.next_after(sc_core::sc_time_stamp());
    } else {
      ++m.n;
    }
    clock_.wait_until(m.n);
    m.cycle();
    ++counters_.cycles;
  }
}

uint64_t RtlCore::access(tlm::tlm_generic_payload& gp) {
  Impl& m = *impl_;
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (len == 0 || len > 4 || (addr % 4) + len > 4 || gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return 0;
  }
  LiteReq r;
  r.write = gp.is_write();
  r.addr = uint32_t(addr & ~uint64_t(3));
  const unsigned lane = unsigned(addr % 4);
  uint32_t w = 0;
  if (r.write)
    for (unsigned i = 0; i < len; ++i) w |= uint32_t(gp.get_data_ptr()[i]) << (8 * (lane + i));
  r.wdata = w;
  r.wstrb = ((1u << len) - 1) << lane;
  r.arrival = sc_core::sc_time_stamp();
  m.lite.push_back(&r);
  if (m.stopped) m.wake.notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(r.done);
  if (!r.write)
    for (unsigned i = 0; i < len; ++i) gp.get_data_ptr()[i] = uint8_t(r.rdata >> (8 * (lane + i)));
  gp.set_response_status(r.resp == 0   ? tlm::TLM_OK_RESPONSE
                         : r.resp == 3 ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                       : tlm::TLM_GENERIC_ERROR_RESPONSE);
  return r.presented;
}

void RtlCore::end_of_run() { impl_->close_waves(); }
void RtlCore::write_ring_now() { impl_->write_ring(); }
uint64_t RtlCore::bus_cycles() const { return impl_->counters_cycles; }

}  // namespace hetvp::rtl
