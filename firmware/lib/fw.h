/* hetvp — the basic firmware skeleton shared by the HUB and GPC images (docs/firmware.md).
 * initialize -> sleep -> ihbody (interrupt: enqueue the command) -> work (dequeue, dispatch). */
#ifndef HETVP_FW_H
#define HETVP_FW_H

#include <stdint.h>

#include "hetvp/gr_ctxsw.h"
#include "hetvp/mcu_regs.h"
#include "hetvp_rt.h"

/* Provided by the image (hub.c / gpc.c). */
void fw_initialize(void); /* after the handler is installed */
/* An image-specific command; return 1 if handled (result/error set), 0 if unknown. */
int fw_dispatch(uint32_t cmd, uint32_t data, uint32_t* result, uint32_t* error);

/* The channel switch (MCU_IRQ_CHSW): provided by an image that serves it (the HUB's, hub.c). */
void fw_chsw(void) __attribute__((weak));

/* Library. */
void fw_ctxsw_wait_idle(void);         /* sleep until the context-switch engines are idle (gr_ctxsw.h SIGNAL) */
int fw_main(void);                     /* the whole firmware: call from main() */
void fw_sleep_cycles(uint32_t cycles); /* sleep on the timer interrupt (no busy-polling) */
/* Sleeps (wfi) until cond() holds, checked after every interrupt; 0 when timeout_cycles passed first. */
int fw_wait_until(int (*cond)(void), uint32_t timeout_cycles);
uint32_t fw_xfer(uint32_t ctrl, uint32_t ext_lo, uint32_t ext_hi, uint32_t dmem_off); /* -> XFER_STATUS */
uint32_t fw_dmem_offset(const void* p); /* data-memory offset of a DMEM object */
/* Copies `size` bytes between GPU virtual addresses through data memory (copy.c); returns the
 * bytes copied, or on a fault sets *error = FW_ERR_XFER and returns the XFER_STATUS. */
uint32_t fw_copy(uint64_t src, uint64_t dst, uint32_t size, uint32_t* error);

#endif
