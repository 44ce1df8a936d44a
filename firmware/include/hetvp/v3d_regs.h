/* hetvp — the VideoCore IV V3D block's host interface (Broadcom VideoCore IV 3D Architecture
 * Reference Guide, 2013, section 10, "V3D register address map"; offsets from the V3D base,
 * peripheral base + 0xC00000: a Raspberry Pi 1 sees V3D_SRQPC at 0x20C00430). Every register of
 * the guide's map is listed. Those hetvp gives behaviour: IDENT*, L2CACTL/SLCACTL (cache clears),
 * the user-program queue SRQ*, the performance counters PCTR*, DBQITE/DBQITC; the others (control
 * list executors, binner, debug) store what is written and read it back (RO ones read their
 * reset value). models/qpu/v3d_hostif.h is the model, sw/qpu/v3d_driver.h the host driver. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_V3D_REGS_H
#define HETVP_V3D_REGS_H

#include "regdef.h"

#define HETVP_V3D_REGS(X) \
    X(V3D, IDENT0, 0x000, 1, RO, 0x02443356, "'V3D' (bits 23:0) and technology version 2 (31:24)") \
    X(V3D, IDENT1, 0x004, 1, RO, 0, "V3D_IDENT1_* fields: slices, QPUs per slice, TMUs per slice, semaphores, VPM size") \
    X(V3D, IDENT2, 0x008, 1, RO, 0, "VRI memory size (3:0), tile buffer size (7:4), double-buffer (11:8): reads 0, no tile buffer or VRI in hetvp") \
    X(V3D, SCRATCH, 0x010, 1, RW, 0, "scratch register") \
    X(V3D, L2CACTL, 0x020, 1, RW, 0, "L2 cache control: ENABLE/DISABLE set/clear bit 0 (reads back), CLEAR (self-clearing) drops the QPU instruction caches") \
    X(V3D, SLCACTL, 0x024, 1, RW, 0, "slice cache clears (self-clearing, read 0): instruction (3:0) drops decoded code; uniforms (11:8), TMU0 (19:16), TMU1 (27:24)") \
    X(V3D, INTCTL, 0x030, 1, W1C, 0, "binner/renderer interrupt status (control lists not modelled: stays 0); write 1 to clear") \
    X(V3D, INTENA, 0x034, 1, RW, 0, "write 1 to enable binner/renderer interrupts; reads the enable mask (shared with INTDIS)") \
    X(V3D, INTDIS, 0x038, 1, RW, 0, "write 1 to disable binner/renderer interrupts; reads the enable mask (shared with INTENA)") \
    X(V3D, CT0CS, 0x100, 1, RW, 0, "control list executor 0 (binning) control and status (stored; control lists not modelled)") \
    X(V3D, CT1CS, 0x104, 1, RW, 0, "control list executor 1 (rendering) control and status (stored; not modelled)") \
    X(V3D, CT0EA, 0x108, 1, RW, 0, "control list executor 0 end address (stored)") \
    X(V3D, CT1EA, 0x10c, 1, RW, 0, "control list executor 1 end address (stored)") \
    X(V3D, CT0CA, 0x110, 1, RW, 0, "control list executor 0 current address (stored)") \
    X(V3D, CT1CA, 0x114, 1, RW, 0, "control list executor 1 current address (stored)") \
    X(V3D, CT00RA0, 0x118, 1, RW, 0, "control list executor 0 return address (stored)") \
    X(V3D, CT01RA0, 0x11c, 1, RW, 0, "control list executor 1 return address (stored)") \
    X(V3D, CT0LC, 0x120, 1, RW, 0, "control list executor 0 list counter (stored)") \
    X(V3D, CT1LC, 0x124, 1, RW, 0, "control list executor 1 list counter (stored)") \
    X(V3D, CT0PC, 0x128, 1, RW, 0, "control list executor 0 primitive list counter (stored)") \
    X(V3D, CT1PC, 0x12c, 1, RW, 0, "control list executor 1 primitive list counter (stored)") \
    X(V3D, PCS, 0x130, 1, RO, 0, "pipeline control and status: binning/rendering active bits (reads 0: idle)") \
    X(V3D, BFC, 0x134, 1, RW, 0, "binning mode flush count (stored)") \
    X(V3D, RFC, 0x138, 1, RW, 0, "rendering mode frame count (stored)") \
    X(V3D, BPCA, 0x300, 1, RO, 0, "current binning memory pool address (no binner: 0)") \
    X(V3D, BPCS, 0x304, 1, RO, 0, "remaining binning memory pool size (no binner: 0)") \
    X(V3D, BPOA, 0x308, 1, RW, 0, "overspill binning memory block address (stored)") \
    X(V3D, BPOS, 0x30c, 1, RW, 0, "overspill binning memory block size (stored)") \
    X(V3D, BXCF, 0x310, 1, RW, 0, "binner debug (stored)") \
    X(V3D, SQRSV0, 0x410, 1, RW, 0, "reserve QPUs 0-7: 4 bits each (stored; user programs run on any idle QPU)") \
    X(V3D, SQRSV1, 0x414, 1, RW, 0, "reserve QPUs 8-15: 4 bits each (stored)") \
    X(V3D, SQCNTL, 0x418, 1, RW, 0, "QPU scheduler control (stored)") \
    X(V3D, SRQPC, 0x430, 1, WO, 0, "user program request: writing the program address queues a request with SRQUA/SRQUL") \
    X(V3D, SRQUA, 0x434, 1, RW, 0, "uniforms address of the next request") \
    X(V3D, SRQUL, 0x438, 1, RW, 0, "uniforms length of the next request (informational)") \
    X(V3D, SRQCS, 0x43c, 1, RW, 0, "queue length (5:0), error (7), requests made (15:8), completed (23:16); write 1 to bits 7/8/16 to clear") \
    X(V3D, VPACNTL, 0x500, 1, RW, 0, "VPM allocator control (stored; the VPM is all user memory in hetvp)") \
    X(V3D, VPMBASE, 0x504, 1, RW, 0, "VPM base (user) memory reservation (stored)") \
    X(V3D, PCTRC, 0x670, 1, WO, 0, "performance counter clear: write 1 to bit n to clear PCTRn") \
    X(V3D, PCTRE, 0x674, 1, RW, 0, "performance counter enables: bit n enables PCTRn, bit 31 (V3D_PCTRE_EN) enables counting at all") \
    X(V3D, PCTR0, 0x680, 1, RO, 0, "performance counter 0: counts the source PCTRS0 selects while enabled") \
    X(V3D, PCTRS0, 0x684, 1, RW, 0, "performance counter 0 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR1, 0x688, 1, RO, 0, "performance counter 1: counts the source PCTRS1 selects while enabled") \
    X(V3D, PCTRS1, 0x68c, 1, RW, 0, "performance counter 1 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR2, 0x690, 1, RO, 0, "performance counter 2: counts the source PCTRS2 selects while enabled") \
    X(V3D, PCTRS2, 0x694, 1, RW, 0, "performance counter 2 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR3, 0x698, 1, RO, 0, "performance counter 3: counts the source PCTRS3 selects while enabled") \
    X(V3D, PCTRS3, 0x69c, 1, RW, 0, "performance counter 3 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR4, 0x6a0, 1, RO, 0, "performance counter 4: counts the source PCTRS4 selects while enabled") \
    X(V3D, PCTRS4, 0x6a4, 1, RW, 0, "performance counter 4 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR5, 0x6a8, 1, RO, 0, "performance counter 5: counts the source PCTRS5 selects while enabled") \
    X(V3D, PCTRS5, 0x6ac, 1, RW, 0, "performance counter 5 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR6, 0x6b0, 1, RO, 0, "performance counter 6: counts the source PCTRS6 selects while enabled") \
    X(V3D, PCTRS6, 0x6b4, 1, RW, 0, "performance counter 6 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR7, 0x6b8, 1, RO, 0, "performance counter 7: counts the source PCTRS7 selects while enabled") \
    X(V3D, PCTRS7, 0x6bc, 1, RW, 0, "performance counter 7 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR8, 0x6c0, 1, RO, 0, "performance counter 8: counts the source PCTRS8 selects while enabled") \
    X(V3D, PCTRS8, 0x6c4, 1, RW, 0, "performance counter 8 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR9, 0x6c8, 1, RO, 0, "performance counter 9: counts the source PCTRS9 selects while enabled") \
    X(V3D, PCTRS9, 0x6cc, 1, RW, 0, "performance counter 9 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR10, 0x6d0, 1, RO, 0, "performance counter 10: counts the source PCTRS10 selects while enabled") \
    X(V3D, PCTRS10, 0x6d4, 1, RW, 0, "performance counter 10 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR11, 0x6d8, 1, RO, 0, "performance counter 11: counts the source PCTRS11 selects while enabled") \
    X(V3D, PCTRS11, 0x6dc, 1, RW, 0, "performance counter 11 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR12, 0x6e0, 1, RO, 0, "performance counter 12: counts the source PCTRS12 selects while enabled") \
    X(V3D, PCTRS12, 0x6e4, 1, RW, 0, "performance counter 12 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR13, 0x6e8, 1, RO, 0, "performance counter 13: counts the source PCTRS13 selects while enabled") \
    X(V3D, PCTRS13, 0x6ec, 1, RW, 0, "performance counter 13 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR14, 0x6f0, 1, RO, 0, "performance counter 14: counts the source PCTRS14 selects while enabled") \
    X(V3D, PCTRS14, 0x6f4, 1, RW, 0, "performance counter 14 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, PCTR15, 0x6f8, 1, RO, 0, "performance counter 15: counts the source PCTRS15 selects while enabled") \
    X(V3D, PCTRS15, 0x6fc, 1, RW, 0, "performance counter 15 source (V3D_PCTR_SRC_*; 0..29)") \
    X(V3D, DBCFG, 0xe00, 1, RW, 0, "QPU debug configuration (stored; the debug interface is not modelled)") \
    X(V3D, DBSCS, 0xe04, 1, RW, 0, "debug slave control and status (stored)") \
    X(V3D, DBSCFG, 0xe08, 1, RW, 0, "debug slave configuration (stored)") \
    X(V3D, DBSSR, 0xe0c, 1, RW, 0, "debug slave special registers (stored)") \
    X(V3D, DBSDR, 0xe10, 4, RW, 0, "debug slave data registers 0-3 (stored)") \
    X(V3D, DBQRUN, 0xe20, 1, RW, 0, "QPU run control (stored)") \
    X(V3D, DBQHLT, 0xe24, 1, RW, 0, "QPU halt control (stored)") \
    X(V3D, DBQSTP, 0xe28, 1, RW, 0, "QPU step control (stored)") \
    X(V3D, DBQITE, 0xe2c, 1, RW, 0, "QPU interrupt enables, one bit per QPU (a QPU writing host_int raises it)") \
    X(V3D, DBQITC, 0xe30, 1, W1C, 0, "QPU interrupt status, one bit per QPU; write 1 to clear") \
    X(V3D, DBQGHC, 0xe34, 1, RW, 0, "QPU GHC (stored)") \
    X(V3D, DBQGHG, 0xe38, 1, RW, 0, "QPU GHG (stored)") \
    X(V3D, DBQGHH, 0xe3c, 1, RW, 0, "QPU GHH (stored)") \
    X(V3D, DBGE, 0xf00, 1, RO, 0, "PSE error signals (none: 0)") \
    X(V3D, FDBGO, 0xf04, 1, RO, 0, "FEP overrun error signals (none: 0)") \
    X(V3D, FDBGB, 0xf08, 1, RO, 0, "FEP interface ready and stall signals, FEP busy signals (idle: 0)") \
    X(V3D, FDBGR, 0xf0c, 1, RO, 0, "FEP internal ready signals (0)") \
    X(V3D, FDBGS, 0xf10, 1, RO, 0, "FEP internal stall input signals (0)") \
    X(V3D, ERRSTAT, 0xf20, 1, RO, 0x00001000, "miscellaneous error signals; bit 12 VCDI (VCD idle) set: assumption, an idle V3D with no errors")
HETVP_REG_OFFSETS(HETVP_V3D_REGS)

/* Position: peripheral base + V3D_BASE_OFFSET. */
#define V3D_BASE_OFFSET 0xc00000u
/* IDENT1 */
#define V3D_IDENT1_NSLC(v) (((v) >> 4) & 0xfu)
#define V3D_IDENT1_QUPS(v) (((v) >> 8) & 0xfu)
#define V3D_IDENT1_TUPS(v) (((v) >> 12) & 0xfu)
#define V3D_IDENT1_NSEM(v) (((v) >> 16) & 0xffu)
#define V3D_IDENT1_VPMSZ(v) (((v) >> 28) & 0xfu)
/* L2CACTL */
#define V3D_L2CACTL_ENABLE 0x1u
#define V3D_L2CACTL_DISABLE 0x2u
#define V3D_L2CACTL_CLEAR 0x4u
/* SLCACTL */
#define V3D_SLCACTL_ICC 0x0000000fu
#define V3D_SLCACTL_UCC 0x00000f00u
#define V3D_SLCACTL_T0CC 0x000f0000u
#define V3D_SLCACTL_T1CC 0x0f000000u
/* SRQCS */
#define V3D_SRQCS_LENGTH(v) ((v) & 0x3fu)
#define V3D_SRQCS_ERROR 0x80u
#define V3D_SRQCS_MADE(v) (((v) >> 8) & 0xffu)
#define V3D_SRQCS_DONE(v) (((v) >> 16) & 0xffu)
#define V3D_SRQCS_CLEAR_ERROR 0x80u
#define V3D_SRQCS_CLEAR_MADE 0x100u
#define V3D_SRQCS_CLEAR_DONE 0x10000u
#define V3D_SRQ_MAX 16u /* requests the queue holds */
/* Performance counters: PCTRn at V3D_PCTR(n), its source select at V3D_PCTRS(n). */
#define V3D_PCTR(n) (0x680u + 8u * (n))
#define V3D_PCTRS(n) (0x684u + 8u * (n))
#define V3D_PCTRE_EN 0x80000000u
#define V3D_PCTR_COUNTERS 16u
/* Counter sources (the guide's table; hetvp counts those marked *, the others stay 0: no
 * graphics pipeline). */
#define V3D_PCTR_SRC_QPU_IDLE 13u        /* * QPU clocks idle (summed over QPUs) */
#define V3D_PCTR_SRC_QPU_VALID 16u       /* * QPU clocks executing valid instructions */
#define V3D_PCTR_SRC_QPU_TMU_STALL 17u   /* * QPU clocks stalled waiting for the TMU */
#define V3D_PCTR_SRC_TMU_QUADS 24u       /* * TMU quads processed (4 per 16-element request) */
#define V3D_PCTR_SRC_MAX 29u

#endif
