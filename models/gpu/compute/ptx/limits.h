// What a launch may ask of a compute capability: grid and block dimensions, threads per block,
// parameter bytes. Checked by the driver before it writes a launch (sw/driver/launch.cpp) and by
// the compute front end when the launch arrives (models/gpu/compute/compute.cpp), with one message.
#pragma once

#include <cstdint>
#include <string>

#include "models/gpu/compute/ptx/exec.h"

namespace hetvp::gpu::ptx {

// NVIDIA, CUDA C Programming Guide v4.2 (2012), Appendix F, Table F-2 "Technical specifications per
// compute capability" (2.x and 3.0; 3.5 as 3.0, CUDA C Programming Guide v5.0): grid x 65535 (2.x) or
// 2^31 - 1 (3.x), grid y and z 65535, block x and y 1024, block z 64, 1024 threads per block; kernel
// parameters at most 4 KB (B.1.4 and E.2.5: passed through constant memory).
struct LaunchLimits {
  Dim3 grid, block;
  uint32_t threads = 1024, param_bytes = kMaxParamBytes;
};
LaunchLimits launch_limits(Arch a);

// "" when the grid and block fit the architecture, else what does not, e.g.
// "block (32,1,65): block z is at most 64", "grid (70000,1,1): grid x is at most 65535 on sm_20".
std::string check_launch_dims(Arch a, const Dim3& grid, const Dim3& block);

}  // namespace hetvp::gpu::ptx
