/* hetvp — the Falcon build's "context registers" (FW_CTXREG 0..7, mailboxes 8..15 on the RV32 block):
 * the GF100 controller has no such registers, so they are words of data memory (falcon_rt.h). */
#include "hetvp_rt.h"

uint32_t falcon_ctxregs[FW_CTXREG_COUNT];
