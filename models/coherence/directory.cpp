#include "models/coherence/directory.h"

#include <cinttypes>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "models/coherence/checker.h"
#include "models/coherence/coherence_regs.h"
#include "platform/format.h"
#include "platform/implementation.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/run_state.h"
#include "platform/trace.h"

namespace hetvp::coherence {

namespace {
const char* side_name(unsigned s) { return s == 1 ? "CPU" : s == 2 ? "GPU" : "unknown side"; }
unsigned side_index(Side s) { return s == Side::Host ? 1 : s == Side::Gpu ? 2 : 0; }
uint64_t to_ticks(const sc_core::sc_time& t) { return static_cast<uint64_t>(std::llround(t.to_seconds() * 1e12)); }
}  // namespace

void DirectoryConfig::validate(Diagnostics& d) const {
  try {
    EngineParams(*this).validate();
  } catch (const std::invalid_argument& e) {
    d.error(engine.where() + ": " + e.what());
  }
}

namespace {
const RegSpec kDirRegs[] = {HETVP_REG_TABLE(HETVP_DIR_REGS)};
}  // namespace

Directory::Directory(sc_core::sc_module_name n, const DirectoryConfig& c)
    : PeripheralOf<Component>(n, kDirRegs), mode_(c.mode), probe_timing_(c.probe_timing) {
  try {
    const EngineParams ep(c);
    ep.validate();
    engine_ = make_invalidation_engine(c.engine.word(), ep, "inval_engine");
  } catch (const std::exception& e) {
    throw std::invalid_argument(c.engine.where() + ": " + e.what());
  }
  const sc_core::sc_time cycle = c.clock.period();
  issue_ = cycle * static_cast<double>(c.issue_cycles);
  cpu_hop_ = c.cpu_hop;
  completion_ = c.completion;
  chain_[1] = ProbeChain(c.to_cpu, cycle, completion_);
  chain_[2] = ProbeChain(c.to_gpu, cycle, completion_);
  response_ = cycle * static_cast<double>(c.serial_ack.response_cycles);
  net_ = c.serial_ack.hop_latency() * static_cast<double>(c.serial_ack.hops);
  ack_[1] = c.serial_ack.cpu_ack;
  ack_[2] = c.serial_ack.gpu_ack;
  skip_probe_ = c.test_skip_probe;

  SC_HAS_PROCESS(Directory);
  SC_THREAD(engine_thread);
  expose_target("regs", regs);
  expose_initiator("cpu_cc", cpu_cc);
  expose_initiator("host", host);

  bind_registers();
  declare_stats();
}

void Directory::bind_registers() {
  // Reads are served as of SystemC time (the thesis' polls were calibrated that way); a
  // callback's this_access().delay is the access's delay, and blocking work adds to it.
  read_timing(ReadTiming::AsIssued);
  on_port("HIST_DATA", DIR_HIST_DATA, DIR_HIST_DATA_SIZE, &Directory::hist_data);
  on_read("LOCK", &Directory::lock_owner);
  on_write("LOCK", &Directory::lock_written);
  on_write("INVALIDATE", &Directory::invalidate_written);
  on_read("INVAL_STATUS", &Directory::inval_status);
  on_write("HISTORY", &Directory::history_written);
  on_read("HIST_STATUS", &Directory::hist_status);
  on_write("HIST_END", &Directory::hist_end);
  on_write("CPU_TRACK", &Directory::cpu_track);
  on_write("GPU_TRACK", &Directory::gpu_track);
  on_read("STAT_SYNCS", &Directory::stat_syncs);
  // The last synchronisation's figures (0 before the first).
  using Field = uint32_t (*)(const Sync&);
  const std::pair<const char*, Field> last_sync[] = {
      {"STAT_PROBES", [](const Sync& s) { return uint32_t(s.probes); }},
      {"STAT_HISTORY", [](const Sync& s) { return uint32_t(s.history); }},
      {"STAT_INVALIDATED", [](const Sync& s) { return uint32_t(s.invalidated); }},
      {"STAT_TAGS", [](const Sync& s) { return uint32_t(s.tags); }},
      {"STAT_TICKS_LO", [](const Sync& s) { return uint32_t(s.ticks); }},
      {"STAT_TICKS_HI", [](const Sync& s) { return uint32_t(s.ticks >> 32); }},
      {"STAT_TARGET", [](const Sync& s) { return uint32_t(s.target); }}};
  for (auto [reg, field] : last_sync)
    bank_.named(reg).read([this, f = field](const Register&) { return syncs_.empty() ? 0u : f(syncs_.back()); });
}

// ---- register behaviour (bound by name in bind_registers); this_access() is the access served
void Directory::lock_written(uint32_t v) {
  const unsigned who = side_index(this_access().side);
  if (v == 1) {
    if (lock_owner_ == who)
      return fail("LOCK", DIR_LOCK, std::string("lock taken twice by the ") + side_name(who) + " without a release");
    if (lock_owner_)
      return fail("LOCK", DIR_LOCK,
                  std::string("write of 1 by the ") + side_name(who) + " while the " + side_name(lock_owner_) +
                      " holds the lock (hetvp's lock fails instead of waiting)");
    lock_owner_ = who;
  } else if (v == 0) {
    if (lock_owner_ != who)
      return fail("LOCK", DIR_LOCK,
                  std::string("release by the ") + side_name(who) + " without an acquire" +
                      (lock_owner_ ? std::string(" (held by the ") + side_name(lock_owner_) + ")"
                                   : std::string(" (lock is free)")));
    // Algorithm 2 waits for "done" before unlocking: the other side may only acquire once
    // its caches hold no stale copy.
    if (inval_requested_ && sc_core::sc_time_stamp() + this_access().delay < inval_done_at_)
      return fail("LOCK", DIR_LOCK,
                  std::string("release by the ") + side_name(who) +
                      " while its invalidation is still running (wait for INVAL_STATUS 0x40005004 = 1)");
    lock_owner_ = 0;
  } else {
    fail("LOCK", DIR_LOCK, "bad value " + std::to_string(v) + " (1 take / 0 release)");
  }
}
void Directory::invalidate_written(uint32_t v) {
  if (v != 1 && v != 2)
    return fail("INVALIDATE", DIR_INVALIDATE,
                "bad value " + std::to_string(v) + " (1 = invalidate GPU caches, 2 = CPU caches)");
  invalidate(v, this_access().delay);
}
uint32_t Directory::inval_status() const {
  return uint32_t(inval_requested_ && sc_core::sc_time_stamp() + this_access().delay >= inval_done_at_);
}
void Directory::history_written(uint32_t v) {
  if (v != 1 && v != 2)
    return fail("HISTORY", DIR_HISTORY, "bad value " + std::to_string(v) + " (1 = from CPU, 2 = from GPU)");
  history_request(v, this_access().delay);
}
uint32_t Directory::hist_status() const {
  return uint32_t(hist_requested_ && !receiving_ && sc_core::sc_time_stamp() + this_access().delay >= hist_done_at_);
}
void Directory::hist_end(uint32_t v) {
  if (!receiving_) return fail("HIST_END", DIR_HIST_END, "end of history while no history is being received");
  const unsigned s = receiving_;
  if (v != hist_[s].size())
    return fail("HIST_END", DIR_HIST_END,
                "history from the " + std::string(side_name(s)) + " announced " + std::to_string(v) + " entries, " +
                    std::to_string(hist_[s].size()) + " arrived");
  hist_ready_[s] = true;
  hist_done_at_ = sc_core::sc_time_stamp() + this_access().delay;
  HETVP_DEBUG(Coherence, "history from the %s complete: %zu lines", side_name(s), hist_[s].size());
  if (history_track_.on(tracer()))
    tracer().instant(history_track_.name(), std::string("history from the ") + side_name(s) + " complete",
                     hist_done_at_, TraceArgs().add("lines", uint64_t(hist_[s].size())).str());
  receiving_ = 0;
  uint32_t one = 1;
  sc_core::sc_time d = this_access().delay;
  cc_access(s, tlm::TLM_WRITE_COMMAND, CC_HIST_CONFIRM, &one, 4, d);
}
void Directory::cpu_track(uint32_t v) {
  if (v > 1) return fail("CPU_TRACK", DIR_CPU_TRACK, "bad value " + std::to_string(v) + " (1 start / 0 stop)");
  cc_access(1, tlm::TLM_WRITE_COMMAND, CC_TRACK, &v, 4, this_access().delay);
}
void Directory::gpu_track(uint32_t v) {
  if (v > 1) return fail("GPU_TRACK", DIR_GPU_TRACK, "bad value " + std::to_string(v) + " (1 start / 0 stop)");
  cc_access(2, tlm::TLM_WRITE_COMMAND, CC_TRACK, &v, 4, this_access().delay);
}

void Directory::fail(const std::string& reg, uint64_t off, const std::string& why) {
  ++errors_;
  std::string buf = format("register %s (0x%" PRIx64 "): ", reg.c_str(), uint64_t(DIR_BASE + off));
  run_state().fail(name(), buf + why);
}

bool Directory::cc_access(unsigned side, tlm::tlm_command cmd, uint32_t off, void* data, unsigned len,
                          sc_core::sc_time& delay) {
  tlm::tlm_generic_payload gp;
  AccessInfo* ai = new AccessInfo;
  ai->initiator = name();
  ai->uncached = true;
  ai->side = Side::Other;
  gp.set_extension(ai);
  set_access(gp, cmd, off, data, len);  // the GPU side's address is set below
  if (side == 1) {
    sc_core::sc_time d = delay + cpu_hop_;
    cpu_cc->b_transport(gp, d);
    if (cmd == tlm::TLM_READ_COMMAND) delay = d + cpu_hop_;  // writes are posted
  } else {
    const uint64_t base = (uint64_t(bank_.at(DIR_GPU_CC_HI).value) << 32) | bank_.at(DIR_GPU_CC_LO).value;
    if (!base) {
      fail("GPU_CC_LO", DIR_GPU_CC_LO,
           "the GPU cache controller's address is not configured (the runtime writes BAR0 + 0x405000 here)");
      return false;
    }
    gp.set_address(base + off);
    host->b_transport(gp, delay);
  }
  if (!gp.is_response_ok()) {
    std::string buf =
        format("%s cache controller register 0x%x: %s", side_name(side), off, gp.get_response_string().c_str());
    run_state().fail(name(), buf);
    return false;
  }
  return true;
}

void Directory::history_request(unsigned side, sc_core::sc_time& delay) {
  if (receiving_) return fail("HISTORY", DIR_HISTORY, "a history is already being received");
  if (!lock_owner_)
    return fail("HISTORY", DIR_HISTORY,
                std::string("history from the ") + side_name(side) + " without holding the lock (0x40000000)");
  receiving_ = side;
  HETVP_DEBUG(Coherence, "history request to the %s", side_name(side));
  if (history_track_.on(tracer()))
    tracer().instant(history_track_.name(), std::string("history request to the ") + side_name(side),
                     sc_core::sc_time_stamp() + delay);
  hist_[side].clear();
  hist_ready_[side] = false;
  hist_requested_ = true;
  uint32_t one = 1;
  sc_core::sc_time d = delay;
  if (!cc_access(side, tlm::TLM_WRITE_COMMAND, CC_HIST_REQ, &one, 4, d)) return;
  if (receiving_ == side && !run_state().failed())
    fail("HISTORY", DIR_HISTORY, std::string("the ") + side_name(side) + " cache controller did not send its history");
}

// serial_ack (gem5 APU chain): each probe leaves response_ after the previous ack, crosses the
// network (net_), the receiver walks its tags (the walk time it reports back in bytes 16..23 of
// the probe message) and acks after ack_[target]; the ack crosses the network back.
bool Directory::invalidate_serial_ack(unsigned target, const std::vector<LineRange>& ranges, sc_core::sc_time& d,
                                      Sync& s) {
  for (const LineRange& r : ranges) {
    if (static_cast<long long>(probe_counter_++) == skip_probe_) continue;  // test fault: a lost probe
    uint8_t msg[24] = {};
    std::memcpy(msg, &r.first, 8);
    std::memcpy(msg + 8, &r.count, 4);
    d += response_;
    sc_core::sc_time pd = d + net_;
    HETVP_DEBUG(Coherence, "probe to the %s: lines %" PRIu64 "..+%" PRIu64 " (serial ack)", side_name(target),
                uint64_t(r.first), uint64_t(r.count));
    if (probes_track_.on(tracer())) trace_probe(target, r, sc_core::sc_time_stamp() + d);
    if (!cc_access(target, tlm::TLM_WRITE_COMMAND, CC_PROBE, msg, 24, pd)) return false;
    uint64_t walk_ps = 0;
    std::memcpy(&walk_ps, msg + 16, 8);
    ++s.probes;
    d += net_ + sc_core::sc_time(static_cast<double>(walk_ps), sc_core::SC_PS) + ack_[target] + net_;
  }
  return true;
}

void Directory::trace_probe(unsigned target, const LineRange& r, const sc_core::sc_time& at) {
  tracer().instant(probes_track_.name(), std::string("probe ") + side_name(target), at,
                   TraceArgs().add("first_line", uint64_t(r.first)).add("lines", uint64_t(r.count)).str());
}

bool Directory::send_timed_probe(unsigned target, const LineRange& r, sc_core::sc_time arrive,
                                 sc_core::sc_time& walk) {
  uint8_t msg[24] = {};
  std::memcpy(msg, &r.first, 8);
  std::memcpy(msg + 8, &r.count, 4);
  HETVP_DEBUG(Coherence, "probe to the %s: lines %" PRIu64 "..+%" PRIu64 ", arriving at %s", side_name(target),
              uint64_t(r.first), uint64_t(r.count), (sc_core::sc_time_stamp() + arrive).to_string().c_str());
  if (probes_track_.on(tracer())) trace_probe(target, r, sc_core::sc_time_stamp() + arrive);
  if (!cc_access(target, tlm::TLM_WRITE_COMMAND, CC_PROBE, msg, 24, arrive)) return false;
  uint64_t walk_ps = 0;
  std::memcpy(&walk_ps, msg + 16, 8);
  walk = sc_core::sc_time(static_cast<double>(walk_ps), sc_core::SC_PS);
  return true;
}

// per_side: the target side's chain (probe_chain.h) times every probe; the receiver's walk is
// what its controller reports. `d` ends when the last ack is back (completion is added by the caller).
bool Directory::invalidate_per_side(unsigned target, const std::vector<LineRange>& ranges, sc_core::sc_time& d,
                                    Sync& s) {
  ProbeChain::Run run(chain_[target], d);
  for (const LineRange& r : ranges) {
    if (static_cast<long long>(probe_counter_++) == skip_probe_) continue;  // test fault: a lost probe
    sc_core::sc_time walk;
    if (!send_timed_probe(target, r, run.walk_start(), walk)) return false;
    run.walked(walk);
    ++s.probes;
  }
  d = run.last_ack();
  return true;
}

void Directory::invalidate(unsigned source, sc_core::sc_time& delay) {
  if (!lock_owner_)
    return fail("INVALIDATE", DIR_INVALIDATE, "invalidation requested without holding the lock (0x40000000)");
  if (!hist_ready_[source])
    return fail("INVALIDATE", DIR_INVALIDATE,
                std::string("no complete history from the ") + side_name(source) + " (write " + std::to_string(source) +
                    " to HISTORY 0x40006000 first)");
  const unsigned target = source == 1 ? 2 : 1;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time t0 = now + delay;
  sc_core::sc_time d = delay;
  if (hist_done_at_ > t0) d = hist_done_at_ - now;  // the history must be complete (never in Algorithm 2)
  const sc_core::sc_time engine_start = sc_core::sc_time_stamp() + d;
  std::vector<LineRange> ranges = run_engine(hist_[source], d);
  HETVP_DEBUG(Coherence, "invalidation of the %s caches: %zu history lines translated (%s) into %zu ranges",
              side_name(target), hist_[source].size(), engine_->kind(), ranges.size());
  // Whether each track is traced, decided now for the whole invalidation (its spans come as it goes).
  const bool traced = track_.on(tracer()), probes_traced = probes_track_.on(tracer());
  if (engine_track_.on(tracer()))  // the range-invalidation engine: TLM, Verilated RTL, or both in lockstep
    tracer().span(engine_track_.name(), std::string("translate (") + engine_->kind() + ")", engine_start,
                  sc_core::sc_time_stamp() + d - engine_start,
                  TraceArgs().add("lines", uint64_t(hist_[source].size())).add("ranges", uint64_t(ranges.size())));
  if (!engine_error_.empty()) {
    run_state().fail(name(), std::string("invalidation engine (") + engine_->kind() + "): " + engine_error_);
    return;
  }
  Sync s;
  s.target = source;  // 1: GPU caches (CPU history), 2: CPU caches
  s.history = hist_[source].size();
  if (probe_timing_ == ProbeTiming::per_side) {
    if (!invalidate_per_side(target, ranges, d, s)) return;
  } else if (probe_timing_ == ProbeTiming::serial_ack) {
    if (!invalidate_serial_ack(target, ranges, d, s)) return;
  } else {
    for (const LineRange& r : ranges) {
      if (static_cast<long long>(probe_counter_++) == skip_probe_) continue;  // test fault: a lost probe
      uint8_t msg[16] = {};
      std::memcpy(msg, &r.first, 8);
      std::memcpy(msg + 8, &r.count, 4);
      sc_core::sc_time pd = d;
      if (probes_traced) trace_probe(target, r, sc_core::sc_time_stamp() + d);
      if (!cc_access(target, tlm::TLM_WRITE_COMMAND, CC_PROBE, msg, 16, pd)) return;
      ++s.probes;
      d += issue_;
    }
  }
  uint64_t done[4] = {};
  if (probe_timing_ == ProbeTiming::pipelined) {
    // Completion: read PROBE_DONE (returns when the target's tag walks are done). With nothing to
    // invalidate there is nothing to wait for: done once the engine has seen the empty history.
    if (s.probes && !cc_access(target, tlm::TLM_READ_COMMAND, CC_PROBE_DONE, done, 32, d)) return;
  } else if (s.probes) {
    // The counters only: the chain above already timed every ack, so the read's own path is not charged.
    sc_core::sc_time rd = d;
    if (!cc_access(target, tlm::TLM_READ_COMMAND, CC_PROBE_DONE, done, 32, rd)) return;
    d += completion_;
  }
  s.invalidated = done[0];
  s.tags = done[1];
  s.digest = done[2];
  // `d` is relative to the current SystemC time, which moved if the engine waited (RTL in timed
  // mode, for a VCD): measure from the request to the end in absolute time.
  const sc_core::sc_time end = sc_core::sc_time_stamp() + d;
  s.ticks = to_ticks(end - t0);
  HETVP_DEBUG(Coherence, "invalidation of the %s caches done at %s: %" PRIu64 " probes, %" PRIu64 " lines invalidated",
              side_name(target), end.to_string().c_str(), uint64_t(s.probes), uint64_t(s.invalidated));
  if (traced)
    tracer().span(track_.name(), std::string("invalidate ") + side_name(target) + " caches", t0, end - t0,
                  TraceArgs()
                      .add("history", uint64_t(s.history))
                      .add("probes", uint64_t(s.probes))
                      .add("invalidated", uint64_t(s.invalidated))
                      .add("mode", to_name(probe_timing_).c_str()));
  syncs_.push_back(s);
  inval_done_at_ = end;
  inval_requested_ = true;
  hist_ready_[source] = false;
  hist_[source].clear();
  run_state().progress();
}

void Directory::engine_thread() {
  for (;;) {
    sc_core::wait(engine_req_);
    engine_error_.clear();
    try {
      engine_out_ = engine_->translate(*engine_in_, engine_delay_);
    } catch (const sc_core::sc_unwind_exception&) {
      throw;  // the run has ended and this thread is being killed: let it unwind
    } catch (const std::exception& e) {
      engine_out_.clear();
      engine_error_ = e.what();
    }
    engine_done_.notify(sc_core::SC_ZERO_TIME);
  }
}

std::vector<LineRange> Directory::run_engine(const std::vector<uint64_t>& lines, sc_core::sc_time& delay) {
  if (engine_busy_) {  // cannot happen under the lock; guard against a second requester anyway
    engine_error_ = "a second invalidation while the engine is busy";
    return {};
  }
  engine_busy_ = true;
  engine_in_ = &lines;
  engine_delay_ = delay;
  engine_req_.notify(sc_core::SC_ZERO_TIME);
  sc_core::wait(engine_done_);  // delta cycles only: the caller's local time offset is kept
  engine_busy_ = false;
  delay = engine_delay_;
  return std::move(engine_out_);
}

// HIST_DATA: a cache controller's history chunks (8-byte line addresses), written in bulk.
bool Directory::hist_data(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  if (!gp.is_write()) return false;  // the table refuses it
  const uint64_t off = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (!receiving_ || len % 8) {
    fail("HIST_DATA", off,
         !receiving_ ? "history data while no history is being received" : "chunk length not a multiple of 8");
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return true;
  }
  auto& h = hist_[receiving_];
  const size_t n0 = h.size();
  h.resize(n0 + len / 8);
  std::memcpy(&h[n0], gp.get_data_ptr(), len);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Directory::bad_access(const tlm::tlm_generic_payload& gp) {
  std::string buf =
      format("bad %s of %u bytes at directory address 0x%" PRIx64 " (by %s)", gp.is_read() ? "read" : "write",
             gp.get_data_length(), uint64_t(DIR_BASE + gp.get_address()), initiator_of(gp));
  ++errors_;
  run_state().fail(name(), buf);
}

void Directory::declare_stats() {
  // Sums of a Sync field over the synchronisations towards `k` (1 GPU, 2 CPU; 0 = both).
  auto sum = [this](unsigned k, uint64_t Sync::*f) {
    uint64_t t = 0;
    for (const Sync& s : syncs_)
      if (k == 0 || s.target == k) t += s.*f;
    return t;
  };
  auto hex = [](uint64_t v) { return format("%016" PRIx64, v); };
  stats()
      .value("mode", "", "invalidation mode (per_line or range)", [this] { return to_name(mode_); })
      .value("engine", "", "invalidation engine (tlm, rtl, lockstep)", [this] { return std::string(engine_->kind()); })
      .value("engine_cycles", "cycles", "cycles the invalidation engine ran", [this] { return engine_->cycles(); })
      .value("probes", "count", "invalidation probes sent, all synchronisations",
             [sum] { return sum(0, &Sync::probes); })
      .value("lines_invalidated", "lines", "lines invalidated, all synchronisations",
             [sum] { return sum(0, &Sync::invalidated); })
      .value("tag_accesses", "count", "tag lookups made by probes, all synchronisations",
             [sum] { return sum(0, &Sync::tags); })
      .value("ticks", "ps", "invalidation time (gem5 ticks at 1 THz), all synchronisations",
             [sum] { return sum(0, &Sync::ticks); })
      .value("ns", "ns", "the same time in ns (ticks / 1000)", [sum] { return sum(0, &Sync::ticks) / 1000.0; })
      .value("invalidated_digest", "", "hex sum of every synchronisation's digest of invalidated lines",
             [sum, hex] { return hex(sum(0, &Sync::digest)); })
      .value("checker_loads", "count", "loads the coherence checker verified",
             [this] { return run_context().service<Checker>().loads_checked(); })
      .value("checker_violations", "count", "loads the checker found stale",
             [this] { return run_context().service<Checker>().violations(); });
  const char* names[2] = {"to_gpu", "to_cpu"};
  for (unsigned k = 1; k <= 2; ++k)
    stats()
        .group(names[k - 1])
        .value("syncs", "count", "synchronisations invalidating this side's caches",
               [this, k] {
                 return uint64_t(
                     std::count_if(syncs_.begin(), syncs_.end(), [k](const Sync& s) { return s.target == k; }));
               })
        .value("history_lines", "lines", "history lines received", [sum, k] { return sum(k, &Sync::history); })
        .value("probes", "count", "invalidation probes sent", [sum, k] { return sum(k, &Sync::probes); })
        .value("lines_invalidated", "lines", "lines invalidated", [sum, k] { return sum(k, &Sync::invalidated); })
        .value("tag_accesses", "count", "tag lookups made by probes", [sum, k] { return sum(k, &Sync::tags); })
        .value("ticks", "ps", "invalidation time (gem5 ticks at 1 THz)", [sum, k] { return sum(k, &Sync::ticks); })
        .value("ns", "ns", "the same time in ns (ticks / 1000)", [sum, k] { return sum(k, &Sync::ticks) / 1000.0; });
  stats()
      .record("syncs", "",
              "one object per synchronisation, in order: target (gpu/cpu), history_lines, probes, "
              "lines_invalidated, tag_accesses, ticks (ps), ns, digest (hex)",
              [this, hex](JsonWriter& w, const std::string& key) {
                w.begin_array(key);
                for (const Sync& s : syncs_) {
                  w.begin_object();
                  w.value("target", s.target == 1 ? "gpu" : "cpu");
                  w.value("history_lines", s.history);
                  w.value("probes", s.probes);
                  w.value("lines_invalidated", s.invalidated);
                  w.value("tag_accesses", s.tags);
                  w.value("ticks", s.ticks);
                  w.value("ns", s.ticks / 1000.0);
                  w.value("digest", hex(s.digest));
                  w.end_object();
                }
                w.end_array();
              })
      .counter("register_errors", "count", "illegal register accesses and protocol misuses", errors_);
}

HETVP_REGISTER_COMPONENT("coherence_directory", Directory,
                         "global directory: lock, history, per-line/range invalidation (SPEC §7)");

}  // namespace hetvp::coherence
