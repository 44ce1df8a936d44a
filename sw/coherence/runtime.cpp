#include "sw/coherence/runtime.h"

#include <cinttypes>

#include "models/coherence/coherence_regs.h"
#include "models/gpu/gpu_regs.h"
#include "platform/format.h"
#include "sw/kernels/shipped.h"

namespace hetvp::sw {

using namespace hetvp::coherence;

CoherenceRuntime::CoherenceRuntime(HostApi& api, const CoherenceOptions& rt, const std::string& workload,
                                   const std::string& size)
    : api_(api), drv_(api, rt.driver), workload_(workload), size_(size) {
  poll_ = rt.poll;
  drv_.open(0);
  arena_size_ = (rt.arena + 4095) & ~uint64_t(4095);
  arena_pa_ = api_.alloc_pinned(arena_size_, 4096);
  GpuBuffer b = drv_.map_host(arena_pa_, arena_size_);
  arena_va_ = b.va;
  GpuBuffer d = drv_.map_host(DIR_BASE, DIR_WINDOW);
  dir_va_ = d.va;
  // Directory: where the GPU cache controller is (BAR0 + PTOP_CC_BASE, across PCIe).
  // Where the compute blocks sit in BAR0 (PTOP), read here, before anything is measured.
  const uint32_t cc_base = drv_.block_base(PTOP_CC_BASE, "GPU cache controller (compute block)");
  compute_.emplace(api_, drv_);
  const uint64_t gpu_cc = drv_.function().bar[0] + cc_base;
  dir_write(DIR_GPU_CC_LO, static_cast<uint32_t>(gpu_cc));
  dir_write(DIR_GPU_CC_HI, static_cast<uint32_t>(gpu_cc >> 32));
  // GPU cache controller: the directory window's GPU VA and the shared arena's UVA window.
  auto cc = [&](uint32_t off, uint64_t v) {
    drv_.reg_write(cc_base + off, static_cast<uint32_t>(v));
    drv_.reg_write(cc_base + off + 4, static_cast<uint32_t>(v >> 32));
  };
  cc(CC_DIR_LO, dir_va_);
  cc(CC_WIN_VA_LO, arena_va_);
  cc(CC_WIN_PA_LO, arena_pa_);
  cc(CC_WIN_SIZE_LO, arena_size_);
  if (rt.gpu_sync == GpuSync::hub) {
    hub_sync_ = true;
    mcu_ = std::make_unique<McuDriver>(api_, drv_);
    try {
      boot_microcontrollers(api_, drv_, rt.mcu);
    } catch (const McuError& e) {
      throw HostError(std::string("rt.gpu_sync: hub: ") + e.what());
    } catch (const HostError& e) {
      throw HostError(std::string("rt.gpu_sync: hub: booting the microcontrollers failed (does the GPU have them? "
                                  "gpu blocks): ") +
                      e.what());
    }
  }
  // The kernels (sw/kernels/coherence.cu: the workloads' and the protocol's own), loaded through
  // BAR1 now, before anything is measured.
  const ShippedPtx& p = shipped_ptx("coherence", compute_arch(drv_));
  module_ = load_module_bar(api_, drv_, p.text, p.file_name(), drv_.options().module_translate);
  api_.results().set_columns({"workload", "size", "sync", "phase", "target", "history_lines", "probes",
                              "lines_invalidated", "tag_accesses", "ticks", "ns"});
}

uint64_t CoherenceRuntime::alloc(uint64_t bytes) {
  bytes = (bytes + 4095) & ~uint64_t(4095);
  if (arena_next_ + bytes > arena_size_)
    throw HostError("shared arena exhausted: " + std::to_string(arena_next_ + bytes) + " > " +
                    std::to_string(arena_size_) + " bytes (raise args.rt.arena)");
  uint64_t a = arena_pa_ + arena_next_;
  arena_next_ += bytes;
  return a;
}

void CoherenceRuntime::dir_write(uint32_t off, uint32_t v) { api_.mmio_write32(DIR_BASE + off, v); }
uint32_t CoherenceRuntime::dir_read(uint32_t off) { return api_.mmio_read32(DIR_BASE + off); }

void CoherenceRuntime::wait_dir(uint32_t off, const char* what) {
  if (!api_.poll32(DIR_BASE + off, 1, 1, poll_, sc_core::sc_time(1, sc_core::SC_SEC), Access::Uncached))
    throw HostError(std::string("directory: ") + what + " not done within 1 s");
}

void CoherenceRuntime::record(const char* phase) {
  ++syncs_;
  const uint64_t ticks = dir_read(DIR_STAT_TICKS_LO) | (uint64_t(dir_read(DIR_STAT_TICKS_HI)) << 32);
  std::string ns = format("%.3f", ticks / 1000.0);
  // (Each register read is a simulated uncached load: their number and order are part of the
  // run's timing and statistics.)
  const uint32_t sync_no = dir_read(DIR_STAT_SYNCS), target = dir_read(DIR_STAT_TARGET),
                 history = dir_read(DIR_STAT_HISTORY);
  api_.results().add_row({workload_, size_, std::to_string(sync_no), phase, target == 1 ? "gpu" : "cpu",
                          std::to_string(history), std::to_string(dir_read(DIR_STAT_PROBES)),
                          std::to_string(dir_read(DIR_STAT_INVALIDATED)), std::to_string(dir_read(DIR_STAT_TAGS)),
                          std::to_string(ticks), ns});
  // The human summary: one line per synchronisation, and running totals in the stats JSON.
  const uint32_t probes = dir_read(DIR_STAT_PROBES);
  probes_total_ += probes;
  ticks_total_ += ticks;
  std::string line = format("sync %u %-11s -> %s caches: %u history lines, %u probes, %u tag accesses, %s ns",
                            dir_read(DIR_STAT_SYNCS), phase, dir_read(DIR_STAT_TARGET) == 1 ? "GPU" : "CPU",
                            dir_read(DIR_STAT_HISTORY), probes, dir_read(DIR_STAT_TAGS), ns.c_str());
  if (syncs_ <= 12)
    api_.log(line);
  else if (syncs_ == 13)
    api_.log("(further synchronisations: see --csv and the stats JSON)");
  Direction& dir = to_[target == 1 ? 0 : 1];
  ++dir.syncs;
  dir.history += history;
  dir.probes += probes;
  dir.ticks += ticks;
  api_.stat("probes_total", static_cast<double>(probes_total_));
  api_.stat("ticks_total", static_cast<double>(ticks_total_));
}

void CoherenceRuntime::summary() {
  const char* names[2] = {"GPU", "CPU"};
  for (unsigned i = 0; i < 2; ++i) {
    const Direction& d = to_[i];
    api_.log(format("to the %s caches: %" PRIu64 " syncs, %" PRIu64 " history lines, %" PRIu64 " probes, %.3f ns"
                    " (%.2f ns per probe, %.2f ns per history line)",
                    names[i], d.syncs, d.history, d.probes, d.ticks / 1000.0,
                    d.probes ? d.ticks / 1000.0 / d.probes : 0.0, d.history ? d.ticks / 1000.0 / d.history : 0.0));
  }
}

void CoherenceRuntime::cpu_acquire() {
  dir_write(DIR_LOCK, 1);
  dir_write(DIR_CPU_TRACK, 1);
}

void CoherenceRuntime::cpu_release() {
  dir_write(DIR_CPU_TRACK, 0);
  dir_write(DIR_HISTORY, 1);
  wait_dir(DIR_HIST_STATUS, "CPU history");
  dir_write(DIR_INVALIDATE, 1);
  wait_dir(DIR_INVAL_STATUS, "invalidation of the GPU caches");
  record("cpu_release");
  dir_write(DIR_LOCK, 0);
}

void CoherenceRuntime::gpu_acquire() {
  const sc_core::sc_time t0 = api_.now();
  if (hub_sync_)
    hub_command(FW_CMD_COH_ACQUIRE, "acquire");
  else
    launch("coh_gpu_acquire", 1, 1, 1, 1, {static_cast<uint32_t>(dir_va_), static_cast<uint32_t>(dir_va_ >> 32)});
  account(acquire_, t0);
}

void CoherenceRuntime::gpu_release() {
  const sc_core::sc_time t0 = api_.now();
  if (hub_sync_)
    hub_command(FW_CMD_COH_RELEASE, "release");
  else
    launch("coh_gpu_release", 1, 1, 1, 1, {static_cast<uint32_t>(dir_va_), static_cast<uint32_t>(dir_va_ >> 32)});
  account(release_, t0);
  record("gpu_release");
}

// One command to the HUB firmware, the directory window's GPU VA as its argument. A firmware
// error (an xfer fault, a poll that timed out) fails the workload with what the firmware said.
void CoherenceRuntime::hub_command(uint32_t cmd, const char* what) {
  McuResult r;
  try {
    r = mcu_->command(McuId::hub(), cmd, static_cast<uint32_t>(dir_va_), {static_cast<uint32_t>(dir_va_ >> 32)},
                      sc_core::sc_time(1, sc_core::SC_SEC));
  } catch (const McuError& e) {
    throw HostError(std::string("GPU ") + what + " on the HUB: " + e.what());
  }
  if (r.error == FW_ERR_XFER)
    throw HostError(std::string("GPU ") + what + " on the HUB: a directory access faulted (XFER_STATUS " +
                    hex(r.result) + ")");
  if (r.error == FW_ERR_TIMEOUT)
    throw HostError(std::string("GPU ") + what + " on the HUB: directory status register " + hex(r.result) +
                    " never became 1");
  if (r.error != FW_ERR_OK)
    throw HostError(std::string("GPU ") + what + " on the HUB: firmware error " + std::to_string(r.error));
}

// The hand-over latency as the host sees it: from the call until the GPU holds the lock
// (acquire) or has handed it back (release). Means in the stats JSON.
void CoherenceRuntime::account(HandOver& h, sc_core::sc_time begin) {
  h.total_ns += (api_.now() - begin).to_seconds() * 1e9;
  ++h.count;
  api_.stat(h.stat, h.total_ns / h.count);
}

void CoherenceRuntime::launch(const std::string& kernel, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                              const std::vector<uint32_t>& args) {
  KernelLaunch k{kernel, gx, gy, bx, by, args};
  check_params(*module_, kernel, args, "launch");
  k.module = module_->image.va;
  compute_->wait(compute_->start(k), poll_, "kernel '" + kernel + "'");
}

}  // namespace hetvp::sw
