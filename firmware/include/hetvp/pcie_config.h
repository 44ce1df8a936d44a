/* hetvp — the GPU's PCIe configuration space: the Type 0 header fields and the MSI capability
 * the endpoint implements (models/pcie/config_space.cpp), used by the driver's enumeration
 * (sw/driver/gpu_driver.cpp) and the tests. Offsets are PCI Local Bus / PCIe Base spec ones;
 * the identity values are the GTX 480's (GF100). Registers not listed read as zero and ignore
 * writes. */
/* Hand-aligned tables, also included by assembly: never reformatted. */
/* clang-format off */
#ifndef HETVP_PCIE_CONFIG_H
#define HETVP_PCIE_CONFIG_H

#include "regdef.h"

#define HETVP_PCICFG_REGS(X)                                                                       \
    X(PCICFG, ID, 0x00, 1, RO, PCICFG_ID_GTX480, "vendor ID (bits 15:0) and device ID (bits 31:16)")     \
    X(PCICFG, COMMAND, 0x04, 1, RW, PCICFG_STATUS_CAP_LIST, "command (15:0: MEMORY, MASTER, ...); status (31:16: CAP_LIST)") \
    X(PCICFG, CLASS_REV, 0x08, 1, RO, PCICFG_CLASS_REV_GTX480, "class code (31:8, VGA controller) and revision ID (7:0)") \
    X(PCICFG, HEADER, 0x0c, 1, RO, 0, "header type (bits 23:16): 0 = type 0, single function") \
    X(PCICFG, BAR, 0x10, 6, RW, 0, "base address registers; write all-ones to read back the size mask") \
    X(PCICFG, CAP_PTR, 0x34, 1, RO, PCICFG_MSI_CAP, "first capability: the MSI capability at PCICFG_MSI_CAP") \
    X(PCICFG, MSI_CAP, 0x50, 1, RW, PCICFG_MSI_CAP_RESET, "MSI: capability ID 5 (7:0), next 0 (15:8), message control (31:16)") \
    X(PCICFG, MSI_ADDR_LO, 0x54, 1, RW, 0, "MSI message address, bits 31:2") \
    X(PCICFG, MSI_ADDR_HI, 0x58, 1, RW, 0, "MSI message address, bits 63:32") \
    X(PCICFG, MSI_DATA, 0x5c, 1, RW, 0, "MSI message data (bits 15:0): the interrupt vector")
HETVP_REG_OFFSETS(HETVP_PCICFG_REGS)

/* ID */
#define PCICFG_VENDOR_NVIDIA 0x10deu
#define PCICFG_DEVICE_GTX480 0x06c0u
#define PCICFG_ID_VENDOR(v) ((v) & 0xffffu)
#define PCICFG_ID_DEVICE(v) (((v) >> 16) & 0xffffu)
#define PCICFG_ID_GTX480 ((PCICFG_DEVICE_GTX480 << 16) | PCICFG_VENDOR_NVIDIA)
/* COMMAND (bits 15:0) and STATUS (bits 31:16) */
#define PCICFG_COMMAND_MEMORY 0x0002u        /* memory space decoding */
#define PCICFG_COMMAND_MASTER 0x0004u        /* bus mastering (DMA, MSI) */
#define PCICFG_COMMAND_WRITABLE 0x0546u      /* IO, memory, master, parity, SERR, INTx disable */
#define PCICFG_STATUS_CAP_LIST 0x00100000u   /* a capability list exists (CAP_PTR) */
/* CLASS_REV */
#define PCICFG_CLASS_VGA 0x030000u
#define PCICFG_REVISION 0xa1u
#define PCICFG_CLASS_REV_CLASS_SHIFT 8
#define PCICFG_CLASS_REV_GTX480 ((PCICFG_CLASS_VGA << PCICFG_CLASS_REV_CLASS_SHIFT) | PCICFG_REVISION)
/* HEADER */
#define PCICFG_HEADER_TYPE(v) (((v) >> 16) & 0x7fu)
#define PCICFG_HEADER_TYPE_BRIDGE 1u
/* BAR n (low bits) */
#define PCICFG_BAR_64BIT 0x4u
#define PCICFG_BAR_TYPE_MASK 0x6u
#define PCICFG_BAR_PREFETCH 0x8u
#define PCICFG_BAR_FLAGS 0xfu
/* MSI_CAP */
#define PCICFG_MSI_CAP_ID 0x05u
#define PCICFG_MSI_ENABLE (1u << 16)         /* message control bit 0 */
#define PCICFG_MSI_64BIT (1u << 23)          /* message control bit 7: 64-bit address capable */
#define PCICFG_MSI_CONTROL_WRITABLE 0x0071u  /* enable, multiple message enable */
#define PCICFG_MSI_ADDR_ALIGN 0x3u           /* low address bits always zero */
#define PCICFG_MSI_CAP_RESET (PCICFG_MSI_64BIT | PCICFG_MSI_CAP_ID)

#endif
