// Test helpers: load a PTX file compiled at build time, launch a kernel on a HostEnv.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "models/gpu/compute/ptx/module.h"
#include "tests/gpu/ptx/host_env.h"

namespace hetvp::gpu::ptx::test {

inline std::string read_ptx(const std::string& name) {
  std::ifstream f(std::string(HETVP_PTX_TEST_DIR) + "/" + name);
  if (!f) throw std::runtime_error("missing test PTX " + name + " (built by the ptx_test_kernels target)");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline Module load_file(const std::string& name) { return load(read_ptx(name), name); }

// A launch of `kernel` with the parameters from `p`, blocks of `block`, enough blocks for `threads`.
inline Launch make_launch(const Module& m, const std::string& kernel, const Params& p, Dim3 grid, Dim3 block,
                          uint32_t dyn_shared = 0) {
  Launch l;
  l.module = &m;
  l.kernel = m.kernel_index(m.kernel(kernel));
  l.grid = grid;
  l.block = block;
  l.params = p.bytes();
  l.dynamic_shared_bytes = dyn_shared;
  l.code_base = 0x40000000;
  return l;
}

}  // namespace hetvp::gpu::ptx::test
