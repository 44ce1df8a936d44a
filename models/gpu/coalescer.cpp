// hetvp — GPU memory coalescer (SPEC §8). Rules: docs/coalescer.md.
#include "models/gpu/coalescer.h"

#include <algorithm>

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

void coalesce(const WarpRequest& req, CoalesceResult& r) {
  const unsigned sz = req.size;
  if (sz != 1 && sz != 2 && sz != 4 && sz != 8 && sz != 16)
    throw std::invalid_argument("coalesce: access size must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(sz));

  // Touched 32 B segments with the lanes touching each. A lane of at most 16 B touches one
  // segment, or two when it straddles a segment boundary: at most 64 entries. A fixed array with a
  // linear search (lanes mostly touch the segment of the lane before) and a sort by segment, not a
  // map: one warp instruction allocated a dozen tree nodes, 8 % of coherence square (#31).
  struct Seg {
    uint64_t seg;
    uint32_t lanes;
  };
  std::array<Seg, 2 * kWarpSize> segs;
  unsigned n = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(req.active >> l & 1u)) continue;
    const uint64_t lo = req.addr[l], hi = req.addr[l] + sz - 1;
    if (hi < lo) throw std::invalid_argument("coalesce: lane " + std::to_string(l) + " wraps the address space");
    for (uint64_t s = lo / kSegmentBytes; s <= hi / kSegmentBytes; ++s) {
      unsigned i = n;
      while (i > 0 && segs[i - 1].seg != s) --i;
      if (i > 0)
        segs[i - 1].lanes |= 1u << l;
      else
        segs[n++] = Seg{s, 1u << l};
    }
  }
  std::sort(segs.begin(), segs.begin() + n, [](const Seg& a, const Seg& b) { return a.seg < b.seg; });

  r.transactions.clear();
  r.bytes = 0;
  auto add = [&](uint64_t addr, unsigned bytes, uint32_t lanes) {
    r.transactions.push_back(MemTransaction{addr, bytes, lanes});
    r.bytes += bytes;
  };

  // Group the touched segments by 128 B block (4 segments per block), in ascending order.
  constexpr unsigned kSegsPerLine = kLineBytes / kSegmentBytes;
  for (unsigned i = 0; i < n;) {
    const uint64_t blk = segs[i].seg / kSegsPerLine;
    std::array<uint32_t, kSegsPerLine> lanes{};  // lanes per segment of the block (0 = untouched)
    for (; i < n && segs[i].seg / kSegsPerLine == blk; ++i) lanes[segs[i].seg % kSegsPerLine] = segs[i].lanes;
    const uint64_t base = blk * kLineBytes;
    if (req.mode == AccessMode::CachingLoad) {
      add(base, kLineBytes, lanes[0] | lanes[1] | lanes[2] | lanes[3]);
      continue;
    }
    // Store / non-caching load: an access is only chosen if every segment it covers is touched;
    // priority 4-segment (128 B-aligned), then 2-segment (64 B-aligned), then 1-segment.
    if (lanes[0] && lanes[1] && lanes[2] && lanes[3]) {
      add(base, kLineBytes, lanes[0] | lanes[1] | lanes[2] | lanes[3]);
      continue;
    }
    for (unsigned h = 0; h < 2; ++h) {
      const uint32_t a = lanes[2 * h], b = lanes[2 * h + 1];
      if (a && b) {
        add(base + h * 2 * kSegmentBytes, 2 * kSegmentBytes, a | b);
      } else {
        if (a) add(base + h * 2 * kSegmentBytes, kSegmentBytes, a);
        if (b) add(base + (h * 2 + 1) * kSegmentBytes, kSegmentBytes, b);
      }
    }
  }
  r.replays = r.transactions.empty() ? 0 : unsigned(r.transactions.size() - 1);
}

CoalesceResult coalesce(const WarpRequest& req) {
  CoalesceResult r;
  coalesce(req, r);
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
