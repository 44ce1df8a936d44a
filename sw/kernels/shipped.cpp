#include "sw/kernels/shipped.h"

#include <stdexcept>

namespace hetvp::sw {
namespace {
const ShippedPtx kShipped[] = {
#include "sw/kernels/shipped_ptx.inc"  // generated at build time (sw/kernels/CMakeLists.txt)
};
}  // namespace

const ShippedPtx& shipped_ptx(const std::string& module, const std::string& arch) {
  for (const ShippedPtx& p : kShipped)
    if (module == p.module && arch == p.arch) return p;
  throw std::logic_error("hetvp: no shipped kernel module '" + module + "' for " + arch);
}

}  // namespace hetvp::sw
