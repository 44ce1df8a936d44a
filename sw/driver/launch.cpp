#include "sw/driver/launch.h"

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/compute/kernel_id.h"
#include "models/gpu/compute/ptx/limits.h"

namespace hetvp::sw {

namespace {
uint32_t inc(unsigned subch, uint32_t mthd, unsigned count) { return FIFO_HDR(FIFO_SEC_OP_INC, count, subch, mthd); }
}  // namespace

void KernelLaunch::check_args(const char* what) const {
  const std::string where = std::string(what) + " of " + kernel + ": ";
  if (args.size() * 4 > CMP_PARAM_MAX)
    throw HostError(where + std::to_string(args.size() * 4) + " bytes of parameters, a launch carries at most " +
                    std::to_string(CMP_PARAM_MAX) + " (CUDA's limit for sm_20 to sm_35; compute.h CMP_PARAM_MAX)");
  // The loosest architecture's limits (the driver does not read CMP_ARCH here): they bound what
  // CMP_DIM_YZ can pack; the front end refuses what its own architecture cannot run.
  const std::string dims = gpu::ptx::check_launch_dims(gpu::ptx::Arch::Sm35, {grid_x, grid_y, grid_z},
                                                       {block_x, block_y, block_z});
  if (!dims.empty()) throw HostError(where + dims);
}

std::vector<uint32_t> KernelLaunch::arg_words() const {
  if (args.size() <= CMP_ARGS) return args;
  if (!param_buffer)
    throw HostError("launch of " + kernel + ": " + std::to_string(args.size() * 4) +
                    " bytes of parameters need a parameter buffer in VRAM (KernelLaunch::param_buffer)");
  std::vector<uint32_t> w(3);
  w[CMP_ARG_PARAM_LO] = uint32_t(param_buffer);
  w[CMP_ARG_PARAM_HI] = uint32_t(param_buffer >> 32);
  w[CMP_ARG_PARAM_BYTES] = uint32_t(args.size() * 4);
  return w;
}

std::vector<uint32_t> launch_methods(const KernelLaunch& k, unsigned subch) {
  std::vector<uint32_t> w = {inc(subch, CMPM_REG(CMP_KERNEL), 5),      gpu::kernel_id(k.kernel),
                             k.grid_x,
                             CMP_DIM_YZ(k.grid_y, k.grid_z),
                             k.block_x,
                             CMP_DIM_YZ(k.block_y, k.block_z)};
  const std::vector<uint32_t> args = k.arg_words();
  if (!args.empty()) {
    w.push_back(inc(subch, CMPM_REG(CMP_ARG), unsigned(args.size())));
    w.insert(w.end(), args.begin(), args.end());
  }
  w.insert(w.end(), {inc(subch, CMPM_REG(CMP_MODULE_LO), 3), uint32_t(k.module), uint32_t(k.module >> 32), k.shared});
  w.push_back(inc(subch, CMPM_LAUNCH, 1));
  w.push_back(0);
  return w;
}

std::vector<uint32_t> param_methods(const KernelLaunch& k, unsigned subch) {
  std::vector<uint32_t> w = {inc(subch, CMPM_REG(CMP_KERNEL), 1), gpu::kernel_id(k.kernel),
                             inc(subch, CMPM_REG(CMP_BLOCK_X), 2), k.block_x, CMP_DIM_YZ(k.block_y, k.block_z)};
  const std::vector<uint32_t> args = k.arg_words();
  if (!args.empty()) {
    w.push_back(inc(subch, CMPM_REG(CMP_ARG), unsigned(args.size())));
    w.insert(w.end(), args.begin(), args.end());
  }
  return w;
}

std::vector<uint32_t> grid_methods(uint32_t grid_x, uint32_t grid_y, uint64_t module, uint32_t shared,
                                   unsigned subch, uint32_t grid_z) {
  return {inc(subch, CMPM_REG(CMP_GRID_X), 2), grid_x, CMP_DIM_YZ(grid_y, grid_z), inc(subch, CMPM_REG(CMP_MODULE_LO), 3),
          uint32_t(module), uint32_t(module >> 32), shared, inc(subch, CMPM_LAUNCH, 1), 0};
}

// ---------------------------------------------------------------- without a channel
ComputeFrontEnd::ComputeFrontEnd(HostApi& api, GpuDriver& gpu)
    : api_(api), gpu_(gpu), base_(gpu.block_base(PTOP_COMPUTE_BASE, "compute front end")) {}

LaunchTicket ComputeFrontEnd::start(const KernelLaunch& k) {
  k.check_args("launch");
  KernelLaunch with_buffer;
  const KernelLaunch* l = &k;
  if (k.args.size() > CMP_ARGS) {
    if (!params_.size) params_ = gpu_.alloc_vram(CMP_PARAM_MAX);
    api_.write(gpu_.bar1_address(params_), k.args.data(), k.args.size() * 4, Access::WriteCombined);
    with_buffer = k;
    with_buffer.param_buffer = params_.va;
    l = &with_buffer;
  }
  const std::vector<uint32_t> args = l->arg_words();
  LaunchTicket t{k.kernel, gpu_.reg_read(base_ + CMP_COMPLETED)};
  gpu_.reg_write(base_ + CMP_KERNEL, gpu::kernel_id(k.kernel));
  gpu_.reg_write(base_ + CMP_GRID_X, k.grid_x);
  gpu_.reg_write(base_ + CMP_GRID_Y, CMP_DIM_YZ(k.grid_y, k.grid_z));
  gpu_.reg_write(base_ + CMP_BLOCK_X, k.block_x);
  gpu_.reg_write(base_ + CMP_BLOCK_Y, CMP_DIM_YZ(k.block_y, k.block_z));
  gpu_.reg_write(base_ + CMP_MODULE_LO, uint32_t(k.module));
  gpu_.reg_write(base_ + CMP_MODULE_HI, uint32_t(k.module >> 32));
  gpu_.reg_write(base_ + CMP_SHARED, k.shared);
  for (size_t i = 0; i < args.size(); ++i) gpu_.reg_write(base_ + CMP_ARG + 4 * uint32_t(i), args[i]);
  gpu_.reg_write(base_ + CMP_LAUNCH, CMP_LAUNCH_GO | (k.release ? CMP_LAUNCH_RELEASE : 0u));
  return t;
}

bool ComputeFrontEnd::done(const LaunchTicket& t) { return gpu_.reg_read(base_ + CMP_COMPLETED) != t.completed_before; }

void ComputeFrontEnd::wait(const LaunchTicket& t, const sc_core::sc_time& poll, const std::string& what) {
  for (;;) {
    api_.sleep(poll);
    if (done(t)) break;
  }
  check(t, what);
}

void ComputeFrontEnd::check(const LaunchTicket&, const std::string& what) {
  if (gpu_.reg_read(base_ + CMP_STATUS) & CMP_STATUS_ERROR)
    throw HostError(what + " failed (ERROR = " + std::to_string(gpu_.reg_read(base_ + CMP_ERROR)) + ")");
}

}  // namespace hetvp::sw
