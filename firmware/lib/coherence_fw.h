/* hetvp — HUB firmware: the GPU's acquire and release of the CPU–GPU coherence protocol
 * (FW_CMD_COH_ACQUIRE / FW_CMD_COH_RELEASE, coh.c). `dir` is the GPU virtual address at which the
 * runtime mapped the directory window. Both return 0, or on an error set *error (FW_ERR_XFER:
 * the result is the faulting XFER_STATUS; FW_ERR_TIMEOUT: the result is the status register's
 * offset that never became 1). */
#ifndef HETVP_COHERENCE_FW_H
#define HETVP_COHERENCE_FW_H

#include "fw.h"

uint32_t fw_coh_acquire(uint64_t dir, uint32_t* error);
uint32_t fw_coh_release(uint64_t dir, uint32_t* error);

#endif
