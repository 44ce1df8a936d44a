// The V3D block (v3d.h).
#include "models/qpu/v3d.h"

#include <algorithm>
#include <cstring>

#include "firmware/include/hetvp/v3d_regs.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp::qpu {

HETVP_REGISTER_COMPONENT("v3d", V3d,
                         "VideoCore IV V3D: QPUs (ISS), TMU, VPM with VCD/VDW DMA, semaphores, user-program queue");

// ---------------------------------------------------------------------------------------------
// Construction

void V3dConfig::validate(Diagnostics& d) const {
  if (qpus() % qpus_per_slice())
    d.error(qpus.where() + ": " + std::to_string(qpus()) + " QPUs do not fill whole slices of " +
            std::to_string(qpus_per_slice()) + " (v3d.qpus_per_slice); IDENT1 reports slices x QPUs per slice");
}

V3d::V3d(sc_core::sc_module_name name, const V3dConfig& c)
    : Component(name), hostif_("hostif", *this), arrivals_("arrivals") {
  period_ = c.gpu_freq.period();
  nqpus_ = c.qpus;
  qpus_per_slice_ = c.qpus_per_slice;
  sdram_size_ = c.sdram_size;
  irq_vector_ = c.irq_vector;
  tmu_latency_ = c.tmu.latency;
  tmu_interval_ = c.tmu.interval;
  tmu_queue_ = c.tmu.queue;
  dma_setup_ = c.vpm.dma_setup;
  dma_bytes_per_cycle_ = c.vpm.dma_bytes_per_cycle;
  deadlock_grace_ = c.deadlock_grace;
  trace_instructions_ = c.trace_instructions;
  const unsigned slices = nqpus_ / qpus_per_slice_;
  hostif_.set_ident1(slices << 4 | qpus_per_slice_ << 8 | 2u << 12 | 16u << 16 | 12u << 28);
  for (unsigned i = 0; i < nqpus_; ++i) {
    slots_.emplace_back();
    order_.push_back(&slots_.back());
    slots_[i].core = std::make_unique<QpuCore>(i, *this);
    slots_[i].core->reset(0);
    slots_[i].stats.set_name("qpu" + std::to_string(i));
    slots_[i].track = TraceTrack(std::string(this->name()) + ".qpu" + std::to_string(i));
  }
  tmu_busy_.resize(size_t(slices) * 2);
  vpm_.assign(kVpmRows * 16, 0);
  expose_target("regs", hostif_.regs);
  expose_initiator("mem", mem);
  expose_irq_out("irq", irq, true);
  declare_stats();
  SC_HAS_PROCESS(V3d);
  SC_THREAD(run);
}

V3d::~V3d() = default;

void V3d::declare_stats() {
  auto& g = stats();
  g.counter("requests", "count", "user programs requested (SRQPC writes accepted)", requests_)
      .counter("programs", "count", "user programs completed", programs_)
      .value("instructions", "count", "QPU instructions executed (all QPUs)",
             [this] {
               uint64_t n = 0;
               for (auto& s : slots_) n += s.core->instructions;
               return n;
             })
      .value("flops", "count", "floating-point operations (fadd/fsub and fmul, per element) executed",
             [this] {
               uint64_t n = 0;
               for (auto& s : slots_) n += s.core->flops;
               return n;
             })
      .value(
          "kernel_ns", "ns", "from the first program start to the last program end",
          [this] { return first_start_ == UINT64_MAX ? 0.0 : at_cycle(last_end_ - first_start_).to_seconds() * 1e9; })
      .value("gflops", "GFLOP/s", "flops / kernel_ns",
             [this] {
               uint64_t n = 0;
               for (auto& s : slots_) n += s.core->flops;
               const double t = first_start_ == UINT64_MAX ? 0.0 : at_cycle(last_end_ - first_start_).to_seconds();
               return t > 0 ? double(n) / t / 1e9 : 0.0;
             })
      .counter("tmu_requests", "count", "direct-addressed TMU requests (16 elements each)", tmu_total_)
      .counter("vcd_loads", "count", "VCD DMA loads (SDRAM -> VPM)", vcd_)
      .counter("vcd_bytes", "bytes", "bytes loaded by VCD DMA", vcd_bytes_)
      .counter("vdw_stores", "count", "VDW DMA stores (VPM -> SDRAM)", vdw_)
      .counter("vdw_bytes", "bytes", "bytes stored by VDW DMA", vdw_bytes_)
      .counter("semaphore_ops", "count", "semaphore increments and decrements that completed", sem_ops_)
      .counter("interrupts", "count", "QPU host interrupts (host_int writes)", interrupts_);
  for (auto& s : slots_) {
    QpuCore& c = *s.core;
    s.stats.counter("instructions", "count", "instructions executed", c.instructions)
        .counter("flops", "count", "floating-point operations executed", c.flops)
        .counter("alu_ops", "count", "instructions with an active add or mul operation", c.alu_ops)
        .counter("busy_cycles", "cycles", "clocks running programs", s.busy_cycles)
        .counter("stall_cycles", "cycles", "clocks waiting for TMU data, VPM or DMA", c.stall_cycles)
        .counter("tmu_wait_cycles", "cycles", "clocks stalled on ldtmu until the TMU data is there", c.tmu_stall_cycles)
        .counter("vpm_wait_cycles", "cycles", "clocks stalled on VCD/VDW DMA (vr_wait, vw_wait, a second DMA)",
                 c.vpm_stall_cycles)
        .counter("semaphore_wait_cycles", "cycles", "clocks blocked on a semaphore or the mutex", s.sem_wait_cycles)
        .counter("programs", "count", "programs run", s.programs)
        .counter("tmu_requests", "count", "TMU requests", s.tmu_requests)
        .counter("vpm_dmas", "count", "VCD/VDW DMA transfers started", s.vpm_dmas)
        .counter("blocked", "count", "times the QPU blocked on a semaphore or the mutex", s.sem_blocks);
    g.add(s.stats);
  }
}

uint64_t V3d::cycle_at(const sc_core::sc_time& t) const {
  const uint64_t p = period_.value();
  return (t.value() + p - 1) / p;
}

uint64_t V3d::reserve(Calendar& c, uint64_t at, uint64_t len) {
  return cycle_at(c.reserve(at_cycle(at), at_cycle(len)));
}

sc_core::sc_time V3d::delay_to(uint64_t c) const {
  const sc_core::sc_time t = at_cycle(c), now = sc_core::sc_time_stamp();
  return t > now ? t - now : sc_core::SC_ZERO_TIME;
}

// ---------------------------------------------------------------------------------------------
// Scheduling

void V3d::request(uint32_t pc, uint32_t unif, uint32_t unif_len, const sc_core::sc_time& delay) {
  arrivals_.at(delay, [this, pc, unif, unif_len] {
    if (queue_.size() >= V3D_SRQ_MAX) {
      queue_error_ = true;
      return;
    }
    queue_.push_back({pc, unif, unif_len});
    ++made_;
    ++requests_;
    dispatch();
  });
}

void V3d::dispatch() {
  for (auto& s : slots_) {
    if (queue_.empty()) break;
    if (s.busy) continue;
    const Request r = queue_.front();
    queue_.pop_front();
    QpuCore& q = *s.core;
    q.reset(r.pc);
    q.cycle = cycle_at(sc_core::sc_time_stamp());
    s.busy = true;
    s.blocked = false;
    s.unif = r.unif;
    s.tmu[0].count = s.tmu[1].count = 0;
    s.rd = s.wr = GenericSetup{};
    s.rd_queue.clear();
    s.rd_left = 0;
    s.ld_done = s.st_done = q.cycle;
    s.start_cycle = q.cycle;
    s.program_pc = r.pc;
    s.traced = 0;
    first_start_ = std::min(first_start_, q.cycle);
    wake_.notify(sc_core::SC_ZERO_TIME);
    run_state().progress();
    ++changes_;
  }
}

void V3d::run() {
  const sc_core::sc_time quantum = tlm::tlm_global_quantum::instance().get();
  for (;;) {
    if (failed_) return;
    bool busy = false, any_blocked = false;
    uint64_t min_cycle = UINT64_MAX;
    for (auto& s : slots_) {
      if (!s.busy) continue;
      busy = true;
      if (s.blocked)
        any_blocked = true;
      else if (s.core->running())
        min_cycle = std::min(min_cycle, s.core->cycle);
    }
    if (!busy) {
      sc_core::wait(wake_);
      continue;
    }
    if (min_cycle == UINT64_MAX) {  // nothing runnable: finishing, or blocked
      const uint64_t before = changes_;
      sc_core::wait(any_blocked ? deadlock_grace_ : quantum, wake_);
      if (!any_blocked || changes_ != before) continue;
      bool still = true;
      std::string who;
      for (auto& s : slots_) {
        if (!s.busy) continue;
        if (!s.blocked) still = false;
        who += format(" qpu%u at pc 0x%08x (%s);", s.core->index(), s.core->pc(), s.blocked_on.c_str());
      }
      if (!still) continue;
      failed_ = true;
      run_state().fail(name(), "deadlock: every running QPU is blocked and nothing can release them:" + who);
      return;
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (auto& c : tmu_busy_) c.forget_before(now - std::min(now, quantum));
    vcd_busy_.forget_before(now - std::min(now, quantum));
    vdw_busy_.forget_before(now - std::min(now, quantum));
    uint64_t horizon = cycle_at(now + (quantum > sc_core::SC_ZERO_TIME ? quantum : period_ * 256.0));
    // Nothing runs past work due at a known time (a queued request, a completion): QPUs then
    // meet each other and the shared engines in time order, whatever the quantum.
    const sc_core::sc_time due = arrivals_.next_due();
    if (due != sc_core::sc_max_time()) horizon = std::min(horizon, cycle_at(due));
    run_until(horizon);
    if (failed_) return;
    uint64_t next = UINT64_MAX;
    for (auto& s : slots_)
      if (s.busy && !s.blocked && s.core->running()) next = std::min(next, s.core->cycle);
    if (next == UINT64_MAX) continue;
    const sc_core::sc_time t = at_cycle(next), now2 = sc_core::sc_time_stamp();
    if (t > now2)
      sc_core::wait(t - now2, wake_);
    else
      sc_core::wait(sc_core::SC_ZERO_TIME);
  }
}

void V3d::run_until(uint64_t horizon) {
  const bool tracing = trace_instructions_ && tracer().enabled();
  for (;;) {
    Slot* best = nullptr;
    uint64_t first = UINT64_MAX, second = UINT64_MAX;
    for (Slot* s : order_) {
      if (!s->busy || s->blocked || !s->core->running()) continue;
      const uint64_t c = s->core->cycle;
      if (c < first) {
        second = first;
        first = c;
        best = s;
      } else if (c < second) {
        second = c;
      }
    }
    if (!best || first >= horizon) return;
    const uint64_t limit = std::min(second == UINT64_MAX ? UINT64_MAX : second + 1, horizon);
    QpuCore& q = *best->core;
    try {
      // Past the next QPU's time, run on only while the instructions touch nothing shared.
      while (q.cycle < horizon && (q.cycle < limit || !next_shared(*best, q))) {
        const uint64_t c0 = q.cycle;
        const uint32_t pc0 = q.pc();
        const QpuCore::Status st = q.step();
        if (tracing && best->traced < trace_instructions_ && st != QpuCore::Status::Blocked) {
          ++best->traced;
          if (best->track.on(tracer()))
            tracer().span(best->track.name(), disassemble(fetch(q, pc0).raw, pc0), at_cycle(c0),
                          at_cycle(q.cycle - c0));
        }
        if (st == QpuCore::Status::Ran) continue;
        if (st == QpuCore::Status::Blocked) {
          best->blocked = true;
          ++best->sem_blocks;
        } else {
          ended(*best);
        }
        break;
      }
    } catch (const QpuFault& e) {
      fault(*best, e.what());
      return;
    }
  }
}

bool V3d::next_shared(Slot& s, QpuCore& q) {
  const uint32_t pc = q.pc();
  if (s.page && s.page_base == (pc & ~0xfffu) && !(pc & 7)) return (*s.page)[(pc & 0xfff) >> 3].shared;
  return fetch(q, pc).shared;
}

void V3d::ended(Slot& s) {
  QpuCore& q = *s.core;
  s.busy_cycles += q.cycle - s.start_cycle;
  ++s.programs;
  last_end_ = std::max(last_end_, q.cycle);
  if (s.track.on(tracer()))
    tracer().span(s.track.name(), format("program 0x%08x", s.program_pc), at_cycle(s.start_cycle),
                  at_cycle(q.cycle - s.start_cycle));
  Slot* sp = &s;
  arrivals_.at(delay_to(q.cycle), [this, sp] {
    sp->busy = false;
    ++completed_;
    ++programs_;
    run_state().progress();
    ++changes_;
    dispatch();
    wake_.notify(sc_core::SC_ZERO_TIME);
  });
}

void V3d::fault(Slot& s, const std::string& why) {
  QpuCore& q = *s.core;
  std::string instr = "?";
  auto it = code_.find(q.pc() & ~0xfffu);
  if (it != code_.end()) instr = disassemble(it->second[(q.pc() & 0xfff) >> 3].raw, q.pc());
  failed_ = true;
  run_state().fail(std::string(name()) + ".qpu" + std::to_string(q.index()),
                       format("pc 0x%08x `%s`: %s", q.pc(), instr.c_str(), why.c_str()));
}

void V3d::wake_blocked(const std::string& on, uint64_t cycle) {
  for (auto& s : slots_) {
    if (s.busy && s.blocked && s.blocked_on == on) {
      s.blocked = false;
      if (cycle > s.core->cycle) s.sem_wait_cycles += cycle - s.core->cycle;
      s.core->cycle = std::max(s.core->cycle, cycle);
      run_state().progress();
      ++changes_;
    }
  }
}

void V3d::end_of_run() {}

uint64_t V3d::perf_source(uint32_t src, uint64_t now) const {
  uint64_t n = 0;
  for (const auto& s : slots_) {
    const QpuCore& q = *s.core;
    switch (src) {
      case V3D_PCTR_SRC_QPU_IDLE: {  // clocks not running a program, up to `now`
        uint64_t busy = s.busy_cycles;
        if (s.busy) busy += std::min(q.cycle, now) - std::min(s.start_cycle, now);
        n += now > busy ? now - busy : 0;
        break;
      }
      case V3D_PCTR_SRC_QPU_VALID:
        n += q.instructions * 4;
        break;
      case V3D_PCTR_SRC_QPU_TMU_STALL:
        n += q.tmu_stall_cycles;
        break;
      case V3D_PCTR_SRC_TMU_QUADS:
        n += s.tmu_requests * 4;
        break;
      default:  // graphics-pipeline sources: no binner, renderer, tile buffer or caches modelled
        break;
    }
  }
  return n;
}

void V3d::clear_instruction_cache() {
  code_.clear();
  for (auto& s : slots_) {
    s.page = nullptr;
    s.page_base = 0xffffffffu;
    s.core->set_code_window(nullptr, 0, 0);
  }
}

// ---------------------------------------------------------------------------------------------
// QpuIo

const Instr& V3d::fetch(QpuCore& q, uint32_t pc) {
  Slot& s = slot(q);
  const uint32_t base = pc & ~0xfffu;
  if (s.page_base != base || !s.page) {
    if (pc & 7) throw QpuFault(format("instruction fetch at 0x%08x: not 8-byte aligned", pc));
    if (uint64_t(pc & kBusAliasMask) + 8 > sdram_size_)
      throw QpuFault(format("instruction fetch at 0x%08x outside SDRAM (0x0..0x%llx): the program ran off its code?",
                            pc, static_cast<unsigned long long>(sdram_size_ - 1)));
    auto it = code_.find(base);
    if (it == code_.end()) {
      const unsigned len = unsigned(std::min<uint64_t>(4096, sdram_size_ - (base & kBusAliasMask)));
      std::vector<uint64_t> raw(512, 0);
      mem_read(base, raw.data(), len, "instruction fetch");
      std::vector<Instr> page(512);
      for (unsigned i = 0; i < 512; ++i) page[i] = decode(raw[i]);
      it = code_.emplace(base, std::move(page)).first;
      for (auto& o : slots_) o.page = nullptr;  // other slots re-find their page
    }
    s.page = &it->second;
    s.page_base = base;
    q.set_code_window(s.page->data(), base, 4096);
  }
  if (pc & 7) throw QpuFault(format("instruction fetch at 0x%08x: not 8-byte aligned", pc));
  if (uint64_t(pc & kBusAliasMask) + 8 > sdram_size_)
    throw QpuFault(format("instruction fetch at 0x%08x outside SDRAM: the program ran off its code?", pc));
  return (*s.page)[(pc & 0xfff) >> 3];
}

uint32_t V3d::uniform(QpuCore& q) {
  Slot& s = slot(q);
  uint32_t v;
  mem_read(s.unif, &v, 4, "uniform read");
  s.unif += 4;
  return v;
}

void V3d::uniforms_address(QpuCore& q, uint32_t addr) { slot(q).unif = addr; }

void V3d::tmu_request(QpuCore& q, unsigned tmu, const Vec& addr, const uint8_t* mask) {
  Slot& s = slot(q);
  Tmu& t = s.tmu[tmu];
  if (t.count >= tmu_queue_)
    throw QpuFault(
        format("TMU%u request with %u requests outstanding (the queue holds %u): read results with ldtmu%u first", tmu,
               t.count, tmu_queue_, tmu));
  Tmu::Req r;
  // The lanes of one request mostly fall in one DMI region: look it up once, not per lane.
  uint64_t lo = 1, hi = 0;  // the region of the last lane served by DMI: [lo, hi]
  uint8_t* base = nullptr;  // its pointer, for address lo
  for (unsigned i = 0; i < kLanes; ++i) {
    r.data.v[i] = 0;
    if (!mask[i]) continue;
    const uint32_t a = addr.v[i];
    if (a & 3) throw QpuFault(format("TMU%u lookup of element %u at 0x%08x: not 32-bit aligned", tmu, i, a));
    const uint32_t pa = a & kBusAliasMask;
    if (pa >= lo && uint64_t(pa) + 3 <= hi && uint64_t(pa) + 4 <= sdram_size_) {
      std::memcpy(&r.data.v[i], base + (pa - lo), 4);
      continue;
    }
    const int reg = uint64_t(pa) + 4 <= sdram_size_ ? dmi_region(pa, 4) : -1;
    if (reg >= 0) {
      const tlm::tlm_dmi& d = dmi_[static_cast<size_t>(reg)];
      lo = d.get_start_address();
      hi = d.get_end_address();
      base = d.get_dmi_ptr();
      std::memcpy(&r.data.v[i], base + (pa - lo), 4);
    } else {
      mem_read(a, &r.data.v[i], 4, tmu ? "TMU1 lookup" : "TMU0 lookup");
    }
  }
  const unsigned slice = q.index() / qpus_per_slice_;
  const uint64_t start = reserve(tmu_busy_[slice * 2 + tmu], q.cycle, tmu_interval_);
  r.ready = start + tmu_latency_;
  t.push(r);
  ++s.tmu_requests;
  ++tmu_total_;
}

void V3d::tmu_load(QpuCore& q, unsigned tmu, Vec& out) {
  Tmu& t = slot(q).tmu[tmu];
  if (t.count == 0) throw QpuFault(format("ldtmu%u with no TMU%u request outstanding", tmu, tmu));
  const Tmu::Req& r = t.front();
  if (r.ready > q.cycle) {
    q.stall_cycles += r.ready - q.cycle;
    q.tmu_stall_cycles += r.ready - q.cycle;
    q.cycle = r.ready;
  }
  out = r.data;
  t.pop();
}

unsigned V3d::vpm_index(const GenericSetup& g, unsigned lane, const char* what) {
  unsigned row, col;
  if (g.horiz) {
    row = g.addr & 0xff;
    col = lane;
  } else {
    row = ((g.addr >> 4) & 0xf) * 16 + lane;
    col = g.addr & 0xf;
  }
  if (row >= kVpmRows)
    throw QpuFault(
        format("%s of VPM row %u (address 0x%02x): the VPM has %u rows", what, row, g.addr & 0xff, kVpmRows));
  return row * 16 + col;
}

namespace {
// A generic (QPU) VPM read or write setup word.
void parse_generic(uint32_t v, unsigned& addr, unsigned& stride, unsigned& num, bool& horiz) {
  if (((v >> 8) & 3) != 2) throw QpuFault(format("VPM setup 0x%08x: only 32-bit VPM access (SIZE = 2) is modelled", v));
  addr = v & 0xff;
  horiz = (v >> 11) & 1;
  stride = (v >> 12) & 0x3f;
  if (!stride) stride = 64;
  num = (v >> 20) & 0xf;
  if (!num) num = 16;
}
}  // namespace

void V3d::settle_loads(uint64_t cycle) {
  if (loads_.empty()) return;
  auto it =
      std::stable_partition(loads_.begin(), loads_.end(), [cycle](const PendingLoad& l) { return l.done > cycle; });
  for (auto j = it; j != loads_.end(); ++j)
    for (auto& w : j->words) vpm_[w.first] = w.second;
  loads_.erase(it, loads_.end());
}

void V3d::fill_read_queue(Slot& s) {
  while (s.rd_queue.size() < 2 && s.rd.num > 0) {
    Vec v;
    for (unsigned i = 0; i < kLanes; ++i) v.v[i] = vpm_[vpm_index(s.rd, i, "VPM read")];
    s.rd_queue.push_back(v);
    s.rd.addr = (s.rd.addr + s.rd.stride) & 0xff;
    --s.rd.num;
  }
}

void V3d::vpm_setup(QpuCore& q, bool store, uint32_t v) {
  Slot& s = slot(q);
  if (!store) {
    if (v >> 31) {
      if (((v >> 28) & 0xf) == 9)
        s.vcd_pitchb = v & 0x1fff;
      else
        s.vcd_setup = v;
      return;
    }
    if ((v >> 30) != 0) throw QpuFault(format("VPM read setup 0x%08x: reserved ID", v));
    GenericSetup g;
    parse_generic(v, g.addr, g.stride, g.num, g.horiz);
    g.set = true;
    s.rd = g;
    s.rd_left = g.num;
    s.rd_queue.clear();
    settle_loads(q.cycle);
    fill_read_queue(s);  // the queue of 2 fills at once: a load not yet done is not seen
    return;
  }
  switch (v >> 30) {
    case 0: {
      GenericSetup g;
      parse_generic(v, g.addr, g.stride, g.num, g.horiz);
      g.set = true;
      s.wr = g;
      return;
    }
    case 2:
      s.vdw_setup = v;
      return;
    case 3:
      if (v & 0x10000) throw QpuFault(format("VDW setup 0x%08x: block mode is not modelled", v));
      s.vdw_stride = v & 0xffff;
      return;
    default:
      throw QpuFault(format("VPM write setup 0x%08x: reserved ID", v));
  }
}

void V3d::vpm_read(QpuCore& q, Vec& out) {
  Slot& s = slot(q);
  if (s.rd_left == 0) throw QpuFault("VPM read with no rows left in the read setup (NUM) — set up vr_setup first");
  out = s.rd_queue.front();
  s.rd_queue.pop_front();
  --s.rd_left;
  settle_loads(q.cycle);
  fill_read_queue(s);
}

void V3d::vpm_write(QpuCore& q, const Vec& in, const uint8_t* mask) {
  Slot& s = slot(q);
  if (!s.wr.set) throw QpuFault("VPM write without a write setup (vw_setup)");
  settle_loads(q.cycle);
  for (unsigned i = 0; i < kLanes; ++i)
    if (mask[i]) vpm_[vpm_index(s.wr, i, "VPM write")] = in.v[i];
  s.wr.addr = (s.wr.addr + s.wr.stride) & 0xff;
}

void V3d::vpm_dma(QpuCore& q, bool store, uint32_t addr) {
  Slot& s = slot(q);
  uint64_t& done = store ? s.st_done : s.ld_done;
  if (done > q.cycle) {  // one DMA each way per QPU: the next waits for the last
    q.stall_cycles += done - q.cycle;
    q.vpm_stall_cycles += done - q.cycle;
    q.cycle = done;
  }
  const sc_core::sc_time t0 = at_cycle(q.cycle);
  uint64_t bytes = 0;
  if (!store) {
    const uint32_t v = s.vcd_setup;
    if (!v) throw QpuFault("VCD load (vr_addr) without a VCD setup in vr_setup");
    if ((v >> 28) & 7) throw QpuFault(format("VCD setup 0x%08x: only 32-bit (MODEW = 0) loads are modelled", v));
    const unsigned mpitch = (v >> 24) & 0xf, rowlen = ((v >> 20) & 0xf) ? (v >> 20) & 0xf : 16,
                   nrows = ((v >> 16) & 0xf) ? (v >> 16) & 0xf : 16, vpitch = ((v >> 12) & 0xf) ? (v >> 12) & 0xf : 16,
                   vert = (v >> 11) & 1, y = (v >> 4) & 0x7f, x = v & 0xf;
    const uint32_t pitch = mpitch ? 8u << mpitch : s.vcd_pitchb;
    PendingLoad l;
    std::vector<uint32_t> row(rowlen);
    for (unsigned r = 0; r < nrows; ++r) {
      mem_read(addr + r * pitch, row.data(), rowlen * 4, "VPM DMA load (VCD)");
      for (unsigned k = 0; k < rowlen; ++k) {
        const unsigned vr = vert ? y + k : y + r * vpitch, vc = vert ? x + r * vpitch : x + k;
        if (vr >= kVpmRows || vc >= 16)
          throw QpuFault(format("VCD load (setup 0x%08x) reaches VPM row %u column %u, outside 192 x 16", v, vr, vc));
        l.words.emplace_back(vr * 16 + vc, row[k]);
      }
    }
    bytes = uint64_t(nrows) * rowlen * 4;
    const uint64_t xfer = uint64_t(double(bytes) / dma_bytes_per_cycle_ + 0.999999);
    l.done = reserve(vcd_busy_, q.cycle + dma_setup_, xfer) + xfer;
    done = l.done;
    loads_.push_back(std::move(l));
    ++vcd_;
    vcd_bytes_ += bytes;
  } else {
    const uint32_t v = s.vdw_setup;
    if (!v) throw QpuFault("VDW store (vw_addr) without a VDW setup in vw_setup");
    if (v & 7) throw QpuFault(format("VDW setup 0x%08x: only 32-bit (MODEW = 0) stores are modelled", v));
    settle_loads(q.cycle);
    const unsigned units = ((v >> 23) & 0x7f) ? (v >> 23) & 0x7f : 128,
                   depth = ((v >> 16) & 0x7f) ? (v >> 16) & 0x7f : 128, horiz = (v >> 14) & 1, base = (v >> 3) & 0x7ff,
                   y = (base >> 4) & 0x7f, x = base & 0xf;
    std::vector<uint32_t> row(depth);
    for (unsigned u = 0; u < units; ++u) {
      for (unsigned k = 0; k < depth; ++k) {
        const unsigned vr = horiz ? y + u : y + k, vc = horiz ? x + k : x + u;
        if (vr >= kVpmRows || vc >= 16)
          throw QpuFault(format("VDW store (setup 0x%08x) reaches VPM row %u column %u, outside 192 x 16", v, vr, vc));
        row[k] = vpm_[vr * 16 + vc];
      }
      mem_write(addr + u * (depth * 4 + s.vdw_stride), row.data(), depth * 4, "VPM DMA store (VDW)");
    }
    bytes = uint64_t(units) * depth * 4;
    const uint64_t xfer = uint64_t(double(bytes) / dma_bytes_per_cycle_ + 0.999999);
    done = reserve(vdw_busy_, q.cycle + dma_setup_, xfer) + xfer;
    ++vdw_;
    vdw_bytes_ += bytes;
  }
  ++s.vpm_dmas;
  if (s.track.on(tracer()))
    tracer().span(
        s.track.name(),
        format("%s %llu B at 0x%08x", store ? "VDW store" : "VCD load", static_cast<unsigned long long>(bytes), addr),
        t0, at_cycle(done) - t0);
}

void V3d::vpm_wait(QpuCore& q, bool store) {
  Slot& s = slot(q);
  const uint64_t done = store ? s.st_done : s.ld_done;
  if (done > q.cycle) {
    q.stall_cycles += done - q.cycle;
    q.vpm_stall_cycles += done - q.cycle;
    q.cycle = done;
  }
  settle_loads(q.cycle);
}

uint32_t V3d::vpm_busy(QpuCore& q, bool store) {
  Slot& s = slot(q);
  return (store ? s.st_done : s.ld_done) > q.cycle ? 1 : 0;
}

bool V3d::mutex_acquire(QpuCore& q) {
  if (mutex_owner_ < 0 || mutex_owner_ == int(q.index())) {
    mutex_owner_ = int(q.index());
    return true;
  }
  slot(q).blocked_on = "mutex";
  return false;
}

void V3d::mutex_release(QpuCore& q) {
  if (mutex_owner_ != int(q.index()))
    throw QpuFault(mutex_owner_ < 0 ? std::string("releases the mutex, which nobody holds")
                                    : format("releases the mutex held by qpu%d", mutex_owner_));
  mutex_owner_ = -1;
  wake_blocked("mutex", q.cycle);
}

bool V3d::semaphore(QpuCore& q, unsigned n, bool down) {
  if (down) {
    if (sem_[n] == 0) {
      slot(q).blocked_on = format("sacq %u: semaphore %u is 0", n, n);
      return false;
    }
    --sem_[n];
    wake_blocked(format("srel %u: semaphore %u is 15", n, n), q.cycle);
  } else {
    if (sem_[n] == 15) {
      slot(q).blocked_on = format("srel %u: semaphore %u is 15", n, n);
      return false;
    }
    ++sem_[n];
    wake_blocked(format("sacq %u: semaphore %u is 0", n, n), q.cycle);
  }
  ++sem_ops_;
  return true;
}

void V3d::host_interrupt(QpuCore& q) {
  const unsigned idx = q.index();
  arrivals_.at(delay_to(q.cycle), [this, idx] {
    hostif_.dbqitc.value |= 1u << idx;
    ++interrupts_;
    if (hostif_.dbqite.value & (1u << idx)) irq->raise(irq_vector_, sc_core::SC_ZERO_TIME);
  });
}

}  // namespace hetvp::qpu
