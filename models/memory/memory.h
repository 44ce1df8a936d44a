// A RAM: host DRAM, VRAM, or any memory a topology needs.
//
// Storage is sparse: 1 MiB chunks are allocated (zeroed) on first touch, so a 4 GiB memory
// costs only what a run writes or reads. A chunk comes from calloc, which maps fresh zero pages
// for blocks this large, and the memory remembers which 4 KiB pages of it were ever written: a
// read of a page never written returns zeros without touching it, so the host faults in only
// the pages a run writes (not all 256 of a chunk, as an explicit zeroing did, nor a page first
// read and then written twice: zero page, then copy on write). A chunk handed out by DMI counts
// as written throughout (its user may write it directly). Timing: every access costs `latency` plus
// size / `bandwidth`. DMI is granted per chunk (the chunk is the contiguous host buffer).
//
// Registers: none. Ports: target `in`.
#pragma once

#include <cstdlib>
#include <memory>
#include <vector>

#include "platform/component.h"
#include "platform/direct_target_socket.h"
#include "platform/host_memory.h"
#include "platform/param_set.h"

namespace hetvp {

// The parameters of a memory (YAML type `memory`). An owner gives other defaults by member, as the
// gpu's `vram` group does: size.set_default("1536 MiB") (no longer required),
// bandwidth.set_default_text("177.4e9") (the default's text as written).
struct MemoryConfig : ParamSet {
  // At most 1 TiB: the storage is sparse, but its chunk table (8 B per MiB) is not.
  Size size{this, "size", nullptr, "capacity in bytes", Required{}, Range{1, 1099511627776.0}};
  Time latency{this, "latency", "50 ns", "time of a read access before its first byte"};
  Time write_latency{this, "write_latency", nullptr, "time of a write access (default: latency)", NoDefault{}};
  Real bandwidth{this, "bandwidth", 0.0, "bytes per second an access streams at (0 = unlimited)", Min{0}};
  Bool dmi{this, "dmi", true, "grant direct memory access to initiators that ask"};
};

class Memory : public Component, public HostMemoryUser {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by `in`)

 public:
  // Any number of initiators (e.g. VRAM: the GPU's VRAM bus and its host interface's BAR1).
  DirectTargetSocket<Memory, &Memory::b_transport, 0> in{"in", this};

  using Config = MemoryConfig;
  Memory(sc_core::sc_module_name name, const MemoryConfig& c);

  uint64_t size() const { return size_; }
  // platform/host_memory.h: what the constructor allocates (the chunk table, the written-page bits,
  // the streaming-time table), not the chunks a run touches later.
  uint64_t up_front_host_bytes() const override {
    return chunks_.capacity() * sizeof(chunks_[0]) + written_.capacity() * sizeof(uint64_t) +
           stream_table_.capacity() * sizeof(sc_core::sc_time);
  }
  std::string host_bytes_origin() const override { return size_origin_; }

  static constexpr uint64_t kChunk = 1ull << 20;
  static constexpr uint64_t kPage = 4096;  // granule of the written-page bits

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  uint8_t* chunk(uint64_t index);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  // Copies between the payload and storage; false when out of range.
  bool access(tlm::tlm_generic_payload& gp);

  uint64_t size_;
  std::string size_origin_;  // where `size` was set (HostMemoryUser)
  sc_core::sc_time latency_, write_latency_;
  double seconds_per_byte_;
  // len * seconds_per_byte_ as an sc_time for len < stream_table_.size(), computed once with the
  // same expression (no double -> sc_time conversion per access, #31); longer accesses convert.
  std::vector<sc_core::sc_time> stream_table_;
  bool dmi_;
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::vector<std::unique_ptr<uint8_t, Free>> chunks_;  // calloc'ed, see the top of the file
  // Written pages: bit p % 64 of written_[p / 64] for page p of the memory (see the top).
  std::vector<uint64_t> written_;
  bool written(uint64_t page) const { return written_[page / 64] >> (page % 64) & 1; }
  void mark_written(uint64_t first_page, uint64_t last_page) {
    for (uint64_t p = first_page; p <= last_page; ++p) written_[p / 64] |= 1ull << (p % 64);
  }
  uint64_t reads_ = 0, writes_ = 0, bytes_read_ = 0, bytes_written_ = 0, chunks_allocated_ = 0, dmi_grants_ = 0;
};

}  // namespace hetvp
