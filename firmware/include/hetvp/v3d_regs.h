/* hetvp — the VideoCore IV V3D block's host interface (Broadcom VideoCore IV 3D Architecture
 * Reference Guide, 2013, section 10; offsets from the V3D base, peripheral base + 0xC00000: a
 * Raspberry Pi 1 sees V3D_SRQPC at 0x20C00430). Only the registers hetvp models are listed: the
 * identification, the cache controls, the user-program request queue and the QPU interrupts.
 * models/qpu/v3d.h is the model, sw/qpu/v3d_driver.h the host driver. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_V3D_REGS_H
#define HETVP_V3D_REGS_H

#include "regdef.h"

#define HETVP_V3D_REGS(X)                                                                          \
    X(V3D, IDENT0, 0x000, 1, RO, 0x02443356, "'V3D' (bits 23:0) and technology version 2 (31:24)") \
    X(V3D, IDENT1, 0x004, 1, RO, 0, "V3D_IDENT1_* fields: slices, QPUs per slice, TMUs per slice, semaphores, VPM size") \
    X(V3D, SCRATCH, 0x010, 1, RW, 0, "scratch register")                                          \
    X(V3D, L2CACTL, 0x020, 1, RW, 0, "L2 cache control: V3D_L2CACTL_CLEAR clears it (and the QPU instruction caches in hetvp)") \
    X(V3D, SLCACTL, 0x024, 1, WO, 0, "slice cache clears: instruction (3:0), uniforms (11:8), TMU0 (19:16), TMU1 (27:24)") \
    X(V3D, SRQPC, 0x430, 1, WO, 0, "user program request: writing the program address queues a request with SRQUA/SRQUL") \
    X(V3D, SRQUA, 0x434, 1, RW, 0, "uniforms address of the next request")                       \
    X(V3D, SRQUL, 0x438, 1, RW, 0, "uniforms length of the next request (informational)")        \
    X(V3D, SRQCS, 0x43c, 1, RW, 0, "queue length (5:0), error (7), requests made (15:8), completed (23:16); write 1 to bits 7/8/16 to clear") \
    X(V3D, DBQITE, 0xe2c, 1, RW, 0, "QPU interrupt enables, one bit per QPU (a QPU writing host_int raises it)") \
    X(V3D, DBQITC, 0xe30, 1, W1C, 0, "QPU interrupt status, one bit per QPU; write 1 to clear")
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

#endif
