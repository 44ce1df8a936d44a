/* hetvp — the register protocol of the CPU–GPU coherence (SPEC §7, Misaki 2026 ch. 3): the
 * directory's window and a cache controller's block. Values as in the thesis. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_COHERENCE_H
#define HETVP_COHERENCE_H

#include "regdef.h"

/* The directory window: host physical DIR_BASE, DIR_WINDOW bytes (configs/coherence.yaml maps it
 * on host_bus). Offsets below are from DIR_BASE. */
#define DIR_BASE 0x40000000ull
#define DIR_WINDOW 0x20000u

#define HETVP_DIR_REGS(X)                                                                          \
    X(DIR, LOCK, 0x0000, 1, RW, 0, "write 1 take / 0 release; read 0 free, 1 CPU, 2 GPU (a second taker fails the run)") \
    X(DIR, INVALIDATE, 0x5000, 1, WO, 0, "1 = invalidate GPU caches with the CPU history, 2 = CPU caches with the GPU history") \
    X(DIR, INVAL_STATUS, 0x5004, 1, RO, 0, "1 = the last invalidation is done (as of the read's arrival)") \
    X(DIR, STAT_PROBES, 0x5010, 1, RO, 0, "last synchronisation: probes sent")                  \
    X(DIR, STAT_HISTORY, 0x5014, 1, RO, 0, "last synchronisation: history lines")               \
    X(DIR, STAT_INVALIDATED, 0x5018, 1, RO, 0, "last synchronisation: lines invalidated (all caches of the target)") \
    X(DIR, STAT_TAGS, 0x501c, 1, RO, 0, "last synchronisation: tag accesses at the target")    \
    X(DIR, STAT_TICKS_LO, 0x5020, 1, RO, 0, "last synchronisation: invalidation time in ps (1 THz ticks), bits 31:0") \
    X(DIR, STAT_TICKS_HI, 0x5024, 1, RO, 0, "bits 63:32 of it")                                 \
    X(DIR, STAT_SYNCS, 0x5028, 1, RO, 0, "invalidations so far")                                \
    X(DIR, STAT_TARGET, 0x502c, 1, RO, 0, "last synchronisation: 1 = GPU was the target, 2 = CPU") \
    X(DIR, HISTORY, 0x6000, 1, WO, 0, "1 = receive the CPU's history, 2 = the GPU's")           \
    X(DIR, HIST_STATUS, 0x6004, 1, RO, 0, "1 = the last history is complete")                   \
    X(DIR, HIST_END, 0x6008, 1, WO, 0, "(cache controller) total entries sent: the last chunk")  \
    X(DIR, GPU_CC_LO, 0x7000, 1, RW, 0, "host physical address of the GPU cache controller's block (BAR0 + GPU_CC_BASE), set by the runtime") \
    X(DIR, GPU_CC_HI, 0x7004, 1, RW, 0, "bits 63:32 of it")                                     \
    X(DIR, CPU_TRACK, 0x8000, 1, WO, 0, "1 start / 0 stop CPU write tracking (forwarded to the CPU cache controller)") \
    X(DIR, GPU_TRACK, 0x10000, 1, WO, 0, "1 start / 0 stop GPU write tracking (forwarded to the GPU cache controller)")
HETVP_REG_OFFSETS(HETVP_DIR_REGS)
/* A wide write-only port, not a register: (cache controller) a history chunk of N x uint64 line
 * numbers, up to DIR_HIST_DATA_SIZE bytes per write. */
#define DIR_HIST_DATA 0x6800u
#define DIR_HIST_DATA_SIZE 0x800u

/* A cache controller's register block: the CPU's is reached by the directory's `cpu_cc` port
 * (configs/coherence.yaml), the GPU's at BAR0 GPU_CC_BASE. */
#define HETVP_CC_REGS(X)                                                                           \
    X(CC, TRACK, 0x00, 1, RW, 0, "1 start / 0 stop recording the lines written")                \
    X(CC, HIST_REQ, 0x04, 1, WO, 0, "(directory) 1 = ack: send your history now")               \
    X(CC, HIST_CONFIRM, 0x08, 1, WO, 0, "(directory) 1 = all received: clear the history")      \
    X(CC, HIST_COUNT, 0x0c, 1, RO, 0, "lines recorded")                                          \
    X(CC, DIR_LO, 0x10, 1, RW, 0, "where the directory window is (CPU: physical; GPU: the VA the runtime mapped it at)") \
    X(CC, DIR_HI, 0x14, 1, RW, 0, "bits 63:32 of it")                                            \
    X(CC, WIN_VA_LO, 0x18, 1, RW, 0, "UVA window of shared memory (GPU side): virtual base, bits 31:0") \
    X(CC, WIN_VA_HI, 0x1c, 1, RW, 0, "bits 63:32 of it")                                         \
    X(CC, WIN_PA_LO, 0x20, 1, RW, 0, "physical base, bits 31:0")                                 \
    X(CC, WIN_PA_HI, 0x24, 1, RW, 0, "bits 63:32 of it")                                         \
    X(CC, WIN_SIZE_LO, 0x28, 1, RW, 0, "size, bits 31:0")                                        \
    X(CC, WIN_SIZE_HI, 0x2c, 1, RW, 0, "bits 63:32 of it")
HETVP_REG_OFFSETS(HETVP_CC_REGS)
/* Wide ports, not registers: (directory) one probe, 16 B {u64 first line, u32 count, u32 0}; and
 * its completion, a 32 B read {u64 invalidated, u64 tag accesses, u64 digest, u64 probes} since
 * the last read, answered when the probes received so far are processed. */
#define CC_PROBE 0x40u
#define CC_PROBE_DONE 0x50u

#endif
