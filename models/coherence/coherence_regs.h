// The coherence register protocol for C++ code: firmware/include/hetvp/coherence.h declares the
// directory's and the cache controllers' registers once (docs/registers.md is generated from it).
#pragma once

#include "firmware/include/hetvp/coherence.h"
#include "firmware/include/hetvp/gpu_map.h"  // GPU_COMPUTE_BASE, GPU_CC_BASE (BAR0 positions)

namespace hetvp::coherence {}  // namespace hetvp::coherence
