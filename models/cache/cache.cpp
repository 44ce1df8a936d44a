#include "models/cache/cache.h"

#include <cinttypes>
#include <cstring>
#include <optional>

#include "platform/payload.h"
#include "platform/registry.h"
#include "platform/run_state.h"
#include "platform/trace.h"
#include "platform/format.h"

namespace hetvp::cache {

uint64_t line_digest(uint64_t cache_id, uint64_t line_addr) {
  uint64_t x = cache_id * 0x9E3779B97F4A7C15ull ^ (line_addr + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return x;
}

static uint64_t fnv1a(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ static_cast<uint8_t>(*s)) * 1099511628211ull;
  return h;
}

// ------------------------------------------------------------------ CacheArray
CacheArray::CacheArray(uint64_t size, unsigned ways, unsigned line, Storage storage) : line_(line), ways_(ways) {
  if (line == 0 || (line & (line - 1))) throw std::invalid_argument("cache line size must be a power of two");
  if (ways == 0 || size % (uint64_t(ways) * line))
    throw std::invalid_argument("cache size must be a multiple of ways * line");
  sets_ = size / (uint64_t(ways) * line);
  pow2_sets_ = (sets_ & (sets_ - 1)) == 0;
  set_mask_ = sets_ - 1;
  if (storage == Storage::now) allocate();
}

void CacheArray::allocate() {
  if (allocated()) return;
  lines_.resize(sets_ * ways_);
  data_.resize(sets_ * ways_ * line_);
}

CacheArray::Line* CacheArray::probe(uint64_t la) {
  Line* set = set_of(la);
  for (unsigned w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].tag == la) return &set[w];
  return nullptr;
}

CacheArray::Line* CacheArray::find(uint64_t la) {
  Line* l = probe(la);
  if (l) l->lru = ++tick_;
  return l;
}

CacheArray::Line* CacheArray::victim(uint64_t la) {
  Line* set = set_of(la);
  Line* v = &set[0];
  for (unsigned w = 0; w < ways_; ++w) {
    if (!set[w].valid) return &set[w];
    if (set[w].lru < v->lru) v = &set[w];
  }
  return v;
}

CacheArray::Line* CacheArray::find_or_victim(uint64_t la, Line** fill) {
  Line* set = set_of(la);
  Line* invalid = nullptr;
  Line* lru = &set[0];
  for (unsigned w = 0; w < ways_; ++w) {
    Line& l = set[w];
    if (!l.valid) {
      if (!invalid) invalid = &l;
      continue;
    }
    if (l.tag == la) {
      l.lru = ++tick_;
      return &l;
    }
    if (!invalid && l.lru < lru->lru) lru = &l;
  }
  *fill = invalid ? invalid : lru;
  return nullptr;
}

void CacheArray::fill(Line* l, uint64_t la, const uint8_t* data) {
  l->valid = true;
  l->dirty = false;
  l->tag = la;
  l->lru = ++tick_;
  if (data) std::memcpy(this->data(l), data, line_);
}

std::vector<CacheArray::Line*> CacheArray::dirty_lines() {
  std::vector<Line*> v;
  for (auto& l : lines_)
    if (l.valid && l.dirty) v.push_back(&l);
  return v;
}

uint64_t CacheArray::invalidate_all() {
  uint64_t n = 0;
  for (auto& l : lines_) {
    n += l.valid;
    l.valid = l.dirty = false;
  }
  return n;
}

std::vector<CacheArray::Line*> CacheArray::valid_lines_in(uint64_t first, uint64_t end) {
  std::vector<Line*> v;
  for (auto& l : lines_)
    if (l.valid && l.tag >= first && l.tag < end) v.push_back(&l);
  return v;
}

uint64_t CacheArray::valid_count() const {
  uint64_t n = 0;
  for (auto& l : lines_) n += l.valid;
  return n;
}

// ------------------------------------------------------------------ Cache
Cache::Cache(sc_core::sc_module_name n, const CacheConfig& c)
    : Component(n),
      array_(c.size, c.ways, c.line, CacheArray::Storage::later),
      size_origin_(c.size.where()),
      write_back_(c.write_policy == WritePolicy::write_back),
      write_allocate_(c.write_allocate),
      bounded_walk_(c.range_walk == RangeWalk::bounded),
      gpu_l1_(c.gpu_l1) {
  const sc_core::sc_time cycle = c.clock.period();
  tag_time_ = cycle * static_cast<double>(c.tag_cycles);
  data_time_ = cycle * static_cast<double>(c.data_cycles);
  id_ = fnv1a(name());
  in.register_b_transport(this, &Cache::b_transport);
  in.register_transport_dbg(this, &Cache::transport_dbg);
  in.register_get_direct_mem_ptr(this, &Cache::get_dmi);
  ctl.register_b_transport(this, &Cache::b_ctl);
  ctl.register_transport_dbg(this, &Cache::dbg_ctl);
  out.register_invalidate_direct_mem_ptr(this, &Cache::invalidate_dmi);
  info_->initiator = name();
  gp_.set_extension(info_);
  gp_.set_extension(chan_);
  expose_target("in", in);
  expose_initiator("out", out);
  expose_target("ctl", ctl, true);
  declare_stats();
}

bool Cache::mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, sc_core::sc_time& delay,
                       tlm::tlm_generic_payload& parent) {
  AccessInfo* pi = parent.get_extension<AccessInfo>();
  if (pi) info_->side = pi->side;
  info_->uncached = false;
  gpu::forward_channel(parent, *chan_);  // a fill or write-back is in the address space of the access that caused it
  set_access(gp_, cmd, addr, data, len);
  out->b_transport(gp_, delay);
  if (!gp_.is_response_ok()) {
    parent.set_response_status(gp_.get_response_status());
    return false;
  }
  return true;
}

bool Cache::writeback(CacheArray::Line* l, sc_core::sc_time& delay, tlm::tlm_generic_payload* parent, const char* why) {
  const uint64_t addr = l->tag * array_.line();
  // No parent (a control request): a payload without extensions stands in. Built only then: a
  // payload's construction allocates its extension array (a malloc and a free per write-back).
  std::optional<tlm::tlm_generic_payload> none;
  if (!mem_access(tlm::TLM_WRITE_COMMAND, addr, array_.data(l), array_.line(), delay,
                  parent ? *parent : none.emplace())) {
    std::string buf =
        format("write-back (%s) of the dirty line at 0x%" PRIx64 " (%u B) through '", why, addr, array_.line());
    run_state().fail(name(), buf + std::string(out.name()) + "' failed with " + gp_.get_response_string() +
                                     "; the line stays dirty");
    return false;  // l->dirty stays set: never mark a line clean whose data did not arrive
  }
  ++writebacks_;
  l->dirty = false;
  HETVP_DEBUG(Cache, "write-back (%s) of the line at 0x%" PRIx64, why, addr);
  return true;
}

bool Cache::access_line(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, sc_core::sc_time& delay,
                        tlm::tlm_generic_payload& parent) {
  const unsigned L = array_.line();
  const uint64_t la = addr / L;
  const unsigned off = static_cast<unsigned>(addr % L);
  delay += tag_time_;
  CacheArray::Line* v = nullptr;  // on a miss, the way a fill takes
  CacheArray::Line* l = array_.find_or_victim(la, &v);
  if (cmd == tlm::TLM_READ_COMMAND) {
    ++reads_;
    if (l) {
      ++read_hits_;
      delay += data_time_;
      std::memcpy(data, array_.data(l) + off, len);
      return true;
    }
  } else {
    ++writes_;
    if (l) {
      ++write_hits_;
      delay += data_time_;
      std::memcpy(array_.data(l) + off, data, len);
      if (write_back_) {
        l->dirty = true;
        return true;
      }
      return mem_access(cmd, addr, data, len, delay, parent);
    }
    if (!write_allocate_) {
      ++misses_;
      return mem_access(cmd, addr, data, len, delay, parent);
    }
  }
  // Miss with allocation: evict, fill from below, then serve.
  ++misses_;
  HETVP_DEBUG(Cache, "%s miss at 0x%" PRIx64 " (%u B): fill line 0x%" PRIx64 "%s", cmd == tlm::TLM_READ_COMMAND ? "read" : "write",
              addr, len, la * L, v->valid ? format(", evicting line 0x%" PRIx64 "%s", v->tag * L, v->dirty ? " (dirty)" : "").c_str() : "");
  if (v->valid) {
    ++evictions_;
    if (v->dirty && !writeback(v, delay, &parent, "eviction")) return false;  // parent carries the error
    v->valid = false;
  }
  // The level below writes the line straight into the victim's storage (it stays invalid until
  // the fill is complete; a failed fill leaves it invalid).
  if (!mem_access(tlm::TLM_READ_COMMAND, la * L, array_.data(v), L, delay, parent)) return false;
  array_.fill(v, la, nullptr);
  delay += data_time_;
  if (cmd == tlm::TLM_READ_COMMAND) {
    std::memcpy(data, array_.data(v) + off, len);
    return true;
  }
  std::memcpy(array_.data(v) + off, data, len);
  if (write_back_) {
    v->dirty = true;
    return true;
  }
  return mem_access(cmd, addr, data, len, delay, parent);
}

void Cache::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  array_.allocate();  // done at the start of the simulation; here for a cache driven without one (a unit test)
  AccessInfo* ai = gp.get_extension<AccessInfo>();
  gp.set_dmi_allowed(false);
  if ((ai && ai->uncached) || gp.get_byte_enable_ptr() != nullptr || (!gp.is_read() && !gp.is_write())) {
    ++uncached_;
    out->b_transport(gp, delay);
    gp.set_dmi_allowed(false);
    return;
  }
  if (gp.is_read()) {
    ++read_requests_;
    read_request_bytes_ += gp.get_data_length();
  }
  // A load that L1 does not serve (Kepler global load): no tag access, no fill, the level below serves it.
  if (gpu_l1_ && ai && ai->l1_bypass && gp.is_read()) {
    ++l1_bypassed_;
    out->b_transport(gp, delay);
    gp.set_dmi_allowed(false);
    return;
  }
  const unsigned L = array_.line();
  uint64_t addr = gp.get_address();
  unsigned len = gp.get_data_length();
  uint8_t* data = gp.get_data_ptr();
  while (len > 0) {
    unsigned n = std::min<unsigned>(len, L - static_cast<unsigned>(addr % L));
    if (!access_line(gp.get_command(), addr, data, n, delay, gp)) return;
    addr += n;
    data += n;
    len -= n;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned Cache::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  unsigned n = out->transport_dbg(gp);
  if (!array_.allocated()) return n;  // before the simulation: nothing is cached yet
  const unsigned L = array_.line();
  const uint64_t a0 = gp.get_address();
  const unsigned len = gp.get_data_length();
  uint8_t* d = gp.get_data_ptr();
  for (uint64_t la = a0 / L; la * L < a0 + len; ++la) {
    CacheArray::Line* l = array_.probe(la);
    if (!l) continue;
    uint64_t lo = std::max<uint64_t>(a0, la * L), hi = std::min<uint64_t>(a0 + len, (la + 1) * L);
    if (gp.is_read())
      std::memcpy(d + (lo - a0), array_.data(l) + (lo - la * L), hi - lo);
    else
      std::memcpy(array_.data(l) + (lo - la * L), d + (lo - a0), hi - lo);
  }
  return n;
}

namespace {
// Traces one control operation (a range invalidation, a flush, ...) as a span when it returns.
struct ControlSpan {
  Tracer& tracer;
  TraceTrack& track;
  const CacheCtl& c;
  const sc_core::sc_time& delay;
  const bool on = track.on(tracer);
  const sc_core::sc_time t0 = on ? sc_core::sc_time_stamp() + delay : sc_core::SC_ZERO_TIME;
  const uint64_t invalidated0 = c.invalidated, tags0 = c.tag_accesses, writebacks0 = c.writebacks;
  ~ControlSpan() {
    if (!on) return;
    static const std::string kOps[] = {"invalidate range", "flush dirty", "lookup", "invalidate all",
                                       "control"};  // CacheCtl::Op, then any other
    const unsigned op = static_cast<unsigned>(c.op);
    tracer.span(track.name(), kOps[op < 4 ? op : 4], t0, sc_core::sc_time_stamp() + delay - t0,
                TraceArgs()
                    .add("first_line", uint64_t(c.first_line))
                    .add("lines", uint64_t(c.count))
                    .add("unit_bytes", uint64_t(c.unit_bytes))
                    .add("invalidated", uint64_t(c.invalidated - invalidated0))
                    .add("tag_accesses", uint64_t(c.tag_accesses - tags0))
                    .add("writebacks", uint64_t(c.writebacks - writebacks0)));
  }
};
}  // namespace

void Cache::control(CacheCtl& c, sc_core::sc_time& delay, tlm::tlm_generic_payload* on_behalf) {
  const ControlSpan traced{tracer(), track_, c, delay};
  HETVP_DEBUG(Cache, "control operation %u: first line %" PRIu64 ", %" PRIu64 " lines", static_cast<unsigned>(c.op),
              uint64_t(c.first_line), uint64_t(c.count));
  ++ctl_requests_;
  array_.allocate();
  const unsigned L = array_.line();
  if (c.op == CacheCtl::FlushDirty) {
    for (CacheArray::Line* l : array_.dirty_lines()) {
      if (!writeback(l, delay, on_behalf, "flush")) return;  // the run has failed; the line stays dirty
      ++c.writebacks;
    }
    return;
  }
  if (c.op == CacheCtl::InvalidateAll) {  // flash invalidate (valid bits cleared at once)
    for (CacheArray::Line* l : array_.dirty_lines()) {
      if (!writeback(l, delay, on_behalf, "invalidation")) return;  // nothing is invalidated
      ++c.writebacks;
    }
    c.invalidated += array_.invalidate_all();
    return;
  }
  // InvalidateRange / Lookup: one tag access per own line covering the byte range.
  const uint64_t lo = c.first_line * c.unit_bytes, hi = (c.first_line + c.count) * c.unit_bytes;
  if (hi <= lo) return;
  const uint64_t first = lo / L, end = (hi + L - 1) / L, capacity = array_.sets() * array_.ways();
  if (bounded_walk_ && end - first > capacity) {
    // range_walk: bounded -- the range has more lines than the cache: walk the cache's tag entries
    // (one access each) and drop the valid lines inside the range; the same lines as per_line.
    c.tag_accesses += capacity;
    ctl_tag_accesses_ += capacity;
    delay += tag_time_ * static_cast<double>(capacity);
    for (CacheArray::Line* l : array_.valid_lines_in(first, end)) {
      if (c.op == CacheCtl::Lookup) {
        ++c.invalidated;
        continue;
      }
      if (l->dirty) {
        if (!writeback(l, delay, nullptr, "invalidation")) return;
        ++c.writebacks;
      }
      l->valid = false;
      ++c.invalidated;
      ++ctl_invalidated_;
      c.digest += line_digest(id_, l->tag * L);
    }
    return;
  }
  for (uint64_t la = lo / L; la * L < hi; ++la) {
    ++c.tag_accesses;
    ++ctl_tag_accesses_;
    delay += tag_time_;
    CacheArray::Line* l = array_.probe(la);
    if (!l || c.op == CacheCtl::Lookup) {
      if (l) ++c.invalidated;  // Lookup: counts present lines
      continue;
    }
    if (l->dirty) {
      if (!writeback(l, delay, nullptr, "invalidation")) return;  // the line stays valid and dirty
      ++c.writebacks;
    }
    l->valid = false;
    ++c.invalidated;
    ++ctl_invalidated_;
    c.digest += line_digest(id_, la * L);
  }
}

void Cache::b_ctl(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  CacheCtl* c = gp.get_extension<CacheCtl>();
  if (!c) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  control(*c, delay);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Cache::declare_stats() {
  stats()
      .counter("reads", "count", "cacheable read accesses", reads_)
      .counter("writes", "count", "cacheable write accesses", writes_)
      .counter("read_hits", "count", "reads that hit", read_hits_)
      .counter("read_requests", "count", "cacheable read requests received (one per transaction, any size)",
               read_requests_)
      .counter("read_request_bytes", "bytes", "bytes of those read requests", read_request_bytes_)
      .counter("l1_bypassed", "count", "read requests passed through as L1-bypassing loads (gpu_l1 caches only)",
               l1_bypassed_)
      .counter("write_hits", "count", "writes that hit", write_hits_)
      .counter("misses", "count", "accesses that missed (line fills)", misses_)
      .counter("evictions", "count", "valid lines replaced to make room", evictions_)
      .counter("writebacks", "count", "dirty lines written back downstream", writebacks_)
      .counter("uncached", "count", "accesses passed through uncached", uncached_)
      .counter("ctl_requests", "count", "requests on the control port (range invalidate, flush)", ctl_requests_)
      .counter("ctl_tag_accesses", "count", "tag lookups made by control requests", ctl_tag_accesses_)
      .counter("ctl_invalidated", "lines", "lines invalidated by control requests", ctl_invalidated_)
      .value("valid_lines", "lines", "valid lines in the array when the stats are written",
             [this] { return array_.valid_count(); });
}

HETVP_REGISTER_COMPONENT("cache", Cache,
                         "set-associative cache (LRU, write-back/through), DMI denied, range-invalidate control port");

}  // namespace hetvp::cache
