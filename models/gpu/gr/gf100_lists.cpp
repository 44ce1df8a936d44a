// hetvp — the API over GF100's generated GR register lists (gf100_lists.h).
#include "models/gpu/gr/gf100_lists.h"

#include <stdexcept>

namespace hetvp::gpu::gr {

size_t GrPack::entries() const {
  size_t n = 0;
  for (size_t r = 0; r < count; ++r) n += rows[r].count;
  return n;
}

size_t GrPack::words() const {
  size_t n = 0;
  for (size_t r = 0; r < count; ++r)
    for (size_t i = 0; i < rows[r].count; ++i) n += rows[r].inits[i].count;
  return n;
}

void GrPack::for_each_word(const std::function<void(uint32_t, uint32_t)>& f) const {
  for (size_t r = 0; r < count; ++r)
    for (size_t i = 0; i < rows[r].count; ++i) {
      const GrInit& e = rows[r].inits[i];
      for (uint32_t k = 0; k < e.count; ++k) f(e.addr + k * e.pitch, e.data);
    }
}

const Gf100Lists& gf100_lists() {
  static const Gf100Lists lists = [] {
    Gf100Lists l;
    const detail::Gf100Table t = detail::gf100_table();
    l.available = t.packs != nullptr;
    l.reason = t.reason;
    return l;
  }();
  return lists;
}

const GrPack* Gf100Lists::find(const std::string& name) const {
  const detail::Gf100Table t = detail::gf100_table();
  for (unsigned i = 0; t.packs && i < t.count; ++i)
    if (name == t.packs[i].name) return &t.packs[i];
  return nullptr;
}

const GrPack& Gf100Lists::pack(const std::string& name) const {
  if (const GrPack* p = find(name)) return *p;
  throw std::runtime_error("GF100 GR register list '" + name + "' " +
                           (available ? "does not exist (packs: hub, gpc_0, gpc_1, zcull, tpc, icmd, mthd, mmio)"
                                      : "not available: " + reason));
}

std::vector<const GrPack*> Gf100Lists::all() const {
  std::vector<const GrPack*> v;
  const detail::Gf100Table t = detail::gf100_table();
  for (unsigned i = 0; t.packs && i < t.count; ++i) v.push_back(&t.packs[i]);
  return v;
}

// A run is consecutive words (each 4 above the previous) of at most 32; the run open at the end
// of the pack is closed there.
std::vector<uint32_t> csdata_words(const GrPack& pack, uint32_t base) {
  std::vector<uint32_t> out;
  uint32_t start = 0, prev = 0, len = 0;
  pack.for_each_word([&](uint32_t addr, uint32_t) {
    const uint32_t off = addr - base;
    if (len == 0 || off != prev + 4 || len == 32) {
      if (len) out.push_back((len - 1) << 26 | start);
      start = off;
      len = 0;
    }
    prev = off;
    ++len;
  });
  if (len) out.push_back((len - 1) << 26 | start);
  return out;
}

uint32_t mmctx_bytes(const std::vector<uint32_t>& words) {
  uint32_t n = 0;
  for (uint32_t w : words) n += 4 * (1 + (w >> 26));
  return n;
}

}  // namespace hetvp::gpu::gr
