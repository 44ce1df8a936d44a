#include "models/gpu/compute/ptx/limits.h"

namespace hetvp::gpu::ptx {

LaunchLimits launch_limits(Arch a) {
  LaunchLimits l;
  l.grid = {a == Arch::Sm20 ? 65535u : 0x7fffffffu, 65535u, 65535u};
  l.block = {1024u, 1024u, 64u};
  return l;
}

namespace {
std::string dims(const char* what, const Dim3& d) {
  return std::string(what) + " (" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}
// "" or "grid (70000,1,1): grid x is at most 65535 (sm_20)".
std::string check(const char* what, const Dim3& d, const Dim3& max, Arch a) {
  const uint32_t v[3] = {d.x, d.y, d.z}, m[3] = {max.x, max.y, max.z};
  for (unsigned i = 0; i < 3; ++i) {
    const std::string axis = std::string(what) + " " + "xyz"[i];
    if (!v[i]) return dims(what, d) + ": " + axis + " is 0 (every dimension is at least 1)";
    // Only a grid's width depends on the architecture: name it there.
    const bool per_arch = std::string(what) == "grid" && i == 0;
    if (v[i] > m[i])
      return dims(what, d) + ": " + axis + " is at most " + std::to_string(m[i]) +
             (per_arch ? std::string(" on ") + to_string(a) : std::string());
  }
  return "";
}
}  // namespace

std::string check_launch_dims(Arch a, const Dim3& grid, const Dim3& block) {
  const LaunchLimits l = launch_limits(a);
  std::string why = check("grid", grid, l.grid, a);
  if (why.empty()) why = check("block", block, l.block, a);
  if (why.empty() && block.count() > l.threads)
    why = dims("block", block) + ": " + std::to_string(block.count()) + " threads, a block has at most " +
          std::to_string(l.threads);
  return why;
}

}  // namespace hetvp::gpu::ptx
