#include "sw/driver/launch.h"

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/compute/kernel_id.h"

namespace hetvp::sw {

namespace {
uint32_t inc(unsigned subch, uint32_t mthd, unsigned count) { return FIFO_HDR(FIFO_SEC_OP_INC, count, subch, mthd); }
}  // namespace

void KernelLaunch::check_args(const char* what) const {
  if (args.size() > CMP_ARGS) throw HostError(std::string(what) + " of " + kernel + ": more than 16 argument words");
}

std::vector<uint32_t> launch_methods(const KernelLaunch& k, unsigned subch) {
  std::vector<uint32_t> w = {
      inc(subch, CMPM_REG(CMP_KERNEL), 5), gpu::kernel_id(k.kernel), k.grid_x, k.grid_y, k.block_x, k.block_y};
  if (!k.args.empty()) {
    w.push_back(inc(subch, CMPM_REG(CMP_ARG), unsigned(k.args.size())));
    w.insert(w.end(), k.args.begin(), k.args.end());
  }
  w.insert(w.end(), {inc(subch, CMPM_REG(CMP_MODULE_LO), 3), uint32_t(k.module), uint32_t(k.module >> 32), k.shared});
  w.push_back(inc(subch, CMPM_LAUNCH, 1));
  w.push_back(0);
  return w;
}

std::vector<uint32_t> param_methods(const KernelLaunch& k, unsigned subch) {
  std::vector<uint32_t> w = {inc(subch, CMPM_REG(CMP_KERNEL), 1), gpu::kernel_id(k.kernel),
                             inc(subch, CMPM_REG(CMP_BLOCK_X), 2), k.block_x, k.block_y};
  if (!k.args.empty()) {
    w.push_back(inc(subch, CMPM_REG(CMP_ARG), unsigned(k.args.size())));
    w.insert(w.end(), k.args.begin(), k.args.end());
  }
  return w;
}

std::vector<uint32_t> grid_methods(uint32_t grid_x, uint32_t grid_y, uint64_t module, uint32_t shared,
                                   unsigned subch) {
  return {inc(subch, CMPM_REG(CMP_GRID_X), 2), grid_x, grid_y, inc(subch, CMPM_REG(CMP_MODULE_LO), 3),
          uint32_t(module), uint32_t(module >> 32), shared, inc(subch, CMPM_LAUNCH, 1), 0};
}

// ---------------------------------------------------------------- without a channel
ComputeFrontEnd::ComputeFrontEnd(HostApi& api, GpuDriver& gpu)
    : api_(api), gpu_(gpu), base_(gpu.block_base(PTOP_COMPUTE_BASE, "compute front end")) {}

LaunchTicket ComputeFrontEnd::start(const KernelLaunch& k) {
  k.check_args("launch");
  LaunchTicket t{k.kernel, gpu_.reg_read(base_ + CMP_COMPLETED)};
  gpu_.reg_write(base_ + CMP_KERNEL, gpu::kernel_id(k.kernel));
  gpu_.reg_write(base_ + CMP_GRID_X, k.grid_x);
  gpu_.reg_write(base_ + CMP_GRID_Y, k.grid_y);
  gpu_.reg_write(base_ + CMP_BLOCK_X, k.block_x);
  gpu_.reg_write(base_ + CMP_BLOCK_Y, k.block_y);
  gpu_.reg_write(base_ + CMP_MODULE_LO, uint32_t(k.module));
  gpu_.reg_write(base_ + CMP_MODULE_HI, uint32_t(k.module >> 32));
  gpu_.reg_write(base_ + CMP_SHARED, k.shared);
  for (size_t i = 0; i < k.args.size(); ++i) gpu_.reg_write(base_ + CMP_ARG + 4 * uint32_t(i), k.args[i]);
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
