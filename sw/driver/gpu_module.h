// A PTX module loaded for the GPU the way a driver loads one (CUDA's cuModuleLoad; Gdev cuda/driver/
// module.c and gdev_cuda.c: parse, lay out, allocate, upload the code through a bounce buffer):
//   1. translate (host): ptx::load parses and checks the PTX and lays the module out; its CPU time
//      is DriverOptions::module_translate per instruction (an assumption);
//   2. place (host): the module image (firmware/include/hetvp/compute.h CMP_IMG_*: header, PTX text,
//      encoded code at 16 bytes an instruction, constant bank 0, the variable table, the .global
//      variables) and, when a kernel has local memory, one local-memory slot per compute unit, in
//      VRAM of the caller's address space;
//   3. upload: the image goes to VRAM through the GPU's own path -- BAR1 writes (ModuleUpload::Bar,
//      the directly launching runtimes) or the copy engine of a channel from a pinned bounce buffer
//      (the Gdev runtime, GdevRuntime::module_load).
// A launch then names the image (KernelLaunch::module: CMP_MODULE) and a kernel of it. docs/gpu_kernels.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/gpu/compute/ptx/module.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

struct GpuModule {
  std::shared_ptr<const gpu::ptx::Module> ptx;
  GpuBuffer image;  // the module image (CMP_MODULE)
  GpuBuffer lmem;   // local-memory slots (size 0: no kernel uses local memory)
  // The kernel `name`; HostError "<file>: no kernel 'x' in the module (kernels: a, b)" if absent.
  const gpu::ptx::FunctionInfo& kernel(const std::string& name) const;
  // The GPU VA of module variable `name` (a `.global` one: `__device__` in CUDA); HostError if none.
  uint64_t variable(const std::string& name) const;
  std::vector<uint64_t> var_va;  // per ptx->variables() entry (0 for non-.global ones)
};

// Steps 1 and 2: the module translated and placed; *image receives the bytes to upload at
// module.image. Errors (malformed PTX, an unsupported instruction) are HostErrors with the
// loader's located message ("k.ptx:57: unsupported instruction 'tex.2d'").
GpuModule place_module(HostApi& api, GpuDriver& gpu, const std::string& text, const std::string& file,
                       unsigned space, const sc_core::sc_time& translate_per_instruction,
                       std::vector<uint8_t>* image);

// All three steps, the upload by BAR1 writes (what a runtime without a channel does for data).
GpuModule load_module_bar(HostApi& api, GpuDriver& gpu, const std::string& text, const std::string& file,
                          const sc_core::sc_time& translate_per_instruction, unsigned space = 0);

// The argument words of a launch of `kernel` checked against its parameters: HostError
// "<what>: kernel 'k' takes 28 bytes of parameters (a, b, c, n), the launch gives 24" when short.
void check_params(const GpuModule& m, const std::string& kernel, const std::vector<uint32_t>& args, const char* what);

// The kernel's parameter buffer as launch words (KernelLaunch::args): values[i] in parameter i's
// bytes (its offset and size, little-endian). HostError when the count differs from the kernel's.
std::vector<uint32_t> pack_params(const GpuModule& m, const std::string& kernel, const std::vector<uint64_t>& values);

// "sm_20", "sm_30" or "sm_35": the compute units' architecture (CMP_ARCH), what a module is compiled for.
std::string compute_arch(GpuDriver& gpu);

}  // namespace hetvp::sw
