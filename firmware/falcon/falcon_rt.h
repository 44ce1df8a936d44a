/* hetvp — the firmware's hardware layer on a GF100 context controller's Falcon core (HETVP_FALCON
 * builds; firmware/common/hetvp_rt.h includes it instead of its RV32 part). The same names as the RV32
 * layer, so firmware/lib, hub.c and gpc.c compile unchanged; docs/firmware_falcon.md has the mapping.
 *
 * The RV32 block's register map was laid out after the Falcon's (firmware/include/hetvp/mcu_regs.h,
 * falcon_ctxctl_regs.h), so most offsets mean the same register: the interrupt lines (INTR_* =
 * IRQ*, METHOD = the FIFO line 2, CHSW = line 8), the context-switch unit's registers (gr_ctxsw.h),
 * STATUS0/STATUS1 = CC_SCRATCH[0]/[1], RESULT/ERROR = SCRATCH[0]/[1]. What the Falcon places elsewhere
 * or lacks is mapped here: the arguments in CC_SCRATCH[2..4], the context registers in data memory,
 * UC_ID from MYINDEX, the clock in a hetvp register (0x0f0) and the cycle counter from the window's
 * debug port (FCTX_DBG_CYCLES_LO, 0xf34). The I/O primitives are runtime.fuc's. */
#ifndef HETVP_FALCON_RT_H
#define HETVP_FALCON_RT_H

#include <stddef.h>
#include <stdint.h>

#include "hetvp/falcon_ctxctl_regs.h"
#include "hetvp/mcu_map.h"
#include "hetvp/mcu_regs.h"

/* I/O space (start_fw.fuc): iord / iowr at an I/O address (FCTX_IO). */
uint32_t falcon_iord(uint32_t io);
void falcon_iowr(uint32_t io, uint32_t v);
/* The race-free sleep: arm (set $p0) before testing the condition, sleep while $p0 is set; every
 * interrupt clears $p0 (start_fw.fuc's handler), so one arriving after the test ends the sleep. */
void falcon_arm(void);
void falcon_sleep(void);
void falcon_irq_on(void);                      /* $flags ie0: vector 0 (every line INTR_ROUTE leaves at 0) */
void falcon_trap(void) __attribute__((noreturn)); /* FW_CMD_TRAP: a software trap, the core stops */

#define FALCON_DMEM_BASE 0u /* Harvard: data pointers are data-memory addresses from 0 */
#define FALCON_ARG_SCRATCH(off) FCTX_HETVP_ARG(((off) - FW_ARG0) / 4u) /* FW_ARG0..2 -> CC_SCRATCH[2..4] */

/* A register of another controller's window, as seen through BAR0 (hub.c starting a GPC command). */
#define FW_WINDOW_REG(off) (((off) >= FW_ARG0 && (off) <= FW_ARG2) ? FALCON_ARG_SCRATCH(off) : (off))

extern uint32_t falcon_ctxregs[FW_CTXREG_COUNT];

static inline uint32_t falcon_uc_id(void) {
#ifdef HETVP_FALCON_HUB
  return MCU_UC_ID_HUB | MCU_UC_ID_CTXSW;
#else
  return MCU_UC_ID_CTXSW | (falcon_iord(FCTX_IO(FCTX_MYINDEX, 0)) & MCU_UC_ID_INDEX_MASK);
#endif
}

/* register of the controller's own block (an RV32 offset, mapped) */
static inline uint32_t mcu_reg_read(uint32_t off) {
  if (off == MCU_UC_ID) return falcon_uc_id();
  if (off == MCU_UC_CLOCK_KHZ) return falcon_iord(FCTX_IO(FCTX_HETVP_CLOCK_KHZ, 0)); /* the YAML clock */
  if (off == MCU_UC_CYCLES_LO) return falcon_iord(FCTX_IO(FCTX_DBG_CYCLES_LO, 0));   /* the debug port's */
  if (off >= FW_CTXREG(0) && off < FW_CTXREG(FW_CTXREG_COUNT)) return falcon_ctxregs[(off - FW_CTXREG(0)) / 4u];
  if (off >= FW_ARG0 && off <= FW_ARG2) off = FALCON_ARG_SCRATCH(off);
  if (off == MCU_METHOD_DATA) off = FCTX_FIFO_DATA;
  if (off == MCU_METHOD_CMD) off = FCTX_FIFO_CMD;
  return falcon_iord(FCTX_IO(off, 0));
}
static inline void mcu_reg_write(uint32_t off, uint32_t v) {
  if (off == MCU_HOST_INTR || off == MCU_TIMER_CTRL || off == MCU_TIMER_CYCLES) return; /* none on GF100 */
  if (off >= FW_CTXREG(0) && off < FW_CTXREG(FW_CTXREG_COUNT)) {
    falcon_ctxregs[(off - FW_CTXREG(0)) / 4u] = v;
    return;
  }
  if (off >= FW_ARG0 && off <= FW_ARG2) off = FALCON_ARG_SCRATCH(off);
  falcon_iowr(FCTX_IO(off, 0), v);
}
static inline uint32_t cycles_per_us(void) { return mcu_reg_read(MCU_UC_CLOCK_KHZ) / 1000u; }
/* GPU BAR0 through the controller's MMIO bridge (MMIO_CTRL / MMIO_WRVAL / MMIO_RDVAL) */
static inline uint32_t bar0_read(uint32_t off) {
  falcon_iowr(FCTX_IO(FCTX_MMIO_CTRL, 0), FCTX_MMIO_CTRL_PENDING | (off & FCTX_MMIO_CTRL_ADDR_MASK));
  return falcon_iord(FCTX_IO(FCTX_MMIO_RDVAL, 0));
}
static inline void bar0_write(uint32_t off, uint32_t v) {
  falcon_iowr(FCTX_IO(FCTX_MMIO_WRVAL, 0), v);
  falcon_iowr(FCTX_IO(FCTX_MMIO_CTRL, 0),
              FCTX_MMIO_CTRL_PENDING | FCTX_MMIO_CTRL_WRITE | (off & FCTX_MMIO_CTRL_ADDR_MASK));
}

/* The wait loops of fw.c: irq_disable() arms, wfi() sleeps, irq_enable() has nothing left to do
 * (interrupts stay enabled on the Falcon; the armed $p0 closes the race instead). */
static inline void irq_disable(void) { falcon_arm(); }
static inline void irq_enable(void) {}
static inline void wfi(void) { falcon_sleep(); }

void hetvp_exit(int code) __attribute__((noreturn));

void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);

#endif
