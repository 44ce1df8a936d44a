/* hetvp — PMC (identity, interrupts) and PTOP (topology): Fermi positions (gpu_map.h). */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_PMC_H
#define HETVP_PMC_H

#include "regdef.h"

#define HETVP_PMC_REGS(X)                                                                          \
    X(PMC, BOOT_0, 0x000, 1, RO, 0x0c0000a1, "chip id: bits 20-28 chipset (gpu0.chip, gpu_chips.h; default GF100)")                                   \
    X(PMC, INTR, 0x100, 1, W1C, 0, "pending interrupts, one bit per source (gpu_map.h GPU_INTR_*)") \
    X(PMC, INTR_EN, 0x140, 1, RW, 0, "enabled sources; a source becoming pending while enabled sends one MSI")
HETVP_REG_OFFSETS(HETVP_PMC_REGS)
#define PMC_BOOT_0_GF100 0x0c0000a1u

#define HETVP_PTOP_REGS(X)                                                                         \
    X(PTOP, NUM_GPCS, 0x30, 1, RO, 0, "number of GPCs (absolute 0x022430, as on Fermi)")          \
    X(PTOP, VRAM_MIB, 0x34, 1, RO, 0, "VRAM size in MiB")                                         \
    X(PTOP, NUM_COPY, 0x38, 1, RO, 0, "number of copy engines (0: the GPU has none)")              \
    X(PTOP, COPY_BASE, 0x3c, 1, RO, 0, "BAR0 offset of copy engine 0 (engine n at + n * GPU_COPY_STRIDE); 0: none") \
    X(PTOP, COMPUTE_BASE, 0x40, 1, RO, 0, "BAR0 offset of the compute front end; 0: no compute block") \
    X(PTOP, CC_BASE, 0x44, 1, RO, 0, "BAR0 offset of the GPU cache controller; 0: no compute block") \
    X(PTOP, HUB_BASE, 0x48, 1, RO, 0, "BAR0 offset of the HUB microcontroller's window; 0: no microcontrollers") \
    X(PTOP, GPC_BASE, 0x4c, 1, RO, 0, "BAR0 offset of GPC 0's microcontroller window (GPC n at + n * GPC_STRIDE)") \
    X(PTOP, GPC_STRIDE, 0x50, 1, RO, 0, "distance between two GPC microcontroller windows")      \
    X(PTOP, GPC_BCAST_BASE, 0x54, 1, RO, 0, "BAR0 offset of the GPC broadcast window")            \
    X(PTOP, EXT_COUNT, 0x58, 1, RO, 0, "number of external BAR0 windows (gpu.bar0_ports: blocks outside the GPU, e.g. an RTL block)") \
    X(PTOP, MCU_CORE, 0x5c, 1, RO, 0, "the microcontrollers' core: PTOP_MCU_CORE_RV32 or _FALCON; 0: none") \
    X(PTOP, EXT_BASE, 0x60, 4, RO, 0, "BAR0 offset of external window n (n < EXT_COUNT)")           \
    X(PTOP, EXT_SIZE, 0x70, 4, RO, 0, "size in bytes of external window n")                         \
    X(PTOP, FIFO_BASE, 0x80, 1, RO, 0, "BAR0 offset of the FIFO engine (fifo.h); 0: no fifo block") \
    X(PTOP, COMPUTE_GPC_BASE, 0x84, 1, RO, 0, "BAR0 offset of GPC 0's compute state window (GPC n at + n * GPU_GPC_STRIDE); 0: none") \
    X(PTOP, MCU_IMAGES, 0x88, 1, RO, 0, "Falcon images resident at power-on (gpu.microcontrollers.hub/gpc.image): PTOP_MCU_IMAGES_*")
HETVP_REG_OFFSETS(HETVP_PTOP_REGS)
#define PTOP_EXT_MAX 4u /* external BAR0 windows PTOP can describe */
#define PTOP_EXT_BASE_N(n) (PTOP_EXT_BASE + 4u * (n))
#define PTOP_EXT_SIZE_N(n) (PTOP_EXT_SIZE + 4u * (n))
/* PTOP_MCU_CORE: which instruction set the HUB and GPC microcontrollers run, so that a loader
 * refuses an image of the other kind before writing it (gpu.microcontrollers.core in YAML). */
#define PTOP_MCU_CORE_RV32 1u   /* hetvp's RV32 microcontroller (models/mcu/uc), hetvp's firmware */
#define PTOP_MCU_CORE_FALCON 2u /* Falcon v3 (models/mcu/falcon), nouveau's fuc3 firmware */
#define PTOP_MCU_IMAGES_HUB 1u  /* the HUB's memories hold gpu.microcontrollers.hub.image */
#define PTOP_MCU_IMAGES_GPC 2u  /* every GPC's memories hold gpu.microcontrollers.gpc.image */
#define PTOP_MCU_IMAGES_HETVP 4u /* core falcon, firmware: hetvp: the boot uploads hetvp's C firmware (firmware/falcon) */
/* Block positions are configuration (gpu.<block>.bar0 in YAML): software reads them here. PMC
 * owns BAR0 offset 0, so 0 means "not present". PMC and PTOP themselves stay at their Fermi
 * positions (gpu_map.h): they are how software finds everything else. The microcontroller windows
 * move with gpu.microcontrollers.{bar0, gpc_bar0, gpc_stride, broadcast_bar0} for the RV32 core
 * (the driver and hetvp's HUB firmware read them here); nouveau's Falcon firmware needs Fermi's. */

#endif
