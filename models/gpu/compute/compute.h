// The GPU compute block (GPU block key `compute`): a compute front end, `units` compute units
// with a per-unit L1 ("TCP"), a shared L2 ("TCC") and the GPU-side cache controller.
//
//   host ──BAR0 0x404000──> front end (kernel id, grid/block, args, LAUNCH, STATUS) ──> CU[i]
//   CU[i] ──coalescer──> gpu_cc.in[i] ──> tcp[i] ──> tcc ──> GPU MMU (gpu_va) ──> VRAM / PCIe to host
//   (non-caching global loads — Kepler's — pass through tcp[i] untouched to the tcc: docs/kepler.md)
//   directory ──PCIe──> BAR0 0x405000 ──> gpu_cc.regs        gpu_cc.dir ──> gpu_va (directory window)
//   gpu_cc.level[i] ──> tcp[i].ctl (stage 0, walked in parallel), gpu_cc.level[N] ──> tcc.ctl (stage 1)
//
// Registers: firmware/include/hetvp/compute.h (BAR0 GPU_COMPUTE_BASE). Done raises PMC_INTR
// bit GPU_INTR_COMPUTE when LAUNCH asked for it.
//
// Execution: every kernel is PTX of a loaded module (CMP_MODULE), run by the units' SIMT executor
// (ptx_unit.h, docs/gpu_kernels.md); blocks are assigned round-robin to compute units, a unit runs
// a block's warps interleaved and its blocks one after the other (no latency hiding: the thesis'
// metrics are about coherence probes, not compute). Cost: each warp instruction its class's issue
// cycles on the chip; a global/local memory instruction `issue_cycles` plus `replay_cycles` per
// extra transaction, transactions issued back to back, completing with the last; an uncached
// (system-scope) access `issue_cycles` plus its round trip. Counters: warp loads/stores,
// transactions, replays, PTX instructions.
#pragma once

#include <cstdint>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/gpu_map.h"
