// The FIFO block (fifo.h): its registers, bus accesses and errors, the runlist that gives the
// channels the engines, and its statistics. Push-buffer decoding: pushbuf.cpp; the engines'
// methods: engines.cpp.
#include "models/gpu/fifo/fifo.h"

#include <algorithm>
#include <cinttypes>

#include "firmware/include/hetvp/pmc.h"
#include "platform/access_info.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/payload.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp::gpu {

namespace {
const RegSpec kFifoRegs[] = {HETVP_REG_TABLE(HETVP_FIFO_REGS)};
}  // namespace

Fifo::Fifo(sc_core::sc_module_name n, GpuContext& ctx, const FifoConfig& p) : Peripheral(n, kFifoRegs) {
  nchan_ = p.channels;
  timeslice_ = p.timeslice;
  chsw_timeout_ = p.chsw_timeout;
  method_cost_ = p.method_cost;
  fetch_chunk_ = unsigned(p.fetch_chunk) & ~7u;
  engine_poll_ = p.engine_poll;
  acquire_poll_ = p.acquire_poll;
  deadlock_timeout_ = p.deadlock_timeout;
  copy_engine_ = p.copy_engine;
  num_gpcs_ = ctx.num_gpcs;
  chans_.resize(nchan_);
  tracks_.reserve(nchan_);  // decided tracks stay put (TraceTrack)
  for (unsigned i = 0; i < nchan_; ++i) {
    chans_[i].id = i;
    tracks_.emplace_back(std::string(name()) + ".ch" + std::to_string(i));
  }
  bank_.set_reset("CHANNELS", nchan_);
  for (unsigned i = 0; i < FIFO_MAX_CHANNELS; ++i) {
    const std::string s = std::to_string(i);
    bank_.named("CHAN_CTRL" + s).write([this, i](Register&, uint32_t v) { ctrl_written(i, v); });
    bank_.named("GP_PUT" + s).write([this, i](Register&, uint32_t v) { gp_put_written(i, v); });
    bank_.named("CHAN_STATUS" + s).read([this, i](const Register&) { return chan_status(i); });
  }
  for (auto* gp : {&mem_gp_, &inst_gp_, &bar0_gp_}) {
    auto* info = new AccessInfo;
    info->initiator = name();
    info->side = Side::Gpu;
    gp->set_extension(info);
  }
  mem_gp_.set_extension(tag_);
  mem.bind(ctx.gpu_va);
  inst.bind(ctx.vram);
  bar0.bind(ctx.bar0.in);
  intr.bind(ctx.intr);
  const uint64_t base = p.bar0;
  if (base % GPU_WINDOW_FIFO)
    throw ConfigError(p.bar0.where() + ": " + hex(base) + " is not a multiple of the window size " +
                      hex(GPU_WINDOW_FIFO));
  ctx.map_window(p.bar0, "fifo", base, GPU_WINDOW_FIFO, regs);
  ctx.topology("FIFO_BASE", uint32_t(base));
  declare_stats();
  SC_HAS_PROCESS(Fifo);
  SC_THREAD(run);
}

void Fifo::bind(GpuContext& ctx) {
  if (ctx.chsw) {
    chsw.bind(*ctx.chsw);
    has_chsw_ = true;
  }
}

// ---- registers (host side) ----
void Fifo::ctrl_written(unsigned i, uint32_t v) {
  if (i >= nchan_) return;
  Channel& c = chans_[i];
  const uint32_t iw = bank_.at(FIFO_CHAN_INST_N(i)).value;
  if (v & FIFO_CHAN_CTRL_ENABLE) {
    if (c.enabled) return;
    const unsigned id = c.id;
    c = Channel{};
    c.id = id;
    c.enabled = true;
    c.need_ramfc = true;
    c.inst = chan_inst(iw);
    if (!(iw & kChanValid)) {
      c.enabled = false;
      bank_.at(FIFO_CHAN_CTRL_N(i)).value = 0;
      run_state().fail(name(), format("channel %u enabled without a valid instance (CHAN_INST%u = 0x%08x)", i, i, iw));
      return;
    }
    bank_.at(FIFO_GP_GET_N(i)).value = 0;
    bank_.at(FIFO_GP_PUT_N(i)).value = 0;
  } else {
    c.enabled = false;
  }
}

void Fifo::gp_put_written(unsigned i, uint32_t v) {
  if (i >= nchan_) return;
  Channel& c = chans_[i];
  const sc_core::sc_time at = this_access().arrival();
  c.put_pending.emplace_back(at, v);
  HETVP_DEBUG(Fifo, "doorbell: channel %u GP_PUT %u (arrives at %s)", i, v, at.to_string().c_str());
  doorbell_.notify(this_access().delay);  // the FIFO sees the doorbell when the write arrives
}

uint32_t Fifo::chan_status(unsigned i) const {
  if (i >= nchan_) return 0;
  const Channel& c = chans_[i];
  return (c.has_words() ? FIFO_CHAN_PENDING : 0u) | (c.blocked ? FIFO_CHAN_BLOCKED : 0u) |
         (c.failed ? FIFO_CHAN_FAILED : 0u);
}

// ---- bus accesses (at the local time cursor_) ----
bool Fifo::access(tlm_utils::simple_initiator_socket<Fifo>& s, tlm::tlm_generic_payload& gp, tlm::tlm_command cmd,
                  uint64_t addr, void* data, unsigned len) {
  set_access(gp, cmd, addr, data, len);
  sc_core::sc_time d = local();
  s->b_transport(gp, d);
  cursor_ = sc_core::sc_time_stamp() + d;
  return gp.is_response_ok();
}

bool Fifo::mem_access(Channel& c, tlm::tlm_command cmd, uint64_t va, void* data, unsigned len) {
  tag_->valid = true;
  tag_->chid = c.id;
  tag_->inst = c.inst;
  return access(mem, mem_gp_, cmd, va, data, len);
}

// A block's BAR0 position, from PTOP (read once, untimed: configuration, as the driver's).
uint32_t Fifo::ptop(uint32_t reg) {
  uint32_t v = 0;
  set_access(bar0_gp_, tlm::TLM_READ_COMMAND, GPU_PTOP_BASE + reg, &v, 4);
  bar0->transport_dbg(bar0_gp_);
  return v;
}

// ---- errors ----
void Fifo::fail(Channel& c, uint32_t code, uint64_t addr, const std::string& why) {
  c.failed = true;
  ++errors_;
  if (!bank_.at(FIFO_ERROR).value) {
    bank_.at(FIFO_ERROR).value = code;
    bank_.at(FIFO_ERROR_CHAN).value = c.id;
    bank_.at(FIFO_ERROR_METHOD).value = (c.subch << 13) | cur_method_;
    bank_.at(FIFO_ERROR_ADDR_LO).value = uint32_t(addr);
    bank_.at(FIFO_ERROR_ADDR_HI).value = uint32_t(addr >> 32);
  }
  intr->raise(GPU_INTR_FIFO, local());
  run_state().fail(name(), format("channel %u (instance 0x%" PRIx64 "): ", c.id, c.inst) + why);
}

std::string Fifo::method_text(const Channel& c, uint32_t m) const {
  return format("method 0x%04x on subchannel %u (%s)", m, c.subch, class_name(c.cls[c.subch]));
}

// ---- the runlist ----
// Applies the GP_PUT writes that have arrived by the FIFO's local time.
void Fifo::arrive_puts() {
  const sc_core::sc_time at = sc_core::sc_time_stamp() + local();
  for (auto& c : chans_) {
    size_t k = 0;
    while (k < c.put_pending.size() && c.put_pending[k].first <= at) c.gp_put = c.put_pending[k++].second;
    c.put_pending.erase(c.put_pending.begin(), c.put_pending.begin() + long(k));
  }
}

int Fifo::pick() {
  arrive_puts();
  for (unsigned k = 1; k <= nchan_; ++k) {
    const unsigned i = (last_ + k) % nchan_;
    if (chans_[i].has_work() && !chans_[i].blocked) return int(i);
  }
  return -1;
}

void Fifo::run() {
  for (;;) {
    int i = pick();
    if (i < 0) {
      // Nothing runnable: re-check blocked acquires (the host or another channel may release).
      bool any_blocked = false, released = false;
      sc_core::sc_time oldest = sc_core::sc_time_stamp();
      for (auto& c : chans_) {
        if (!c.has_work() || !c.blocked) continue;
        if (acquire_satisfied(c)) {
          c.blocked = false;
          released = true;
          const sc_core::sc_time waited = now() - c.blocked_since;
          HETVP_DEBUG(Fifo, "channel %u: semaphore acquire at VA 0x%" PRIx64 " satisfied after %s", c.id, c.sem_addr,
                      waited.to_string().c_str());
          if (in_run() && track(c).on(tracer()))
            tracer().span(track(c).name(), "semaphore wait", c.blocked_since, waited,
                          TraceArgs().add("addr", c.sem_addr).add("payload", c.sem_payload));
        } else if (!c.failed) {
          any_blocked = true;
          oldest = std::min(oldest, c.blocked_since);
        }
      }
      sync_all();
      if (released) continue;
      if (any_blocked && sc_core::sc_time_stamp() - oldest >= deadlock_timeout_) {
        report_deadlock();
        sc_core::wait(doorbell_);
        continue;
      }
      sc_core::sc_time next_put = sc_core::SC_ZERO_TIME;
      for (auto& c : chans_)
        if (!c.put_pending.empty() && (next_put == sc_core::SC_ZERO_TIME || c.put_pending.front().first < next_put))
          next_put = c.put_pending.front().first;
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      if (next_put != sc_core::SC_ZERO_TIME && next_put > now)
        sc_core::wait(any_blocked ? std::min(acquire_poll_, next_put - now) : next_put - now, doorbell_);
      else if (next_put != sc_core::SC_ZERO_TIME)
        sc_core::wait(sc_core::SC_ZERO_TIME);
      else if (any_blocked)
        sc_core::wait(acquire_poll_, doorbell_);
      else
        sc_core::wait(doorbell_);
      cursor_ = sc_core::sc_time_stamp();
      continue;
    }
    run_channel(chans_[i]);
    last_ = unsigned(i);
    run_state().progress();
  }
}

void Fifo::report_deadlock() {
  std::string who;
  Channel* first = nullptr;
  for (auto& c : chans_) {
    if (!c.has_work() || !c.blocked || c.failed) continue;
    if (!first) first = &c;
    who += format("%schannel %u (instance 0x%" PRIx64
                  ") waits at SEMAPHORED (method 0x001c, subchannel %u) at "
                  "push-buffer address 0x%" PRIx64 " for %s 0x%08x at GPU VA 0x%" PRIx64,
                  who.empty() ? "" : "; ", c.id, c.inst, c.subch, c.acq_hdr_va,
                  c.acq_op == FIFO_SEM_ACQUIRE ? "value ==" : "value >=", c.sem_payload, c.sem_addr);
  }
  if (!first) return;
  cur_method_ = FIFO_M_SEMAPHORED;
  fail(*first, FIFO_ERR_DEADLOCK, first->acq_hdr_va,
       format("deadlock: every channel with work has been blocked on a semaphore acquire for %s (deadlock_timeout): ",
              deadlock_timeout_.to_string().c_str()) +
           who);
  for (auto& c : chans_)
    if (c.blocked) c.failed = true;
}

void Fifo::run_channel(Channel& c) {
  ++timeslices_;
  HETVP_DEBUG(Fifo, "runlist: channel %u gets the engines (after channel %d)", c.id,
              last_ran_ == ~0u ? -1 : int(last_ran_));
  if (c.id != last_ran_) ++channel_changes_;
  last_ran_ = c.id;
  const sc_core::sc_time start = now(), end = start + timeslice_;
  const uint64_t methods = methods_, entries = gp_entries_;
  tracing_ = in_run() && track(c).on(tracer());
  tracing_gr_ = tracing_ && gr_track_.on(tracer());
  inner_.clear();
  if (!c.need_ramfc || read_ramfc(c)) {
    while (c.enabled && !c.failed && !c.blocked && c.has_words()) {
      step(c);
      if (sc_core::sc_time_stamp() + local() >= end && others_have_work(c)) break;
      sync_quantum();
    }
    sync_all();
  }
  if (!tracing_) return;
  // The timeslice first, then what happened in it (reported in start order, so they nest).
  const sc_core::sc_time stop = std::max(now(), start);
  tracer().span(track(c).name(), "timeslice", start, stop - start,
                TraceArgs()
                    .add("methods", methods_ - methods)
                    .add("gp_entries", gp_entries_ - entries)
                    .add("blocked", c.blocked ? 1u : 0u));
  for (const InnerSpan& s : inner_) tracer().span(track(c).name(), s.what, s.start, s.duration, s.args);
  inner_.clear();
  tracing_ = tracing_gr_ = false;
}

// ---- tracing ----
// A span inside the current timeslice, written after it (so it nests as a complete event).
void Fifo::inner_span(const char* what, const sc_core::sc_time& start, const std::string& args) {
  inner_span(std::string(what), start, args);
}

void Fifo::inner_span(std::string what, const sc_core::sc_time& start, const std::string& args) {
  if (tracing_) inner_.push_back({std::move(what), start, now() - start, args});
}

bool Fifo::others_have_work(const Channel& me) {
  arrive_puts();
  for (auto& c : chans_)
    if (&c != &me && c.has_work()) return true;
  return false;
}

void Fifo::declare_stats() {
  stats_.set_name("fifo");
  stats_.counter("methods", "count", "methods executed", methods_)
      .counter("gp_entries", "count", "GP entries fetched", gp_entries_)
      .counter("fetches", "count", "push-buffer reads", fetches_)
      .counter("fetch_bytes", "bytes", "GP entry and push-buffer bytes fetched", fetch_bytes_)
      .counter("timeslices", "count", "times the runlist gave a channel the engines", timeslices_)
      .counter("channel_changes", "count", "timeslices given to a different channel than the previous one",
               channel_changes_)
      .counter("switches_requested", "count", "GR context switches requested (CHSW)", switches_)
      .counter("switches_between_open_channels", "count",
               "of them, from a channel still open to another (not GR re-taken after its owner closed): with one "
               "context per process, switches between two processes' channels",
               switches_between_open_)
      .time("switch_wait_ns", "time from CHSW request to ACK, summed", switch_wait_)
      .time("switch_wait_max_ns", "longest time from CHSW request to ACK", switch_max_)
      .counter("launches", "count", "compute LAUNCH methods", launches_)
      .counter("copies", "count", "copy LAUNCH_DMA methods", copies_)
      .counter("semaphore_acquires", "count", "semaphore acquires", acquires_)
      .counter("semaphore_waits", "count", "acquires that blocked their channel", sem_waits_)
      .counter("semaphore_releases", "count", "semaphore releases", releases_)
      .counter("errors", "count", "channel errors", errors_);
}

HETVP_REGISTER_GPU_BLOCK_CONFIG(
    "fifo", "FIFO engine: channels, GPFIFO/push-buffer methods, semaphores, runlist (docs/contexts.md)", FifoConfig,
    [](GpuContext& ctx, const FifoConfig& p) -> std::unique_ptr<GpuBlock> {
      return std::make_unique<Fifo>("fifo", ctx, p);
    });

}  // namespace hetvp::gpu
