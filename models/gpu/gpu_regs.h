// The GPU's register map for C++ code: the C headers under firmware/include/hetvp are the one
// place every block's offsets, fields and reset values are declared (docs/registers.md is
// generated from them); this header only gathers them, plus the PCIe identity.
#pragma once

#include <cstdint>

#include "firmware/include/hetvp/copy_engine.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/gpu_mmu.h"
#include "firmware/include/hetvp/pcie_config.h"
#include "firmware/include/hetvp/pmc.h"

namespace hetvp::gpu {

// ---- PCIe identity (pcie_config.h) -----------------------------------------------------------
constexpr uint16_t kVendorNvidia = PCICFG_VENDOR_NVIDIA;
constexpr uint32_t kClassVga = PCICFG_CLASS_VGA;

}  // namespace hetvp::gpu
