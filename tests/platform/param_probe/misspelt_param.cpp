// Reads a parameter of a ParamSet by its member name; built with HETVP_PROBE_MISSPELT it reads a
// misspelt one, which must not compile (tests/platform/CMakeLists.txt: param.misspelt_*).
#include "platform/param_set.h"

namespace {
struct ProbeConfig : hetvp::ParamSet {
  hetvp::Int<unsigned> ways{this, "ways", 8, "associativity", hetvp::Range{1, 64}};
};
}  // namespace

unsigned probe_ways(const ProbeConfig& c) {
#ifdef HETVP_PROBE_MISSPELT
  return c.wayz;
#else
  return c.ways;
#endif
}
