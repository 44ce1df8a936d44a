/* hetvp — the PGRAPH register file (GPU block `pgraph`, models/gpu/gr/pgraph_regfile.h): GF100's GR
 * register space as far as nouveau's register lists name it (docs/falcon.md "GF100's register lists").
 * The registers themselves are the lists (generated from nouveau's ctx<chip>.c/<chip>.c at build time,
 * models/gpu/gr/gf100_lists.h); this header holds the windows and the few words the lists do not
 * name but nouveau's list writers use. Layout: envytools rnndb graph/gf100_pgraph.xml, nouveau
 * gf100.h (GPC_BCAST, GPC_UNIT, TPC_UNIT). */
/* clang-format off */
#ifndef HETVP_PGRAPH_REGFILE_H
#define HETVP_PGRAPH_REGFILE_H

#include "regdef.h"

#define PGRAPH_HUB_BASE        0x400000u /* PGRAPH's hub units: 0x400000-0x417fff */
#define PGRAPH_HUB_END         0x418000u
#define PGRAPH_GPC_BCAST_BASE  0x418000u /* GPC broadcast: GPC offset x at 0x418000 + x, x < 0x1800 */
#define PGRAPH_TPC_BCAST_BASE  0x419800u /* TPC broadcast: TPC offset r at 0x419800 + r, r < 0x800 */
#define PGRAPH_BCAST_END       0x41a000u /* 0x41a000: the GPC context controllers' broadcast window */
#define PGRAPH_GPC_UNIT_SIZE   0x1800u   /* a GPC's own units: GPC n offset x at 0x500000 + n * 0x8000 + x */
#define PGRAPH_GPC_BASE        0x500000u
#define PGRAPH_GPC_STRIDE      0x8000u
#define PGRAPH_GPC_TPC_BCAST   0x1800u   /* inside a GPC: its TPCs' broadcast (0x501800 + r) */
#define PGRAPH_GPC_TPC_BASE    0x4000u   /* inside a GPC: TPC t's units at 0x4000 + t * 0x800 */
#define PGRAPH_TPC_STRIDE      0x800u
/* PPC units (GF117 and Kepler; nouveau gf100.h PPC_UNIT(t, m, r) = 0x503000 + t * 0x8000 + m * 0x200
 * + r): inside a GPC, PPC p's units at 0x3000 + p * 0x200; GPC offset 0x3e00 reaches the GPC's PPCs
 * (the lists' 0x41be00 = GPC_BCAST(0x3e00): every PPC of every GPC). */
#define PGRAPH_GPC_PPC_BASE    0x3000u
#define PGRAPH_PPC_STRIDE      0x200u
#define PGRAPH_GPC_PPC_BCAST   0x3e00u
#define PGRAPH_PPC_BCAST_BASE  0x41be00u /* 0x418000 + PGRAPH_GPC_PPC_BCAST */
#define PGRAPH_PPC_BCAST_END   0x41c000u

/* Words no list names that nouveau's list writers use (gf100.c gf100_gr_icmd, gf100_gr_mthd): the
 * icmd interface (0x400204 data and 0x400208 control are in the lists) and PGRAPH_STATUS, which
 * gf100_gr_icmd polls for bit 2 (busy) after each method. Stored; STATUS reads its reset value
 * (0: idle, hetvp has no engine behind the method interfaces). */
#define HETVP_PGRAPH_EXTRA_REGS(X)                                                                    \
    X(PGRAPH, ICMD_METHOD, 0x400200, 1, RW, 0, "icmd: the method (address) of one bundle; stored")     \
    X(PGRAPH, STATUS, 0x400700, 1, RW, 0, "bit 2 = busy; reads 0 (idle)")
HETVP_REG_OFFSETS(HETVP_PGRAPH_EXTRA_REGS)
#endif
