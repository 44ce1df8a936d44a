// hetvp — the driver's writes of GF100's GR register lists, as nouveau does them (nvkm/engine/gr
// gf100.c gf100_gr_mmio / gf100_gr_icmd / gf100_gr_mthd, ctxgf100.c gf100_grctx_generate_main). The
// lists are nouveau's, read from the Linux source at build time (models/gpu/gr/gf100_lists.h). The
// registers they name are served by the `pgraph` GPU block (docs/falcon.md "GF100's register lists").
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

// gf100_gr_init's first list: GF100's gf100_gr_pack_mmio, written before the context controllers
// start (falcon_boot.cpp). Throws GrListError when the lists were not built in (the reason).
size_t gf100_gr_init_mmio(GpuDriver& gpu);

struct GrctxWrites {
  size_t mmio_words = 0;     // hub, gpc_0, zcull, gpc_1, tpc through BAR0
  size_t icmd_methods = 0;   // methods sent through 0x400200
  size_t mthd_methods = 0;   // methods sent through 0x404488
  size_t bar0_accesses = 0;  // every register read and write above
};

// The register writes of gf100_grctx_generate_main for nouveau's golden context, in its order:
// the hub, gpc_0, zcull, gpc_1 and tpc packs through BAR0 (gf100_gr_mmio); then the icmd pack
// through 0x400208 (enable), 0x400204 (data, when it changes) and 0x400200 (one method each, then
// poll 0x400700 bit 2 until clear), with 0x404154 (FE idle timeout) zeroed meanwhile and restored;
// then the mthd pack through 0x40448c (data) and 0x404488 (0x80000000 | class | method << 14).
// hetvp has no engine behind the two method interfaces (no 3D/2D/compute class state beyond the
// stored registers): the method words are written, stored, and not executed.
// Not done here (not register lists): the page pool / bundle / attribute buffers, floorsweeping and
// the ctxctl commands that save the golden image (gr_context.cpp's part).
// Throws GrListError when the lists are not built in, or when 0x400700 stays busy `poll_limit` reads.
GrctxWrites gf100_grctx_generate_writes(GpuDriver& gpu, unsigned poll_limit = 1000);

}  // namespace hetvp::sw
