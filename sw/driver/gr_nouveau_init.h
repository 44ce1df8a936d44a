// hetvp — the driver's writes of a chip's GR register lists (GF100, GF117, GK104, GK110, GK208), as
// nouveau does them (nvkm/engine/gr gf100.c gf100_gr_mmio / gf100_gr_icmd / gf100_gr_mthd, ctxgf100.c
// gf100_grctx_generate_main, which every one of these chips' `*_grctx` uses as .main). The lists are
// nouveau's, read from the Linux source at build time (models/gpu/gr/gf100_lists.h). The registers
// they name are served by the `pgraph` GPU block (docs/falcon.md "GF100's register lists").
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "models/gpu/gr/gf100_lists.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

struct GrListError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// gf100_gr_mmio: every word of `pack` written through BAR0 in order; returns the words written.
size_t gr_write_pack(GpuDriver& gpu, const gpu::gr::GrPack& pack);

// gf100_gr_init's first list: the chip's `<chip>_gr.mmio` pack (gf100_gr_pack_mmio ...), written
// before the context controllers start (falcon_boot.cpp). Throws GrListError when the chip's lists
// are not built in (the reason).
size_t gr_init_mmio(GpuDriver& gpu, const std::string& chip);
inline size_t gf100_gr_init_mmio(GpuDriver& gpu) { return gr_init_mmio(gpu, "gf100"); }

struct GrctxWrites {
  size_t mmio_words = 0;     // hub, gpc_0, zcull, gpc_1, tpc, ppc through BAR0
  size_t icmd_methods = 0;   // methods sent through 0x400200
  size_t mthd_methods = 0;   // methods sent through 0x404488
  size_t bar0_accesses = 0;  // every register read and write above
};

// The register writes of gf100_grctx_generate_main for nouveau's golden context, in its order:
// the hub, gpc_0, zcull, gpc_1, tpc and ppc (chips with PPCs) packs through BAR0 (gf100_gr_mmio);
// then the icmd pack
// through 0x400208 (enable), 0x400204 (data, when it changes) and 0x400200 (one method each, then
// poll 0x400700 bit 2 until clear), with 0x404154 (FE idle timeout) zeroed meanwhile and restored;
// then the mthd pack through 0x40448c (data) and 0x404488 (0x80000000 | class | method << 14).
// hetvp has no engine behind the two method interfaces (no 3D/2D/compute class state beyond the
// stored registers): the method words are written, stored, and not executed.
// Not done here (not register lists): the page pool / bundle / attribute buffers, floorsweeping and
// the ctxctl commands that save the golden image (gr_context.cpp's part).
// Throws GrListError when the lists are not built in, or when 0x400700 stays busy `poll_limit` reads.
// `lists`: the chip's (gpu::gr::gr_lists(chip)); the overload without takes GF100's.
GrctxWrites gf100_grctx_generate_writes(GpuDriver& gpu, const gpu::gr::GrLists& lists, unsigned poll_limit = 1000);
inline GrctxWrites gf100_grctx_generate_writes(GpuDriver& gpu, unsigned poll_limit = 1000) {
  return gf100_grctx_generate_writes(gpu, gpu::gr::gf100_lists(), poll_limit);
}

}  // namespace hetvp::sw
