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
// of blocks, the block of threads, and up to CMP_ARGS argument words.
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
  // HostError "<what> of KERNEL: more than 16 argument words" when the args do not fit CMP_ARG.
  void check_args(const char* what) const;
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
                                   unsigned subch);

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
};

}  // namespace hetvp::sw
