/* hetvp — tiny runtime for microcontroller firmware and standalone test programs (C, RV32IMC; with
 * HETVP_FALCON the Falcon build's layer, firmware/falcon/falcon_rt.h). */
#ifndef HETVP_RT_H
#define HETVP_RT_H

#include <stddef.h>
#include <stdint.h>

#include "hetvp/mcu_map.h"
#include "hetvp/mcu_regs.h"

#ifdef HETVP_FALCON /* the Falcon build (firmware/falcon): its own hardware layer */
#include "falcon_rt.h"
#else

#define CSR_READ(csr)                              \
  ({                                               \
    uint32_t v_;                                   \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_)); \
    v_;                                            \
  })
#define CSR_WRITE(csr, val) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(val)))
#define CSR_SET(csr, val) __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(val)))
#define CSR_CLEAR(csr, val) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(val)))

#define MCAUSE_INTERRUPT (1u << 31) /* mcause: set for an interrupt, clear for an exception */
#define MSTATUS_MIE (1u << 3)
#define MIE_MSIE (1u << 3)
#define MIE_MTIE (1u << 7)
#define MIE_MEIE (1u << 11)

static inline void irq_enable(void) { CSR_SET(mstatus, MSTATUS_MIE); }
static inline void irq_disable(void) { CSR_CLEAR(mstatus, MSTATUS_MIE); }
static inline void wfi(void) { __asm__ volatile("wfi"); }

static inline uint32_t mmio_read32(uint32_t addr) { return *(volatile uint32_t*)(uintptr_t)addr; }
static inline void mmio_write32(uint32_t addr, uint32_t v) { *(volatile uint32_t*)(uintptr_t)addr = v; }
/* register of the microcontroller's own block / of GPU BAR0 */
static inline uint32_t mcu_reg_read(uint32_t off) { return mmio_read32(MCU_REG_BASE + off); }
static inline void mcu_reg_write(uint32_t off, uint32_t v) { mmio_write32(MCU_REG_BASE + off, v); }
/* Core cycles per microsecond, from the clock the block reports (UC_CLOCK_KHZ): sleeps and poll
 * periods in time, whatever gpu0.microcontrollers.*.clock says. */
static inline uint32_t cycles_per_us(void) { return mcu_reg_read(MCU_UC_CLOCK_KHZ) / 1000u; }
static inline uint32_t bar0_read(uint32_t off) { return mmio_read32(MCU_BAR0_BASE + off); }
/* A register of another microcontroller's window through BAR0 (the Falcon layer maps some). */
#define FW_WINDOW_REG(off) (off)
static inline void bar0_write(uint32_t off, uint32_t v) { mmio_write32(MCU_BAR0_BASE + off, v); }

/* Exit through the crt0 halt convention (never returns). */
void hetvp_exit(int code) __attribute__((noreturn));

/* Standalone debug console (hetvp iss only; on the microcontroller this address faults). */
void sa_putc(char c);
void sa_puts(const char* s);
void sa_puthex(uint32_t v);

void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);

#endif /* HETVP_FALCON */
#endif
