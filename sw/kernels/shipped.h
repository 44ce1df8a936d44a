// The PTX of the kernels hetvp ships (sw/kernels/*.cu, compiled by clang at build time for every
// architecture of hetvp's GPUs and built into the library): what the runtimes load as modules.
#pragma once

#include <string>

namespace hetvp::sw {

struct ShippedPtx {
  const char* module;  // the .cu file's stem: "gdev", "coherence", "mem_path"
  const char* arch;    // "sm_20", "sm_30", "sm_35"
  const char* text;
  std::string file_name() const { return std::string(module) + "." + arch + ".ptx"; }  // for messages
};

// The module compiled for `arch`; a std::logic_error if hetvp was built without it.
const ShippedPtx& shipped_ptx(const std::string& module, const std::string& arch);

}  // namespace hetvp::sw
