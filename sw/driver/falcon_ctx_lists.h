// hetvp — hetvp's engines' context registers in nouveau's firmware's switch lists (falcon_ctx_lists.cpp).
#pragma once

#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

// Appends the compute front end's context registers (PTOP_COMPUTE_BASE + compute.h
// HETVP_COMPUTE_CTX_REGS) to the HUB's MMCTX list; call after the image upload, before the start.
// Returns the entries appended (0 without a compute block).
unsigned falcon_ctx_lists(GpuDriver& gpu);

}  // namespace hetvp::sw
