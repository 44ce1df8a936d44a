// hetvp — GF100's GR register lists, as nouveau's driver holds them (nvkm/engine/gr/ctxgf100.c:
// gf100_grctx_pack_{hub,gpc_0,gpc_1,zcull,tpc,icmd,mthd}; gf100.c: gf100_gr_pack_mmio). The lists
// are read out of the Linux source at configure time (cmake/Gf100Lists.cmake, pinned SHA-256) into a
// generated table in the build tree; nothing of them is in this repository. docs/falcon.md "GF100's
// register lists".
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
  const char* name;    // hetvp's name: hub, gpc_0, gpc_1, zcull, tpc, icmd, mthd, mmio
  const char* source;  // the C array, e.g. "gf100_grctx_pack_hub"
  const GrPackRow* rows;
  size_t count;

  size_t entries() const;  // init entries over all rows
  size_t words() const;    // registers (or methods) named: the sum of the counts
  // Every (address, data) the pack names, in nouveau's order (gf100_gr_mmio's loop).
  void for_each_word(const std::function<void(uint32_t addr, uint32_t data)>& f) const;
};

struct Gf100Lists {
  bool available = false;
  std::string reason;  // why not (missing tarball, changed SHA-256, unparseable source)
  // nullptr: no such pack (or the lists are not available)
  const GrPack* find(const std::string& name) const;
  // like find(), but a missing pack is a std::runtime_error naming it
  const GrPack& pack(const std::string& name) const;
  std::vector<const GrPack*> all() const;
};
const Gf100Lists& gf100_lists();

// gf100_gr_init_csdata's list words (the format the context controllers' mmctx_size/mmctx_xfer read):
// runs of up to 32 consecutive words as (count - 1) << 26 | (address - base), one run never spanning
// two entries' gaps. nouveau closes the last run of every pack, so two packs appended one after the
// other (gpc_0, gpc_1) never share a run.
std::vector<uint32_t> csdata_words(const GrPack& pack, uint32_t base);
// The bytes the firmware's mmctx_size (com.fuc) counts for those words: 4 * (1 + (w >> 26)) each.
uint32_t mmctx_bytes(const std::vector<uint32_t>& words);

}  // namespace hetvp::gpu::gr

namespace hetvp::gpu::gr::detail {
// Defined by the generated table (build/generated/gf100_lists.cpp): packs = nullptr and a reason
// when the lists are not available.
struct Gf100Table {
  const GrPack* packs;
  unsigned count;
  const char* reason;
};
Gf100Table gf100_table();
}  // namespace hetvp::gpu::gr::detail
