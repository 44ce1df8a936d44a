// Register protocol of hetvp's CPU–GPU coherence (SPEC §7, Misaki 2026 ch. 3), one place.
//
// Directory window: host physical 0x40000000, size 0x20000 (configs/coherence.yaml maps it on
// host_bus). Offsets below are from that base; values as in the thesis.
#pragma once

#include <cstdint>

#include "firmware/include/hetvp/gpu_map.h"  // GPU_COMPUTE_BASE, GPU_CC_BASE (BAR0 positions)

namespace hetvp::coherence {

constexpr uint64_t kDirBase = 0x40000000;
constexpr uint64_t kDirWindow = 0x20000;

// --- directory (offsets from kDirBase) -------------------------------------------------------
constexpr uint32_t kDirLock = 0x0000;         // W 1 take / 0 release; R 0 free, 1 CPU, 2 GPU
constexpr uint32_t kDirInvalidate = 0x5000;   // W 1 = invalidate GPU caches with the CPU history,
                                              //   2 = invalidate CPU caches with the GPU history
constexpr uint32_t kDirInvalStatus = 0x5004;  // R 1 = the last invalidation is done (as seen at read time)
constexpr uint32_t kDirStatProbes = 0x5010;   // R last synchronisation: probes sent
constexpr uint32_t kDirStatHistory = 0x5014;  //   history lines
constexpr uint32_t kDirStatInvalidated = 0x5018;  // lines invalidated (all caches of the target)
constexpr uint32_t kDirStatTags = 0x501c;     //   tag accesses at the target
constexpr uint32_t kDirStatTicksLo = 0x5020;  //   invalidation time in ps (1 THz ticks)
constexpr uint32_t kDirStatTicksHi = 0x5024;
constexpr uint32_t kDirStatSyncs = 0x5028;    //   invalidations so far
constexpr uint32_t kDirStatTarget = 0x502c;   //   1 = GPU was the target, 2 = CPU
constexpr uint32_t kDirHistory = 0x6000;      // W 1 = receive the CPU's history, 2 = the GPU's
constexpr uint32_t kDirHistStatus = 0x6004;   // R 1 = the last history is complete
constexpr uint32_t kDirHistEnd = 0x6008;      // W (cache controller) total entries sent: last chunk
constexpr uint32_t kDirHistData = 0x6800;     // W (cache controller) a chunk: N x uint64 line numbers
constexpr uint32_t kDirHistDataSize = 0x800;
constexpr uint32_t kDirGpuCcLo = 0x7000;      // RW host physical address of the GPU cache controller's
constexpr uint32_t kDirGpuCcHi = 0x7004;      //    register block (BAR0 + GPU_CC_BASE), set by the runtime
constexpr uint32_t kDirCpuTrack = 0x8000;     // W 1 start / 0 stop CPU write tracking (CPU cache controller)
constexpr uint32_t kDirGpuTrack = 0x10000;    // W 1 start / 0 stop GPU write tracking (GPU cache controller)

// --- a cache controller's register block -------------------------------------------------------
constexpr uint32_t kCcTrack = 0x00;        // RW 1 start / 0 stop recording written lines
constexpr uint32_t kCcHistReq = 0x04;      // W (directory) 1 = ack: send your history now
constexpr uint32_t kCcHistConfirm = 0x08;  // W (directory) 1 = all received: clear the history
constexpr uint32_t kCcHistCount = 0x0c;    // R lines recorded
constexpr uint32_t kCcDirLo = 0x10;        // RW where the directory window is (CPU: physical,
constexpr uint32_t kCcDirHi = 0x14;        //    GPU: the GPU VA the runtime mapped it at)
constexpr uint32_t kCcWinVaLo = 0x18;      // RW UVA window of shared memory: VA <-> PA (GPU side)
constexpr uint32_t kCcWinVaHi = 0x1c;
constexpr uint32_t kCcWinPaLo = 0x20;
constexpr uint32_t kCcWinPaHi = 0x24;
constexpr uint32_t kCcWinSizeLo = 0x28;
constexpr uint32_t kCcWinSizeHi = 0x2c;
constexpr uint32_t kCcProbe = 0x40;        // W 16 B {u64 first line, u32 count, u32 0}: one probe
constexpr uint32_t kCcProbeDone = 0x50;    // R 32 B {u64 invalidated, u64 tag accesses, u64 digest,
                                           //   u64 probes} since the last read; returns when the
                                           //   probes received so far are processed

}  // namespace hetvp::coherence
