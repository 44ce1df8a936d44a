// hetvp — the API over the generated GR register lists (gf100_lists.h).
#include "models/gpu/gr/gf100_lists.h"

#include <memory>
#include <mutex>
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

namespace {
// Built once: one GrLists per chip of the table, plus one per chip asked for that has none.
struct Registry {
  std::vector<std::unique_ptr<GrLists>> lists;
  std::vector<const GrPack*> packs_of(const std::string& chip) const {
    std::vector<const GrPack*> v;
    const detail::GrTable t = detail::gr_table();
    for (unsigned c = 0; t.chips && c < t.count; ++c)
      if (chip == t.chips[c].chip)
        for (unsigned i = 0; i < t.chips[c].count; ++i) v.push_back(&t.chips[c].packs[i]);
    return v;
  }
};
Registry& registry() {
  static Registry r;
  return r;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

std::vector<std::string> gr_list_chips() {
  std::vector<std::string> v;
  const detail::GrTable t = detail::gr_table();
  for (unsigned c = 0; t.chips && c < t.count; ++c) v.push_back(t.chips[c].chip);
  return v;
}

const GrLists& gr_lists(const std::string& chip) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const auto& l : registry().lists)
    if (l->chip == chip) return *l;
  auto l = std::make_unique<GrLists>();
  l->chip = chip;
  const detail::GrTable t = detail::gr_table();
  if (!t.chips) {
    l->reason = t.reason;
  } else if (registry().packs_of(chip).empty()) {
    std::string names;
    for (const auto& c : gr_list_chips()) names += (names.empty() ? "" : ", ") + c;
    l->reason = "hetvp extracts no GR register lists for chip '" + chip + "' (it has: " + names + ")";
  } else {
    l->available = true;
  }
  registry().lists.push_back(std::move(l));
  return *registry().lists.back();
}

const GrLists& gf100_lists() { return gr_lists("gf100"); }

const GrPack* GrLists::find(const std::string& name) const {
  for (const GrPack* p : all())
    if (name == p->name) return p;
  return nullptr;
}

const GrPack& GrLists::pack(const std::string& name) const {
  if (const GrPack* p = find(name)) return *p;
  std::string names;
  for (const GrPack* p : all()) names += (names.empty() ? "" : ", ") + std::string(p->name);
  throw std::runtime_error(chip + " GR register list '" + name + "' " +
                           (available ? "does not exist (packs: " + names + ")" : "not available: " + reason));
}

std::vector<const GrPack*> GrLists::all() const { return registry().packs_of(chip); }

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
