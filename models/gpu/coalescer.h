// hetvp — GPU memory coalescer (SPEC §8, Kepler seed). A pure function: one warp-wide load/store
// instruction (up to 32 lane addresses) -> the memory transactions that serve it.
// Exact rules and the NVIDIA 6-access example: docs/coalescer.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hetvp {
struct GpuChip;
}

namespace hetvp::gpu {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kLineBytes = 128;    // L2 line / caching-load unit
constexpr unsigned kSegmentBytes = 32;  // L2 access segment

enum class AccessMode {
  CachingLoad,     // one 128 B transaction per distinct 128 B-aligned block touched
  NonCachingLoad,  // 32 B segments, grouped into aligned 128 B / 64 B / 32 B accesses
  Store,           // same as NonCachingLoad
};
const char* to_string(AccessMode m);

struct WarpRequest {
  std::array<uint64_t, kWarpSize> addr{};  // byte address per lane
  uint32_t active = 0xFFFFFFFFu;           // bit i = lane i participates
  unsigned size = 4;                       // bytes per lane: 1, 2, 4, 8 or 16
  AccessMode mode = AccessMode::CachingLoad;
};

struct MemTransaction {
  uint64_t addr = 0;   // aligned to bytes
  unsigned bytes = 0;  // 128, 64 or 32
  uint32_t lanes = 0;  // lanes with at least one byte inside [addr, addr+bytes)
  bool operator==(const MemTransaction& o) const { return addr == o.addr && bytes == o.bytes && lanes == o.lanes; }
};

struct CoalesceResult {
  std::vector<MemTransaction> transactions;  // ascending address order; the first is the access, the rest replays
  unsigned replays = 0;                      // transactions - 1 (0 when there are none)
  uint64_t bytes = 0;                        // total bytes moved
};

// Throws std::invalid_argument for a size other than 1/2/4/8/16.
// No active lane -> no transaction, 0 replays. Lane addresses need not be naturally aligned
// (real hardware would fault); a lane whose bytes straddle a 32 B / 128 B boundary is served by
// every transaction it overlaps.
CoalesceResult coalesce(const WarpRequest& req);
// The same into `out`, reusing its storage (the compute units' per-instruction path).
void coalesce(const WarpRequest& req, CoalesceResult& out);

// The memory path of a GPU generation (gpu_chips.h L1_GLOBAL, docs/kepler.md): Fermi caches global
// loads in L1, so a load is a caching load (128 B units); Kepler's L1 serves local memory only and
// global loads go to L2 in 32 B segments, i.e. they are served as non-caching loads (1, 2 or 4
// aligned segments, seeds/kepler-memory-coalescing). Stores are the same on both. `mode` is the
// YAML override ("caching" / "non_caching"); "" = the chip's default (no chip: Fermi's).
AccessMode global_load_mode(bool l1_caches_global_loads);
AccessMode global_load_mode(const GpuChip* chip, const std::string& mode = "");

}  // namespace hetvp::gpu
