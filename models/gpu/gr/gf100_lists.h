// hetvp — the GR register lists of the chips hetvp boots nouveau's firmware on (GF100, GF117, GK104,
// GK110, GK208), as nouveau's driver holds them: each chip's `<chip>_grctx` struct (ctx<chip>.c:
// hub, gpc_0, gpc_1, zcull, tpc, ppc, icmd, mthd; GF100 has no ppc) and its `<chip>_gr.mmio` pack
// (<chip>.c). The lists are read out of the Linux source at configure time (cmake/Gf100Lists.cmake,
// one script, pinned SHA-256 per file, including the older chips' files whose arrays the newer ones
// reuse) into one generated table in the build tree; nothing of them is in this repository.
// docs/falcon.md "GF100's register lists" and "Kepler's register lists".
//
// A pack is a sequence of init lists; an init entry { addr, count, pitch, data } stands for the
// `count` registers addr, addr + pitch, ... each written with `data` (gf100.h struct gf100_gr_init).
// For icmd the "address" is a method number sent through 0x400200, for mthd a class method
// (pack row type = the class), not BAR0 addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hetvp::gpu::gr {

struct GrInit {
  uint32_t addr, count, pitch, data;
};
struct GrPackRow {
  const char* list;  // the C array's name in nouveau's source, e.g. "gf100_grctx_init_fe_0"
  uint32_t type;     // mthd: the object class (0x9097 ...); 0 otherwise
  const GrInit* inits;
  size_t count;
};
struct GrPack {
  const char* name;    // hetvp's name: hub, gpc_0, gpc_1, zcull, tpc, ppc, icmd, mthd, mmio
  const char* source;  // the C array, e.g. "gf100_grctx_pack_hub"
  const GrPackRow* rows;
  size_t count;

  size_t entries() const;  // init entries over all rows
  size_t words() const;    // registers (or methods) named: the sum of the counts
  // Every (address, data) the pack names, in nouveau's order (gf100_gr_mmio's loop).
  void for_each_word(const std::function<void(uint32_t addr, uint32_t data)>& f) const;
};

// One chip's packs.
struct GrLists {
  std::string chip;  // gpu_chips.h name: gf100, gf117, gk104, gk110, gk208
  bool available = false;
  std::string reason;  // why not (missing tarball, changed SHA-256, unparseable source, no such chip)
  // nullptr: no such pack (or the lists are not available)
  const GrPack* find(const std::string& name) const;
  // like find(), but a missing pack is a std::runtime_error naming it
  const GrPack& pack(const std::string& name) const;
  std::vector<const GrPack*> all() const;
};
// The chip's lists; a chip hetvp extracts no lists for has available = false and a reason naming
// the chips that have them.
const GrLists& gr_lists(const std::string& chip);
// The chips the table holds (empty when the lists are not available).
std::vector<std::string> gr_list_chips();
// GF100's (gr_lists("gf100")).
using Gf100Lists = GrLists;
const GrLists& gf100_lists();

// gf100_gr_init_csdata's list words (the format the context controllers' mmctx_size/mmctx_xfer read):
// runs of up to 32 consecutive words as (count - 1) << 26 | (address - base), one run never spanning
// two entries' gaps. nouveau closes the last run of every pack, so two packs appended one after the
// other (gpc_0, gpc_1) never share a run.
std::vector<uint32_t> csdata_words(const GrPack& pack, uint32_t base);
// The bytes the firmware's mmctx_size (com.fuc) counts for those words: 4 * (1 + (w >> 26)) each.
uint32_t mmctx_bytes(const std::vector<uint32_t>& words);

}  // namespace hetvp::gpu::gr

namespace hetvp::gpu::gr::detail {
// Defined by the generated table (build/generated/gf100_lists.cpp): chips = nullptr and a reason
// when the lists are not available.
struct GrChipTable {
  const char* chip;
  const GrPack* packs;
  unsigned count;
};
struct GrTable {
  const GrChipTable* chips;
  unsigned count;
  const char* reason;
};
GrTable gr_table();
}  // namespace hetvp::gpu::gr::detail
