// A set-associative cache (YAML type `cache`): the CPU L1/L2 between `cpu` and `host_bus`, and
// the GPU's per-compute-unit L1 ("TCP") and shared L2 ("TCC") inside the compute block.
//
//   cpu ──mem──> [cache controller] ──> l1.in ─out─> l2.in ─out─> host_bus
//
// Geometry: `size`, `ways`, `line` (64 B). LRU replacement. Write policy `write_back` or
// `write_through`; `write_allocate` on a write miss. Timing in cycles of the cache's `clock`:
// every lookup costs `tag_cycles`, a hit adds `data_cycles`; misses add what the level below
// returns. The cache holds data (a stale line really returns stale data — coherence depends on it).
//
// Uncached accesses (AccessInfo.uncached, MMIO) pass through untouched; so do loads marked
// AccessInfo.l1_bypass when the cache is a GPU L1 (`gpu_l1: true`: Kepler's global loads). DMI is denied while the
// cache is in the path (the host CPU then uses b_transport). Debug accesses see cached data.
//
// Control port `ctl` (from a cache controller): a payload carrying a CacheCtl extension —
// InvalidateRange(first line, count, in 64-byte line numbers of the controller's address space):
// one tag access per cache line of the range, present lines are invalidated (dirty ones written
// back first), delay += tag accesses * tag time; FlushDirty: write back every dirty line (kept
// valid). Results come back in the extension.
//
// Ports: target `in`, initiator `out`, target `ctl` (optional).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "platform/channel_tag.h"
#include "platform/access_info.h"
#include "platform/component.h"
#include "platform/host_memory.h"
#include "platform/param_set.h"
#include "platform/trace_track.h"

namespace hetvp::cache {

// Control request a cache controller sends to a cache's `ctl` socket.
struct CacheCtl : tlm::tlm_extension<CacheCtl> {
  enum Op : uint8_t { InvalidateRange, FlushDirty, Lookup, InvalidateAll } op = InvalidateRange;
  uint64_t first_line = 0;  // in units of `unit_bytes`
  uint64_t count = 0;
  unsigned unit_bytes = 64;
  // results
  uint64_t tag_accesses = 0, invalidated = 0, writebacks = 0;
  uint64_t digest = 0;  // sum of mix(cache id, line address) over invalidated lines
  tlm::tlm_extension_base* clone() const override { return new CacheCtl(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const CacheCtl&>(e); }
};

uint64_t line_digest(uint64_t cache_id, uint64_t line_addr);

// The tag/data array: pure state, no SystemC. Used by Cache and by unit tests.
class CacheArray {
 public:
  // `later`: the geometry is checked now, the arrays are allocated by allocate() (a Cache takes
  // them when the simulation starts, so `hetvp check` allocates nothing: platform/host_memory.h).
  enum class Storage { now, later };
  CacheArray(uint64_t size, unsigned ways, unsigned line, Storage storage = Storage::now);
  void allocate();  // the tag and data arrays, once; every lookup needs them
  bool allocated() const { return !lines_.empty(); }
  // Host bytes the arrays take once allocated: the data and one Line per line.
  uint64_t storage_bytes() const { return sets_ * ways_ * (line_ + sizeof(Line)); }
  uint64_t invalidate_all();  // returns the lines dropped (dirty ones too: caller flushes first)
  unsigned line() const { return line_; }
  unsigned sets() const { return sets_; }
  unsigned ways() const { return ways_; }
  // 24 bytes: a set walk (16 ways in the TCC) reads the tags of every way, so the line's data
  // is found by its index (data()) rather than by a pointer stored with the tag (#31).
  struct Line {
    bool valid = false, dirty = false;
    uint64_t tag = 0;  // line address (addr / line)
    uint64_t lru = 0;
  };
  uint8_t* data(const Line* l) { return &data_[static_cast<size_t>(l - lines_.data()) * line_]; }
  Line* find(uint64_t line_addr);    // touches LRU on hit
  Line* probe(uint64_t line_addr);   // no LRU update
  Line* victim(uint64_t line_addr);  // the way to fill (invalid first, else LRU)
  // find() and, on a miss, victim() in one walk of the set: the line (LRU touched) or nullptr
  // with *fill set to the way victim() would return.
  Line* find_or_victim(uint64_t line_addr, Line** fill);
  void fill(Line* l, uint64_t line_addr, const uint8_t* data);  // data nullptr: already in l->data
  std::vector<Line*> dirty_lines();
  uint64_t valid_count() const;
  std::vector<Line*> valid_lines_in(uint64_t first_line, uint64_t end_line);  // valid lines with tag in [first, end)

 private:
  uint64_t line_, sets_, ways_;
  // la % sets_ as a mask when sets_ is a power of two (every shipped cache): no divide per probe.
  uint64_t set_mask_ = 0;
  bool pow2_sets_ = false;
  Line* set_of(uint64_t la) { return &lines_[(pow2_sets_ ? la & set_mask_ : la % sets_) * ways_]; }
  std::vector<Line> lines_;
  std::vector<uint8_t> data_;
  uint64_t tick_ = 0;
};

HETVP_ENUM(WritePolicy, write_back, write_through);
HETVP_ENUM(RangeWalk, per_line, bounded);

// The parameters of a cache (YAML type `cache`, and the compute block's `tcp`/`tcc` groups).
struct CacheConfig : ParamSet {
  // At most 1 GiB (the host memory the arrays take; a real last-level cache is tens of MiB).
  Size size{this, "size", "32 KiB", "capacity in bytes (at most 1 GiB)", Range{64, 1073741824.0}};
  Int<unsigned> ways{this, "ways", 8, "associativity", Range{1, 64}};
  Int<unsigned> line{this, "line", 64, "line size in bytes (power of two)", Range{16, 4096}};
  Enum<WritePolicy> write_policy{this, "write_policy", WritePolicy::write_back, "what a write hit does"};
  Bool write_allocate{this, "write_allocate", true, "fill the line on a write miss (else the write goes below)"};
  Freq clock{this, "clock", "2 GHz", "cache clock (tag/data latencies are cycles of it)"};
  Int<unsigned> tag_cycles{this, "tag_cycles", 1,
                           "cycles of one tag access (every lookup, every line of a range invalidation)", Min{0}};
  Int<unsigned> data_cycles{this, "data_cycles", 1, "cycles of a data array access on a hit", Min{0}};
  Enum<RangeWalk> range_walk{
      this, "range_walk", RangeWalk::per_line,
      "range invalidation: per_line = one tag access per line of the range (the thesis, gem5); bounded = "
      "min(range lines, cache lines): a range longer than the cache walks the cache's own tag entries instead "
      "(not in the thesis or gem5; same lines invalidated)"};
  Bool gpu_l1{this, "gpu_l1", false,
              "a GPU L1: loads marked as bypassing L1 (Kepler's global loads, PTX ld.global.cg; AccessInfo.l1_bypass) "
              "pass through it untouched to the level below"};
};

class Cache : public Component, public HostMemoryUser {
 public:
  using Config = CacheConfig;
  tlm_utils::multi_passthrough_target_socket<Cache> in{"in"};
  tlm_utils::simple_initiator_socket<Cache> out{"out"};
  tlm_utils::multi_passthrough_target_socket<Cache, 32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ZERO_OR_MORE_BOUND>
      ctl{"ctl"};

  Cache(sc_core::sc_module_name name, const CacheConfig& c);

  sc_core::sc_time tag_time() const { return tag_time_; }
  // platform/host_memory.h: the arrays, taken when the simulation starts (or at the first access).
  uint64_t up_front_host_bytes() const override { return array_.storage_bytes(); }
  std::string host_bytes_origin() const override { return size_origin_; }
  uint64_t id() const { return id_; }
  const CacheArray& array() const { return array_; }
  // Direct control (same semantics as the ctl port), for unit tests.
  // `on_behalf`: the request whose extensions (its channel) the flush's write-backs carry.
  void control(CacheCtl& c, sc_core::sc_time& delay, tlm::tlm_generic_payload* on_behalf = nullptr);

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  void start_of_simulation() override { array_.allocate(); }
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& gp);
  bool get_dmi(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi&) {
    gp.set_dmi_allowed(false);
    return false;
  }
  void b_ctl(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dbg_ctl(int, tlm::tlm_generic_payload&) { return 0; }
  void invalidate_dmi(sc_dt::uint64, sc_dt::uint64) {}
  // One access inside one line.
  bool access_line(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, sc_core::sc_time& delay,
                   tlm::tlm_generic_payload& parent);
  bool mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, sc_core::sc_time& delay,
                  tlm::tlm_generic_payload& parent);
  // Writes a dirty line to the next level and marks it clean. If the next level refuses the write,
  // the line stays dirty (its data is the only copy), the run fails naming the line address and
  // the socket it went through, and false is returned: the caller must not drop the line.
  // `why` names the occasion in the message ("eviction", "flush", "invalidation").
  bool writeback(CacheArray::Line* l, sc_core::sc_time& delay, tlm::tlm_generic_payload* parent, const char* why);

  CacheArray array_;
  std::string size_origin_;  // where `size` was set (HostMemoryUser)
  bool write_back_, write_allocate_;
  bool bounded_walk_ = false;  // range_walk: bounded
  bool gpu_l1_ = false;        // gpu_l1: AccessInfo.l1_bypass reads pass through
  sc_core::sc_time tag_time_, data_time_;
  uint64_t id_;
  tlm::tlm_generic_payload gp_;
  gpu::ChannelTag* chan_ = new gpu::ChannelTag;  // owned by gp_
  AccessInfo* info_ = new AccessInfo;
  uint64_t reads_ = 0, writes_ = 0, read_hits_ = 0, write_hits_ = 0, misses_ = 0, evictions_ = 0, writebacks_ = 0,
           uncached_ = 0, ctl_tag_accesses_ = 0, ctl_invalidated_ = 0, ctl_requests_ = 0, read_requests_ = 0,
           read_request_bytes_ = 0, l1_bypassed_ = 0;
  TraceTrack track_{name()};  // a span per control operation (cache.cpp: ControlSpan)
};

}  // namespace hetvp::cache
