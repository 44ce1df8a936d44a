// hetvp — a kernel launch as the driver hands it to the GPU, in one description for both ways a
// host program starts work on the compute front end (compute.h):
//   - through a channel (channel.h): the launch's registers as compute methods in the push buffer
//     (CMPM_REG(CMP_KERNEL) ... CMPM_LAUNCH), run when the FIFO reaches them, GR context switched;
//   - directly (ComputeFrontEnd below): the same registers written over BAR0, then CMP_LAUNCH; no
//     channel, no context switch (the coherence runtime's kernels, `mem_path`).
// A runtime describes what to run (KernelLaunch) and never writes CMP_* registers itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/host/host_api.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

// What a launch names: the kernel (by name: compute.h CMP_KERNEL takes its kernel_id), the grid
// of blocks, the block of threads, and the kernel's parameter block as words (at most
// CMP_PARAM_MAX bytes; more than CMP_ARGS words travel in a constant buffer: param_buffer).
struct KernelLaunch {
  std::string kernel;
  uint32_t grid_x = 1, grid_y = 1, block_x = 1, block_y = 1;
  std::vector<uint32_t> args;
  // The module image the kernel is in (gpu_module.h; CMP_MODULE) and the dynamic shared memory per
  // block (CMP_SHARED). Every kernel is a module's: 0 is a launch error (CMP_ERR_UNKNOWN_KERNEL).
  uint64_t module = 0;
  uint32_t shared = 0;
  // Direct launches (ComputeFrontEnd): the TCC writes its dirty lines back when the kernel ends
  // (CMP_LAUNCH_RELEASE), so the host reads the results from VRAM.
  bool release = false;
  // The third dimension of the grid and of the block (compute.h CMP_DIM_YZ).
  uint32_t grid_z = 1, block_z = 1;
  // GPU VA of a constant buffer holding `args` when they are more than CMP_ARGS words (compute.h
  // CMP_PARAM_*): ComputeFrontEnd writes it itself; a channel's runtime places it.
  uint64_t param_buffer = 0;
  // HostError "<what> of KERNEL: ..." when the parameter block is larger than CMP_PARAM_MAX bytes or
  // the grid or block is out of every architecture's limits (ptx/limits.h; the compute front end
  // checks its own architecture's).
  void check_args(const char* what) const;
  // What CMP_ARG holds: the args, or, for more than CMP_ARGS words, the param_buffer's descriptor.
  std::vector<uint32_t> arg_words() const;
};

// The launch as compute methods for subchannel `subch` of a channel: the launch state (KERNEL,
// GRID_X/Y, BLOCK_X/Y in one incrementing method run, then the ARGs), then LAUNCH.
std::vector<uint32_t> launch_methods(const KernelLaunch& k, unsigned subch);
// The two halves the CUDA driver API launches in (cuFuncSetBlockShape/cuParamSet*, then
// cuLaunchGrid): the kernel, block shape and args; then the grid and LAUNCH. Between them the
// channel's GR context holds the launch state.
std::vector<uint32_t> param_methods(const KernelLaunch& k, unsigned subch);
// The module binding (MODULE, SHARED) is pushed with the grid, before LAUNCH: no GR context state,
// the FIFO keeps it per channel and writes it right before the channel's LAUNCH.
std::vector<uint32_t> grid_methods(uint32_t grid_x, uint32_t grid_y, uint64_t module, uint32_t shared,
                                   unsigned subch, uint32_t grid_z = 1);

// A launch started on the compute front end without a channel: COMPLETED as it read before.
struct LaunchTicket {
  std::string kernel;
  uint32_t completed_before = 0;
};

// The compute front end's own launch registers (BAR0 + PTOP_COMPUTE_BASE). Where they are is read
// once, at construction (a BAR0 read, before anything is measured).
class ComputeFrontEnd {
 public:
  ComputeFrontEnd(HostApi& api, GpuDriver& gpu);
  // Reads COMPLETED, writes the launch's registers and CMP_LAUNCH (GO); returns at once.
  // A parameter block of more than CMP_ARGS words is written by BAR1 into the front end's parameter
  // buffer (CMP_PARAM_MAX bytes of VRAM in address space 0, allocated at the first such launch; one
  // kernel runs at a time and reads it at its start).
  LaunchTicket start(const KernelLaunch& k);
  // One read of COMPLETED: has the kernel finished?
  bool done(const LaunchTicket& t);
  // Polls done() every `poll` (sleeping first: a kernel takes at least the launch overhead), then
  // check().
  void wait(const LaunchTicket& t, const sc_core::sc_time& poll, const std::string& what);
  // One read of STATUS: a failed kernel is a HostError "WHAT failed (ERROR = code)".
  void check(const LaunchTicket& t, const std::string& what);

 private:
  HostApi& api_;
  GpuDriver& gpu_;
  uint32_t base_;
  GpuBuffer params_;  // the parameter buffer (size 0 until a launch needs it)
};

}  // namespace hetvp::sw
