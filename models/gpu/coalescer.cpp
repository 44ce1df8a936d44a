// hetvp — GPU memory coalescer (SPEC §8). Rules: docs/coalescer.md.
#include "models/gpu/coalescer.h"

#include <map>

#include "firmware/include/hetvp/gpu_chips.h"
#include <stdexcept>

namespace hetvp::gpu {

const char* to_string(AccessMode m) {
  switch (m) {
    case AccessMode::CachingLoad:
      return "caching";
    case AccessMode::NonCachingLoad:
      return "non-caching";
    case AccessMode::Store:
      return "store";
  }
  return "?";
}

CoalesceResult coalesce(const WarpRequest& req) {
  const unsigned sz = req.size;
  if (sz != 1 && sz != 2 && sz != 4 && sz != 8 && sz != 16)
    throw std::invalid_argument("coalesce: access size must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(sz));

  // Touched 32 B segments, keyed by segment index, with the lanes touching each. A lane of at most
  // 16 B touches one segment, or two when it straddles a segment boundary.
  std::map<uint64_t, uint32_t> seg_lanes;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(req.active >> l & 1u)) continue;
    const uint64_t lo = req.addr[l], hi = req.addr[l] + sz - 1;
    if (hi < lo) throw std::invalid_argument("coalesce: lane " + std::to_string(l) + " wraps the address space");
    for (uint64_t s = lo / kSegmentBytes; s <= hi / kSegmentBytes; ++s) seg_lanes[s] |= 1u << l;
  }

  CoalesceResult r;
  auto add = [&](uint64_t addr, unsigned bytes, uint32_t lanes) {
    r.transactions.push_back(MemTransaction{addr, bytes, lanes});
    r.bytes += bytes;
  };

  // Group the touched segments by 128 B block (4 segments per block).
  constexpr unsigned kSegsPerLine = kLineBytes / kSegmentBytes;
  std::map<uint64_t, std::array<uint32_t, kSegsPerLine>> blocks;  // block -> lanes per segment (0 = untouched)
  for (const auto& [seg, lanes] : seg_lanes) blocks[seg / kSegsPerLine][seg % kSegsPerLine] |= lanes;

  for (const auto& [blk, segs] : blocks) {
    const uint64_t base = blk * kLineBytes;
    if (req.mode == AccessMode::CachingLoad) {
      add(base, kLineBytes, segs[0] | segs[1] | segs[2] | segs[3]);
      continue;
    }
    // Store / non-caching load: an access is only chosen if every segment it covers is touched;
    // priority 4-segment (128 B-aligned), then 2-segment (64 B-aligned), then 1-segment.
    if (segs[0] && segs[1] && segs[2] && segs[3]) {
      add(base, kLineBytes, segs[0] | segs[1] | segs[2] | segs[3]);
      continue;
    }
    for (unsigned h = 0; h < 2; ++h) {
      const uint32_t a = segs[2 * h], b = segs[2 * h + 1];
      if (a && b) {
        add(base + h * 2 * kSegmentBytes, 2 * kSegmentBytes, a | b);
      } else {
        if (a) add(base + h * 2 * kSegmentBytes, kSegmentBytes, a);
        if (b) add(base + (h * 2 + 1) * kSegmentBytes, kSegmentBytes, b);
      }
    }
  }
  r.replays = r.transactions.empty() ? 0 : unsigned(r.transactions.size() - 1);
  return r;
}

AccessMode global_load_mode(bool l1_caches_global_loads) {
  return l1_caches_global_loads ? AccessMode::CachingLoad : AccessMode::NonCachingLoad;
}

AccessMode global_load_mode(const GpuChip* chip, const std::string& mode) {
  if (mode == "caching") return AccessMode::CachingLoad;
  if (mode == "non_caching") return AccessMode::NonCachingLoad;
  if (!mode.empty()) throw std::invalid_argument("coalescer mode must be caching or non_caching, got '" + mode + "'");
  return global_load_mode(chip ? chip->l1_caches_global_loads : true);
}

}  // namespace hetvp::gpu
