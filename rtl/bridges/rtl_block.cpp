// hetvp — RtlCore: the clock of a Verilated bus block and the bridges it composes (rtl_block.h,
// bus_bridge.h): its register target (AXI4-Lite or APB), its AXI4 master (MASTER axi4), its
// interrupt outputs, and its waveforms (block_waves.h). A bridge's protocol violation stops the run.
#include "rtl/bridges/rtl_block.h"

#include <cinttypes>

#include "platform/format.h"
#include "platform/run_state.h"
#include "rtl/bridges/axi4_master_bridge.h"
#include "rtl/bridges/block_waves.h"
#include "rtl/bridges/register_target.h"

namespace hetvp::rtl {

struct RtlCore::Impl {
  const RtlBlockType& type;
  CoreState s;
  std::unique_ptr<VerilatedBlock> b;
  BlockWaves waves;
  std::unique_ptr<RegisterTarget> target;
  std::unique_ptr<Axi4MasterBridge> master;  // MASTER axi4 only
  std::vector<BusBridge*> bridges;           // target first, then master: the order of every phase
  bool stopped = true;
  sc_core::sc_event wake, never;
  uint64_t irq_level = 0, bus_cycles = 0;

  const RunMember* owner = nullptr;  // the RtlCore: its run is told of a broken bus rule

  Impl(const RtlBlockType& t, BlockEnv e, const RtlBlockConfig& o)
      : type(t),
        s{std::move(e), o},
        b(t.create((s.env.instance + ".rtl").c_str())),
        waves(*b, s.env, s.opt) {
    s.relax = o.relaxed_rules();
    s.violated = [this](const RuleViolation& v) { return violated(v); };
    target = make_register_target(t, *b, s);
    bridges.push_back(target.get());
    if (t.master) {
      master = std::make_unique<Axi4MasterBridge>(b->axi, s);
      bridges.push_back(master.get());
    }
    WaveRing& ring = waves.ring();
    ring.add("clk", b->clk, 1);
    ring.add(t.reset, b->rst, 1);
    if (t.irqs) ring.add("irq", b->irq, t.irqs);
    ring.add("busy", b->busy, 1);
    for (BusBridge* br : bridges) br->trace(ring);
  }

  std::string located(const RuleViolation& v) const {
    return format("%s '%s': %s channel: %s, address 0x%" PRIx64 ", at %s (cycle %" PRIu64 ")", s.env.type.c_str(),
                  s.env.instance.c_str(), v.channel.c_str(), v.text().c_str(), v.addr,
                  sc_core::sc_time_stamp().to_string().c_str(), s.n);
  }

  // A broken rule: a warning (the first time) and false when the block relaxes it; otherwise the
  // run stops, naming the rule, and true.
  bool violated(const RuleViolation& v) {
    const RuleSpec& spec = rule_spec(v.rule);
    if (spec.relaxed && s.relax.relaxed(v.rule)) {
      if (s.relax.count(v.rule)) {
        const std::string msg = located(v) + "; relaxed (relax: [" + spec.id + "]): " + spec.relaxed +
                                "; later breaks are counted (stats: relaxed_" + stat_name(v.rule) + ")";
        SC_REPORT_WARNING("hetvp/rtl", msg.c_str());
      }
      return false;
    }
    if (s.failed) return true;
    s.failed = true;
    target->abort();
    std::string msg = located(v) + waves.write_ring();
    if (spec.relaxed)
      msg +=
          format("; `relax: [%s]` on '%s' makes it a warning while the RTL is fixed", spec.id, s.env.instance.c_str());
    waves.close();
    owner->run_state().fail(s.env.instance, msg);
    return true;
  }

  bool idle() const {
    for (BusBridge* br : bridges)
      if (!br->idle()) return false;
    if (irq_level) return false;
    return !(b->busy && b->busy.get());
  }

  // Each rising edge of an interrupt output raises its vector; a falling edge is reported too.
  void interrupts() {
    if (!type.irqs) return;
    const uint64_t lv = b->irq.get();
    for (unsigned k = 0; k < type.irqs; ++k)
      if (((lv ^ irq_level) >> k) & 1) s.env.irq(k, (lv >> k) & 1);
    irq_level = lv;
  }

  // One rising edge: inputs, outputs settled with clk low, handshakes and checks, the edge, then
  // what the handshakes did, the interrupts, and the register access's time-out.
  void cycle() {
    for (BusBridge* br : bridges) br->drive();
    b->clk.set(0);
    b->eval();
    for (BusBridge* br : bridges) br->sample();
    if (!s.in_reset) {
      const uint64_t hint = target->addr_hint();
      for (BusBridge* br : bridges)
        if (auto v = br->check(hint); v && violated(*v)) return;
    }
    const uint64_t period = s.clock().period_ps;
    waves.sample(s.n);
    waves.dump(s.n * period - period / 2);
    b->clk.set(1);
    b->eval();
    waves.dump(s.n * period);
    if (s.in_reset) return;
    ++bus_cycles;
    for (BusBridge* br : bridges) {
      br->act();
      if (s.failed) return;
    }
    interrupts();
    target->check_timeout();
  }
};

RtlCore::RtlCore(sc_core::sc_module_name nm, const RtlBlockType& type, BlockEnv env, const RtlBlockConfig& opt)
    : sc_core::sc_module(nm) {
  clock_ = env.clock;
  impl_ = std::make_unique<Impl>(type, std::move(env), opt);
  impl_->owner = this;
  impl_->s.owner = this;
  impl_->s.regs_track = TraceTrack(std::string(name()) + ".regs");
  impl_->s.mem_track = TraceTrack(std::string(name()) + ".mem");
  SC_HAS_PROCESS(RtlCore);
  SC_THREAD(run);
}
RtlCore::~RtlCore() = default;

void RtlCore::run() {
  Impl& m = *impl_;
  CoreState& s = m.s;
  // reset: asserted (rst_n low, or the RESET pin at its ACTIVE level) for reset_cycles rising edges from cycle 1
  const bool high = m.type.reset_active_high;
  m.b->rst.set(high);
  for (s.n = 1; s.n <= s.opt.reset_cycles; ++s.n) {
    clock_.wait_until(s.n);
    m.cycle();
  }
  m.b->rst.set(!high);
  m.b->eval();
  s.in_reset = false;
  --s.n;
  counters_.cycles = s.opt.reset_cycles;
  for (;;) {
    if (s.failed) sc_core::wait(m.never);
    if (m.idle()) {
      m.stopped = true;
      sc_core::wait(m.wake);
      m.stopped = false;
      ++counters_.wakeups;
      s.n = clock_.next_after(sc_core::sc_time_stamp());
    } else {
      ++s.n;
    }
    clock_.wait_until(s.n);
    m.cycle();
    ++counters_.cycles;
  }
}

uint64_t RtlCore::access(tlm::tlm_generic_payload& gp, std::function<void(uint64_t)> on_present,
                         uint64_t* responded) {
  Impl& m = *impl_;
  const RegisterWord word = RegisterWord::of(gp);
  if (!word.ok) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return 0;
  }
  RegisterAccess r;
  r.write = gp.is_write();
  r.addr = uint32_t(word.offset);
  r.wdata = r.write ? word.data : 0;
  r.wstrb = word.strobe;
  r.arrival = sc_core::sc_time_stamp();
  r.on_present = std::move(on_present);
  m.target->push(&r);
  if (m.stopped) m.wake.notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(r.done);
  if (responded) *responded = r.responded;
  if (!r.write) RegisterWord::answer_read(gp, r.rdata);
  // A span per register access on the block's register track, from its arrival to its response.
  const uint32_t data = r.write ? r.wdata : r.rdata;
  if (in_run() && m.s.regs_track.on(tracer()))
    tracer().span(m.s.regs_track.name(), format("%s 0x%x", r.write ? "write" : "read", r.addr), r.arrival,
                  sc_core::sc_time_stamp() - r.arrival,
                  TraceArgs()
                      .add("addr", r.addr)
                      .add("data", data)
                      .add("strobe", r.wstrb)
                      .add("presented_cycle", uint64_t(r.presented))
                      .add("resp", r.resp));
  if (in_run())
    HETVP_DEBUG(Rtl, "%s register 0x%x %s 0x%08x (strobe 0x%x), presented at cycle %" PRIu64 ", response %s",
                m.type.bus.c_str(), r.addr, r.write ? "<-" : "->", data, r.wstrb, r.presented,
                r.resp == 0 ? "OKAY" : r.resp == 3 ? "DECERR" : "SLVERR");
  gp.set_response_status(r.resp == 0   ? tlm::TLM_OK_RESPONSE
                         : r.resp == 3 ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                       : tlm::TLM_GENERIC_ERROR_RESPONSE);
  return r.presented;
}

void RtlCore::end_of_run() { impl_->waves.close(); }
void RtlCore::write_ring_now() { impl_->waves.write_ring(); }
uint64_t RtlCore::bus_cycles() const { return impl_->bus_cycles; }
uint64_t RtlCore::cycle() const { return impl_->s.n; }
const RelaxedRules& RtlCore::relaxed() const { return impl_->s.relax; }

std::string stat_name(Rule r) {
  std::string id = rule_spec(r).id;
  for (char& c : id)
    if (c == '.') c = '_';
  return id;
}

}  // namespace hetvp::rtl
