// hetvp — the context registers of hetvp's own engines in nouveau's firmware's switch lists
// (issue #24): what the HUB's MMCTX list must name for the compute front end's GR state
// (compute.h HETVP_COMPUTE_CTX_REGS) to be saved and restored by nouveau's firmware, as hetvp's
// RV32 firmware's list names them (firmware/hub/hub.c). The per-GPC compute state is strand 0 of
// each GPC's context-switch unit under both firmwares (models/gpu/gr/gr_block.cpp), so no GPC list
// entry is needed. Appended after the lists falcon_boot uploads, in gf100_gr_init_csdata's format
// (runs as (count - 1) << 26 | address; the HUB's list base is 0: gf100.c:1808).
#include "sw/driver/falcon_ctx_lists.h"

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"

namespace hetvp::sw {

unsigned falcon_ctx_lists(GpuDriver& gpu) {
  const uint32_t compute = gpu.reg_read(GPU_PTOP_BASE + PTOP_COMPUTE_BASE);
  if (!compute) return 0;  // no compute block: nothing of hetvp's to switch
  // The HUB list's head / tail pointers are D[0] / D[4]; the list ends at the tail.
  gpu.reg_write(GPU_HUB_BASE + FCTX_DATA_INDEX, FCTX_INDEX_AINCR | 0x000);
  gpu.reg_read(GPU_HUB_BASE + FCTX_DATA);
  uint32_t tail = gpu.reg_read(GPU_HUB_BASE + FCTX_DATA);
  gpu.reg_write(GPU_HUB_BASE + FCTX_DATA_INDEX, FCTX_INDEX_AINCW | tail);
  unsigned entries = 0;
#define HETVP_FALCON_CTX_RUN(off, count)                                                              \
  gpu.reg_write(GPU_HUB_BASE + FCTX_DATA, uint32_t((count) - 1) << 26 | (compute + uint32_t(off))); \
  tail += 4;                                                                                          \
  ++entries;
  HETVP_COMPUTE_CTX_REGS(HETVP_FALCON_CTX_RUN)
#undef HETVP_FALCON_CTX_RUN
  gpu.reg_write(GPU_HUB_BASE + FCTX_DATA_INDEX, FCTX_INDEX_AINCW | 0x004);
  gpu.reg_write(GPU_HUB_BASE + FCTX_DATA, tail);
  return entries;
}

}  // namespace hetvp::sw
