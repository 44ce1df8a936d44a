#include "models/gpu/gpu_block.h"

#include <algorithm>
#include <stdexcept>

namespace hetvp::gpu {

GpuBlockRegistry& GpuBlockRegistry::get() {
  static GpuBlockRegistry r;
  return r;
}

void GpuBlockRegistry::add(GpuBlockType t) {
  for (auto& x : types_)
    if (x.key == t.key) throw std::logic_error("hetvp: GPU block '" + t.key + "' registered twice");
  types_.push_back(std::move(t));
  // Static registration order depends on link order; build order must not.
  std::sort(types_.begin(), types_.end(), [](const GpuBlockType& a, const GpuBlockType& b) { return a.key < b.key; });
}

}  // namespace hetvp::gpu
