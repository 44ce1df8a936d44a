# Start-up for the bench programs of bench/iss/vs_qemu.sh: one ELF that runs unchanged on
# `hetvp iss` (exit through the `tohost` word, HTIF convention) and on QEMU's `virt` machine with
# `-bios none` (RAM at 0x8000_0000; exit through the SiFive test device at 0x0010_0000).
  .section .text.start, "ax"
  .globl _start
_start:
  la sp, __stack_top
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:
  call main
  # hetvp iss: (code << 1) | 1 to tohost stops the run here.
  slli t0, a0, 1
  ori t0, t0, 1
  la t1, tohost
  sw t0, 0(t1)
  # QEMU virt: 0x5555 = pass, (code << 16) | 0x3333 = fail with code.
  li t1, 0x100000
  li t0, 0x5555
  beqz a0, 3f
  slli t0, a0, 16
  li t2, 0x3333
  or t0, t0, t2
3:
  sw t0, 0(t1)
4:
  j 4b

  .section .tohost, "aw"
  .align 6
  .globl tohost
tohost: .word 0
  .word 0
