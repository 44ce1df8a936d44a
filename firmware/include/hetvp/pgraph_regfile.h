/* hetvp — the PGRAPH register file (GPU block `pgraph`, models/gpu/gr/pgraph_regfile.h): GF100's GR
 * register space as far as nouveau's register lists name it (docs/falcon.md "GF100's register lists").
 * The registers themselves are the lists (generated from nouveau's ctxgf100.c/gf100.c at build time,
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

/* Words no list names that nouveau's list writers use (gf100.c gf100_gr_icmd, gf100_gr_mthd): the
 * icmd interface (0x400204 data and 0x400208 control are in the lists) and PGRAPH_STATUS, which
 * gf100_gr_icmd polls for bit 2 (busy) after each method. Stored; STATUS reads its reset value
 * (0: idle, hetvp has no engine behind the method interfaces). */
#define HETVP_PGRAPH_EXTRA_REGS(X)                                                                    \
    X(PGRAPH, ICMD_METHOD, 0x400200, 1, RW, 0, "icmd: the method (address) of one bundle; stored")     \
    X(PGRAPH, STATUS, 0x400700, 1, RW, 0, "bit 2 = busy; reads 0 (idle)")
HETVP_REG_OFFSETS(HETVP_PGRAPH_EXTRA_REGS)
#endif
