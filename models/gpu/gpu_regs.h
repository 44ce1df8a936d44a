// The GPU's BAR0 register map: the one place its offsets are defined. Models decode them and
// the driver (sw/) programs them. Layout after NVIDIA Fermi as documented by envytools/nouveau
// where a block exists there (PMC, PTOP GPC count, HUB/GPC microcontrollers, copy engine
// position); register contents inside hetvp-designed blocks are hetvp's own (documented in
// docs/registers.md).
#pragma once

#include <cstdint>

namespace hetvp::gpu {

// ---- PMC: identity and interrupts ------------------------------------------------------
constexpr uint32_t kPmcBase = 0x000000;
constexpr uint32_t kPmcBoot0 = 0x000;    // RO chip id
constexpr uint32_t kPmcIntr = 0x100;     // interrupt status, one bit per source, write 1 to clear
constexpr uint32_t kPmcIntrEn = 0x140;   // interrupt enable mask; an enabled rising source sends an MSI
constexpr uint32_t kGf100Boot0 = 0x0c0000a1;
// Interrupt sources (bit numbers in PMC_INTR).
enum IntrBit : unsigned { kIntrCopy0 = 0, kIntrMmuFault = 1, kIntrHub = 2, kIntrCopy1 = 5, kIntrGpcBase = 8 /* + GPC index */ };

// ---- PTOP: topology ---------------------------------------------------------------------
constexpr uint32_t kPtopBase = 0x022400;
constexpr uint32_t kPtopNumGpcs = 0x30;  // RO number of GPCs (absolute 0x022430, as on Fermi)
constexpr uint32_t kPtopVramMiB = 0x34;  // RO VRAM size in MiB (hetvp)
constexpr uint32_t kPtopNumCopy = 0x38;  // RO number of copy engines (hetvp)

// ---- GPU MMU (hetvp layout) -----------------------------------------------------------------
constexpr uint32_t kMmuBase = 0x100000;
constexpr uint32_t kMmuPdBaseLo = 0x00;   // VRAM physical address of the page directory
constexpr uint32_t kMmuPdBaseHi = 0x04;
constexpr uint32_t kMmuTlbFlush = 0x08;   // write 1: invalidate every TLB entry
constexpr uint32_t kMmuFaultStatus = 0x10;  // bit0 fault pending (W1C), bits 8-11 reason
constexpr uint32_t kMmuFaultAddrLo = 0x14;
constexpr uint32_t kMmuFaultAddrHi = 0x18;
constexpr uint32_t kMmuFaultCount = 0x1c;
enum MmuFault : unsigned { kFaultNone = 0, kFaultNoPde = 1, kFaultNoPte = 2, kFaultReadOnly = 3, kFaultOutOfVram = 4 };
// Page-table format: 40-bit virtual addresses, 4 KiB pages, two levels.
constexpr unsigned kVaBits = 40;
constexpr unsigned kPageShift = 12;
constexpr unsigned kPtIndexBits = 14;  // VA[25:12]
constexpr unsigned kPdIndexBits = 14;  // VA[39:26]
constexpr uint64_t kPdeValid = 1;      // PDE: bit 0 valid, bits 39:12 page-table VRAM address
constexpr uint64_t kPteValid = 1;      // PTE: bit 0 valid
constexpr uint64_t kPteSysmem = 2;     //      bit 1 target is host memory (else VRAM)
constexpr uint64_t kPteReadOnly = 4;   //      bit 2 read only; bits 51:12 physical page address

// ---- Copy engines (positions after Fermi PCOPY0/1; registers hetvp's) ---------------------------
constexpr uint32_t kCopyBase = 0x104000;   // copy engine n at kCopyBase + n * kCopyStride
constexpr uint32_t kCopyStride = 0x1000;
constexpr unsigned kMaxCopyEngines = 2;
constexpr uint32_t kCopySrcLo = 0x00;
constexpr uint32_t kCopySrcHi = 0x04;
constexpr uint32_t kCopyDstLo = 0x08;
constexpr uint32_t kCopyDstHi = 0x0c;
constexpr uint32_t kCopyLength = 0x10;
constexpr uint32_t kCopyFenceLo = 0x14;
constexpr uint32_t kCopyFenceHi = 0x18;
constexpr uint32_t kCopyFenceValue = 0x1c;
constexpr uint32_t kCopyLaunch = 0x20;   // bit0 go, bit1 write fence when done, bit2 interrupt when done
constexpr uint32_t kCopyStatus = 0x24;   // bit0 busy, bit1 error; bits 15:8 error code
constexpr uint32_t kCopyErrorLo = 0x28;  // GPU virtual address that failed
constexpr uint32_t kCopyErrorHi = 0x2c;
constexpr uint32_t kCopyCompleted = 0x30;  // copies completed since reset
enum CopyLaunch : uint32_t { kLaunchGo = 1, kLaunchFence = 2, kLaunchIntr = 4 };
constexpr uint32_t kFenceError = 0x80000000u;  // set in the fence value written for a failed copy
enum CopyError : uint32_t { kCopyOk = 0, kCopySrcFault = 1, kCopyDstFault = 2, kCopyZeroLength = 3, kCopyBusy = 4 };

// ---- microcontrollers (blocks modelled by models/mcu) ---------------------------------------
constexpr uint32_t kHubBase = 0x409000;
constexpr uint32_t kGpcBroadcastBase = 0x41a000;
constexpr uint32_t kGpcBase = 0x502000;
constexpr uint32_t kGpcStride = 0x8000;
constexpr uint32_t kMcuWindow = 0x1000;

// ---- PCIe identity ----------------------------------------------------------------------------
constexpr uint16_t kVendorNvidia = 0x10de;
constexpr uint16_t kDeviceGtx480 = 0x06c0;
constexpr uint32_t kClassVga = 0x030000;

}  // namespace hetvp::gpu
