// Fuzz harness: the PTX loader (models/gpu/compute/ptx, a module given to the runtime or to
// `gpu_run`). The input is PTX text. A module either loads or is refused with a LoadError (a located
// message); one that loads is encoded and its first kernel is run for one 32-thread block (a bounded
// number of steps) on host memory, where a bad access is an ExecError. Anything else escaping is a
// finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/ptx/host_env.h"
#include "models/gpu/compute/ptx/exec.h"
#include "models/gpu/compute/ptx/module.h"

using namespace hetvp::gpu::ptx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Module m = load(text, "fuzz.ptx");
    (void)encode(m);
    if (m.kernels().empty()) return 0;
    test::HostEnv env(1 << 16, 1 << 16);
    Launch l;
    l.module = &m;
    l.kernel = 0;
    l.grid = {2, 1, 1};
    l.block = {32, 1, 1};
    l.params.assign(m.kernels()[0].param_bytes, 0);
    l.dynamic_shared_bytes = 64;
    BlockExec b(l, env);
    b.start({1, 0, 0}, test::HostEnv::kLocalBase);
    for (unsigned i = 0; i < 4000 && !b.done(); ++i) {
      unsigned w = 0;
      while (w < b.warp_count() && b.state(w) != BlockExec::WarpState::Ready) ++w;
      if (w == b.warp_count()) break;
      b.step(w);
    }
  } catch (const LoadError&) {
  } catch (const ExecError&) {
  }
  return 0;
}
