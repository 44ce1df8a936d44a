#include "models/coherence/cache_controller.h"

#include <cmath>
#include <cinttypes>
#include <algorithm>
#include <cstring>

#include "models/cache/cache.h"
#include "models/coherence/checker.h"
#include "models/coherence/coherence_regs.h"
#include "platform/payload.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/run_state.h"
#include "platform/format.h"

namespace hetvp::coherence {

namespace {
const RegSpec kCcRegs[] = {HETVP_REG_TABLE(HETVP_CC_REGS)};
}  // namespace

CacheController::CacheController(sc_core::sc_module_name n, const CacheControllerConfig& c)
    : PeripheralOf<Component>(n, kCcRegs) {
  for (unsigned i = 0; i < c.levels; ++i) stages_.push_back(i);
  side_ = c.side == ControllerSide::gpu ? Side::Gpu : Side::Host;
  init(c);
}

CacheController::CacheController(sc_core::sc_module_name n, const CacheControllerConfig& c,
                                 std::vector<unsigned> stages, Side side)
    : PeripheralOf<Component>(n, kCcRegs), stages_(std::move(stages)), side_(side) {
  window_ = true;
  init(c);
}

void CacheController::init(const CacheControllerConfig& c) {
  line_ = c.line;
  chunk_lines_ = c.chunk_lines;
  address_order_ = c.history_order == HistoryOrder::address_order;
  checker_on_ = c.checker;
  num_stages_ = 0;
  for (unsigned s : stages_) num_stages_ = std::max(num_stages_, s + 1);
  for (unsigned i = 0; i < stages_.size(); ++i) {
    level.emplace_back(new tlm_utils::simple_initiator_socket<CacheController>(("level" + std::to_string(i)).c_str()));
    expose_initiator("level" + std::to_string(i), *level.back());
  }
  in.register_b_transport(this, &CacheController::b_data);
  in.register_transport_dbg(this, &CacheController::dbg_data);
  in.register_get_direct_mem_ptr(this, &CacheController::dmi_data);
  out.register_invalidate_direct_mem_ptr(this, &CacheController::inval_dmi);
  dir_info_->initiator = name();
  dir_info_->uncached = true;
  dir_info_->side = side_;
  dir_gp_.set_extension(dir_info_);
  expose_target("in", in);
  expose_initiator("out", out);
  expose_target("regs", regs, true);
  expose_initiator("dir", dir);
  snoop_in.register_b_transport(this, &CacheController::b_snoop);
  snoop_in.register_transport_dbg(this, &CacheController::dbg_snoop);
  snoop_out.register_invalidate_direct_mem_ptr(this, &CacheController::snoop_inval_dmi);
  expose_target("snoop_in", snoop_in, true);
  expose_initiator("snoop_out", snoop_out, true);

  read_timing(ReadTiming::AsIssued);  // a PROBE_DONE read blocks on its own (probe_done_port)
  on_port("PROBE", CC_PROBE, 4, &CacheController::probe_port);
  on_port("PROBE_DONE", CC_PROBE_DONE, 4, &CacheController::probe_done_port);
  const uint64_t dir_base = c.dir_base;
  bank_.set_reset("DIR_LO", static_cast<uint32_t>(dir_base));
  bank_.set_reset("DIR_HI", static_cast<uint32_t>(dir_base >> 32));
  on_write("TRACK", &CacheController::track_written);
  on_write("HIST_REQ", &CacheController::hist_req);
  on_write("HIST_CONFIRM", &CacheController::hist_confirm);
  on_read("HIST_COUNT", &CacheController::hist_count);
  bank_.reset();
  declare_stats();
}

// ---- register behaviour (bound by name in the constructor)
void CacheController::track_written(uint32_t v) {
  if (v > 1) {
    fail("bad value " + std::to_string(v) + " written to TRACK (1 start / 0 stop)");
    bank_.at(CC_TRACK).value = tracking_;
    return;
  }
  tracking_ = v == 1;
}
void CacheController::hist_req(uint32_t v) {
  if (v != 1) return fail("bad value " + std::to_string(v) + " written to HIST_REQ");
  send_history(this_access().delay);
}
void CacheController::hist_confirm(uint32_t v) {
  if (v != 1) return fail("bad value " + std::to_string(v) + " written to HIST_CONFIRM");
  history_.clear();
  recorded_.clear();
}

void CacheController::fail(const std::string& why) {
  std::string buf = format(" (%s cache controller)", side_ == Side::Gpu ? "GPU" : "CPU");
  run_state().fail(name(), why + buf);
}

bool CacheController::to_pa(uint64_t addr, uint64_t& pa) const {
  if (!window_) {
    pa = addr;
    return true;
  }
  const uint64_t va = reg64(CC_WIN_VA_LO), base = reg64(CC_WIN_PA_LO), size = reg64(CC_WIN_SIZE_LO);
  if (addr < va || addr - va >= size) return false;
  pa = base + (addr - va);
  return true;
}

uint64_t CacheController::key_of(uint64_t addr) const {
  uint64_t pa;
  if (to_pa(addr, pa)) return pa;
  return addr | (1ull << 63);  // GPU-private (VRAM) address space
}

void CacheController::b_data(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  AccessInfo* ai = gp.get_extension<AccessInfo>();
  const bool cached = !(ai && ai->uncached) && (gp.is_read() || gp.is_write());
  if (cached && gp.is_write()) {
    const uint64_t a = gp.get_address();
    const unsigned len = gp.get_data_length();
    uint64_t pa;
    if (tracking_ && to_pa(a, pa)) {
      ++tracked_stores_;
      // A store to the line of the previous one (a CPU writing an array word by word) is
      // recorded already: no hash lookup for it.
      for (uint64_t l = pa / line_; l * line_ < pa + len; ++l)
        if ((history_.empty() || history_.back() != l) && recorded_.insert(l).second) history_.push_back(l);
    }
    // The checker's key costs register lookups (the UVA window): only when the checker is on.
    if (checker().enabled()) checker().store(key_of(a), gp.get_data_ptr(), len);
  }
  out[id]->b_transport(gp, delay);
  gp.set_dmi_allowed(false);
  if (cached && gp.is_read() && gp.is_response_ok() && checker().enabled())
    checker().load(key_of(gp.get_address()), gp.get_data_ptr(), gp.get_data_length(), name(),
                   ai ? ai->consumed : nullptr);
}

unsigned CacheController::dbg_data(int id, tlm::tlm_generic_payload& gp) {
  if (gp.is_write()) checker().store(key_of(gp.get_address()), gp.get_data_ptr(), gp.get_data_length());
  return out[id]->transport_dbg(gp);
}

void CacheController::probe(uint64_t first, uint64_t count, sc_core::sc_time& delay) {
  ++probes_;
  ++acc_probes_;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time arrive = now + delay;
  sc_core::sc_time t = arrive > busy_until_ ? arrive : busy_until_;
  // Translate the physical range into this side's cache address space.
  uint64_t lo = first * line_, hi = (first + count) * line_;
  if (window_) {
    const uint64_t va = reg64(CC_WIN_VA_LO), base = reg64(CC_WIN_PA_LO), size = reg64(CC_WIN_SIZE_LO);
    lo = std::max(lo, base);
    hi = std::min(hi, base + size);
    if (hi <= lo) {
      busy_until_ = t;
      return;
    }
    lo = lo - base + va;
    hi = hi - base + va;
  }
  for (unsigned s = 0; s < num_stages_; ++s) {
    sc_core::sc_time stage_end = t;
    for (unsigned i = 0; i < stages_.size(); ++i) {
      if (stages_[i] != s) continue;
      cache::CacheCtl* c = new cache::CacheCtl;
      c->op = cache::CacheCtl::InvalidateRange;
      c->unit_bytes = line_;
      c->first_line = lo / line_;
      c->count = (hi - lo) / line_;
      tlm::tlm_generic_payload g;
      g.set_command(tlm::TLM_IGNORE_COMMAND);
      g.set_extension(c);
      sc_core::sc_time d = t - now;
      (*level[i])->b_transport(g, d);
      acc_invalidated_ += c->invalidated;
      acc_tags_ += c->tag_accesses;
      acc_digest_ += c->digest;
      invalidated_ += c->invalidated;
      tag_accesses_ += c->tag_accesses;
      release_writebacks_ += c->writebacks;
      if (now + d > stage_end) stage_end = now + d;
    }
    t = stage_end;
  }
  busy_until_ = t;
}

bool CacheController::dir_write(uint64_t offset, const void* data, unsigned len, sc_core::sc_time& delay) {
  set_access(dir_gp_, tlm::TLM_WRITE_COMMAND, reg64(CC_DIR_LO) + offset, const_cast<void*>(data), len);
  dir->b_transport(dir_gp_, delay);
  if (!dir_gp_.is_response_ok()) {
    std::string buf = format("history write to the directory at 0x%" PRIx64 " failed: %s",
                             static_cast<uint64_t>(dir_gp_.get_address()), dir_gp_.get_response_string().c_str());
    fail(buf);
    return false;
  }
  return true;
}

void CacheController::send_history(sc_core::sc_time& delay) {
  if (tracking_) {
    std::string buf = format("history requested while write tracking is still on (write 0 to 0x%" PRIx64 " first)",
                             uint64_t(DIR_BASE + (side_ == Side::Gpu ? DIR_GPU_TRACK : DIR_CPU_TRACK)));
    return fail(buf);
  }
  ++histories_;
  // Release: dirty lines go home first (L1 into L2, then L2 to memory).
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (unsigned s = 0; s < num_stages_; ++s) {
    sc_core::sc_time end = now + delay;
    for (unsigned i = 0; i < stages_.size(); ++i) {
      if (stages_[i] != s) continue;
      cache::CacheCtl* c = new cache::CacheCtl;
      c->op = cache::CacheCtl::FlushDirty;
      tlm::tlm_generic_payload g;
      g.set_command(tlm::TLM_IGNORE_COMMAND);
      g.set_extension(c);
      sc_core::sc_time d = delay;
      (*level[i])->b_transport(g, d);
      release_writebacks_ += c->writebacks;
      if (now + d > end) end = now + d;
    }
    delay = end - now;
  }
  if (address_order_) std::sort(history_.begin(), history_.end());
  for (size_t off = 0; off < history_.size(); off += chunk_lines_) {
    const size_t n = std::min<size_t>(chunk_lines_, history_.size() - off);
    if (!dir_write(DIR_HIST_DATA, &history_[off], static_cast<unsigned>(n * 8), delay)) return;
  }
  history_sent_ += history_.size();
  uint32_t total = static_cast<uint32_t>(history_.size());
  dir_write(DIR_HIST_END, &total, 4, delay);
}

// A probe from the directory: first line (8 B) and count (4 B); a 24-byte probe (directory
// probe_timing: serial_ack) asks for the walk time back, in ps, in bytes 16..23: the directory
// waits for the ack before its next probe. Other lengths fall through to the table (an error).
bool CacheController::probe_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const unsigned len = gp.get_data_length();
  if (!gp.is_write() || (len != 16 && len != 24)) return false;
  uint64_t first;
  uint32_t count;
  std::memcpy(&first, gp.get_data_ptr(), 8);
  std::memcpy(&count, gp.get_data_ptr() + 8, 4);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time start = now + delay > busy_until_ ? now + delay : busy_until_;
  probe(first, count, delay);
  if (len == 24) {
    const uint64_t walk_ps =
        busy_until_ > start ? static_cast<uint64_t>(std::llround((busy_until_ - start).to_seconds() * 1e12)) : 0;
    std::memcpy(gp.get_data_ptr() + 16, &walk_ps, 8);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

// PROBE_DONE: returns when the probes' walks are done, with their totals (invalidated lines,
// tags walked, digest, probes) since the last read.
bool CacheController::probe_done_port(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!gp.is_read() || gp.get_data_length() != 32) return false;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (busy_until_ > now + delay) delay = busy_until_ - now;
  uint64_t v[4] = {acc_invalidated_, acc_tags_, acc_digest_, acc_probes_};
  std::memcpy(gp.get_data_ptr(), v, 32);
  acc_invalidated_ = acc_tags_ = acc_digest_ = acc_probes_ = 0;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void CacheController::b_snoop(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++snoops_;
  const uint64_t a = gp.get_address(), len = gp.get_data_length();
  if ((gp.is_read() || gp.is_write()) && len) {
    const uint64_t first = a / line_, count = (a + len + line_ - 1) / line_ - first;
    for (unsigned s = 0; s < num_stages_; ++s)
      for (unsigned i = 0; i < stages_.size(); ++i) {
        if (stages_[i] != s) continue;
        cache::CacheCtl* c = new cache::CacheCtl;
        c->op = cache::CacheCtl::InvalidateRange;
        c->unit_bytes = line_;
        c->first_line = first;
        c->count = count;
        tlm::tlm_generic_payload g;
        g.set_command(tlm::TLM_IGNORE_COMMAND);
        g.set_extension(c);
        (*level[i])->b_transport(g, delay);
        snoop_invalidated_ += c->invalidated;
      }
  }
  if (snoop_out.size() == 0) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  snoop_out->b_transport(gp, delay);
}

void CacheController::declare_stats() {
  stats()
      .counter("tracked_stores", "count", "stores recorded in the written-line history", tracked_stores_)
      .counter("histories_sent", "count", "histories sent to the directory", histories_)
      .counter("history_lines_sent", "lines", "lines in those histories", history_sent_)
      .counter("release_writebacks", "lines", "dirty lines written back at a release", release_writebacks_)
      .counter("probes_received", "count", "invalidation probes received from the directory", probes_)
      .counter("tag_accesses", "count", "tag lookups made for probes", tag_accesses_)
      .counter("lines_invalidated", "lines", "lines invalidated by probes", invalidated_)
      .counter("snoops", "count", "snoop requests forwarded to the caches", snoops_)
      .counter("snoop_invalidated", "lines", "lines invalidated by snoops", snoop_invalidated_)
      .value("register_errors", "count", "illegal register accesses", [this] { return bank_.errors(); });
}

HETVP_REGISTER_COMPONENT(
    "cache_controller", CacheController,
    "a side's cache controller: write tracking, history to the directory, range-invalidate probes");

}  // namespace hetvp::coherence
