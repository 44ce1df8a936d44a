// How a launch names a kernel of a module (compute.h CMP_KERNEL): FNV-1a 32 of the kernel's name.
// The driver writes it (sw/driver/launch.cpp), the compute front end looks the kernel up by it.
#pragma once

#include <cstdint>
#include <string_view>

namespace hetvp::gpu {

inline uint32_t kernel_id(std::string_view name) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return h;
}

}  // namespace hetvp::gpu
