// The GPU compute block (GPU block key `compute`): a compute front end, `units` compute units
// with a per-unit L1 ("TCP"), a shared L2 ("TCC") and the GPU-side cache controller.
//
//   host ──BAR0 0x404000──> front end (kernel id, grid/block, args, LAUNCH, STATUS) ──> CU[i]
//   CU[i] ──coalescer──> gpu_cc.in[i] ──> tcp[i] ──> tcc ──> GPU MMU (gpu_va) ──> VRAM / PCIe to host
//   directory ──PCIe──> BAR0 0x405000 ──> gpu_cc.regs        gpu_cc.dir ──> gpu_va (directory window)
//   gpu_cc.level[i] ──> tcp[i].ctl (stage 0, walked in parallel), gpu_cc.level[N] ──> tcc.ctl (stage 1)
//
// Registers (offsets from BAR0 0x404000): KERNEL 0x00 (id = FNV-1a of the name), GRID_X 0x04,
// GRID_Y 0x08, BLOCK_X 0x0c, BLOCK_Y 0x10, LAUNCH 0x14 (W bit0 go, bit1 interrupt when done),
// STATUS 0x18 (R bit0 busy, bit1 error), COMPLETED 0x1c, ERROR 0x20 (1 unknown kernel, 2 bad
// dims, 3 memory fault, 4 kernel error), ARG0..ARG15 0x40..0x7c. Done raises PMC_INTR bit 16.
//
// Execution: blocks are assigned round-robin to compute units; a unit runs its warps one after
// the other (no latency hiding: the thesis' metrics are about coherence probes, not compute).
// Cost: `alu_cycles` per ALU instruction, `issue_cycles` per memory instruction plus
// `replay_cycles` per extra transaction; transactions are issued back to back and the
// instruction completes with the last. Counters: warp loads/stores, transactions, replays.
#pragma once

#include <cstdint>

namespace hetvp::gpu {
constexpr unsigned kIntrCompute = 16;  // PMC_INTR bit of the compute front end
constexpr uint32_t kCmpKernel = 0x00, kCmpGridX = 0x04, kCmpGridY = 0x08, kCmpBlockX = 0x0c, kCmpBlockY = 0x10,
                   kCmpLaunch = 0x14, kCmpStatus = 0x18, kCmpCompleted = 0x1c, kCmpError = 0x20, kCmpArg0 = 0x40;
constexpr unsigned kCmpArgs = 16;
}  // namespace hetvp::gpu
