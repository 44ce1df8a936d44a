/* hetvp — the GPU's BAR0 map: where each register block sits, and the PMC_INTR bit of every
 * interrupt source. Positions after NVIDIA Fermi (envytools/nouveau) where the block exists
 * there; the rest is hetvp's (docs/registers.md is generated from these headers). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_GPU_MAP_H
#define HETVP_GPU_MAP_H

#define GPU_PMC_BASE 0x000000u       /* Fermi PMC: identity, interrupts (pmc.h) */
#define GPU_FIFO_BASE 0x002000u      /* default of gpu.fifo.bar0: Fermi PFIFO position, the FIFO engine (fifo.h) */
#define GPU_PTOP_BASE 0x022400u      /* Fermi PTOP position: topology (pmc.h) */
#define GPU_MMU_BASE 0x100000u       /* hetvp GPU MMU (gpu_mmu.h) */
#define GPU_COPY_BASE 0x104000u      /* default of gpu.copy_engine.bar0: engine n at + n * GPU_COPY_STRIDE (copy_engine.h) */
#define GPU_COPY_STRIDE 0x1000u
#define GPU_MAX_COPY_ENGINES 2
#define GPU_COMPUTE_BASE 0x404000u   /* default of gpu.compute.bar0: compute front end (compute.h) */
#define GPU_CC_BASE 0x405000u        /* default of gpu.compute.cc_bar0: GPU-side coherence cache controller */
#define GPU_HUB_BASE 0x409000u       /* Fermi HUB microcontroller (mcu_regs.h) */
#define GPU_GPC_BCAST_BASE 0x41a000u /* Fermi GPC broadcast: a write reaches every GPC */
#define GPU_COMPUTE_GPC_BASE 0x500000u /* default of gpu.compute.gpc_bar0: GPC n's compute state at + n * GPU_GPC_STRIDE (compute.h) */
#define GPU_GPC_BASE 0x502000u       /* Fermi GPC n microcontroller at GPU_GPC_BASE + n * GPU_GPC_STRIDE */
#define GPU_GPC_STRIDE 0x8000u
#define GPU_MCU_WINDOW 0x1000u
/* BAR0 window sizes of the other blocks. The copy engine, compute and cache-controller positions
 * above are defaults: the configuration may move them, and software reads where they are from
 * PTOP (pmc.h PTOP_COPY_BASE, PTOP_COMPUTE_BASE, PTOP_CC_BASE). */
#define GPU_WINDOW_PMC 0x1000u
#define GPU_WINDOW_PTOP 0x100u
#define GPU_WINDOW_MMU 0x1000u
#define GPU_WINDOW_COPY GPU_COPY_STRIDE
#define GPU_WINDOW_COMPUTE 0x1000u
#define GPU_WINDOW_CC 0x1000u
#define GPU_WINDOW_FIFO 0x2000u
#define GPU_WINDOW_COMPUTE_GPC 0x100u
#define GPU_MAX_GPCS 16              /* the most GPCs the configuration schema allows */

/* PMC_INTR bits, one per source. GPC n uses bit 8 + n for n < GPU_MAX_GPCS (bits 8..23), so the
 * compute front end sits above them. */
#define GPU_INTR_COPY0 0
#define GPU_INTR_MMU_FAULT 1
#define GPU_INTR_HUB 2
#define GPU_INTR_COPY1 5
#define GPU_INTR_GPC(n) (8 + (n))
#define GPU_INTR_COMPUTE 24
#define GPU_INTR_FIFO 25
#define GPU_INTR_COPY(n) ((n) == 0 ? GPU_INTR_COPY0 : GPU_INTR_COPY1)

#if defined(__cplusplus)
static_assert(GPU_INTR_GPC(GPU_MAX_GPCS - 1) < GPU_INTR_COMPUTE, "GPC interrupt bits run into the compute bit");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(GPU_INTR_GPC(GPU_MAX_GPCS - 1) < GPU_INTR_COMPUTE, "GPC interrupt bits run into the compute bit");
#endif

#endif
