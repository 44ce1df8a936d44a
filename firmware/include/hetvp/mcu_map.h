/* hetvp — the GPU microcontroller's local address map. Usable from firmware C and from C++.
 * See docs/iss.md. Do not change a value without changing the linker scripts and the model. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_MCU_MAP_H
#define HETVP_MCU_MAP_H

#if defined(__ASSEMBLER__)
#define MCU_U(x) x
#else
#define MCU_U(x) x##u
#endif

/* code memory (IMEM): code + .rodata, executes from here only */
#define MCU_IMEM_BASE MCU_U(0x00000000)
#define MCU_HUB_IMEM_SIZE MCU_U(16384)
#define MCU_GPC_IMEM_SIZE MCU_U(8192)

/* data memory (DMEM): .data, .bss, stack (stack grows down from the top) */
#define MCU_DMEM_BASE MCU_U(0x00010000)
#define MCU_HUB_DMEM_SIZE MCU_U(4096)
#define MCU_GPC_DMEM_SIZE MCU_U(2048)

/* the microcontroller's own register block (host-visible layout, SPEC §5) */
#define MCU_REG_BASE MCU_U(0x00020000)
#define MCU_REG_SIZE MCU_U(0x1000)

/* window onto the GPU's BAR0 register space: BAR0 offset = addr - MCU_BAR0_BASE */
#define MCU_BAR0_BASE MCU_U(0x01000000)
#define MCU_BAR0_SIZE MCU_U(0x01000000)

/* crt0 halt convention: on return from main, crt0 stores (ret << 1) | 1 to the word `tohost`
 * (linker-placed at the start of DMEM: MCU_TOHOST_ADDR for hub/gpc images), then writes ret to
 * MCU_REG_BASE + MCU_UC_EXIT (hetvp/mcu_regs.h), clears mstatus.MIE and sleeps in a wfi loop forever. */
#define MCU_TOHOST_ADDR MCU_DMEM_BASE

/* standalone mode (hetvp iss / standalone.ld): large memories for test programs */
#define MCU_SA_IMEM_BASE MCU_U(0x00000000)
#define MCU_SA_IMEM_SIZE MCU_U(0x00100000) /* 1 MiB */
#define MCU_SA_DMEM_BASE MCU_U(0x10000000)
#define MCU_SA_DMEM_SIZE MCU_U(0x00100000) /* 1 MiB */
/* standalone only: a byte written here is printed on the log (debug console) */
#define MCU_SA_CONSOLE_ADDR MCU_U(0x00030000)

#endif
