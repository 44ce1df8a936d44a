/* hetvp — start-up code for the GPU microcontrollers (RV32IMC) and standalone test programs.
 * The image is linked so .data is already in place in DMEM (the driver uploads it): no copy loop.
 * Halt convention on return from main(ret): tohost = (ret << 1) | 1; *(MCU_REG_BASE + MCU_UC_EXIT)
 * = ret; mstatus.MIE = 0; wfi forever. See docs/iss.md. */
#include "hetvp/mcu_map.h"
#include "hetvp/mcu_regs.h"

    .section .text.init, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la a0, __bss_start
    la a1, __bss_end
1:  bgeu a0, a1, 2f
    sw zero, 0(a0)
    addi a0, a0, 4
    j 1b
2:  li a0, 0
    li a1, 0
    call main
    .globl _hetvp_halt
_hetvp_halt:                 /* a0 = exit code */
    slli t0, a0, 1
    ori t0, t0, 1
    la t1, tohost
    sw t0, 0(t1)
    li t1, MCU_REG_BASE + MCU_UC_EXIT
    sw a0, 0(t1)
    csrci mstatus, 8
3:  wfi
    j 3b
    .size _start, . - _start
