// Release-consistency runtime for hetvp's CPU–GPU coherence (SPEC §7, Algorithm 2 shape).
//
//   CoherenceRuntime rt(api, args.rt, ...);    // opens the GPU, maps the shared arena and the
//                                              // directory window, configures both controllers
//   uint64_t a = rt.alloc(bytes);              // shared (host-mapped) memory: host PA; rt.gva(a) on the GPU
//   rt.cpu_acquire(); ...cached loads/stores...; rt.cpu_release();
//   rt.gpu_acquire(); rt.launch("square", grid, block, {...}); rt.gpu_release();
//
// CPU_ACQUIRE: LOCK=1; CPU tracking (0x40008000)=1. CPU_RELEASE: tracking=0; HISTORY=1 (wait
// HIST_STATUS); INVALIDATE=1 (wait INVAL_STATUS); LOCK=0. GPU_ACQUIRE / GPU_RELEASE do the same
// with 2 from the GPU, across PCIe, by `rt.gpu_sync`: `kernel` launches the one-thread kernels
// `coh_gpu_acquire` / `coh_gpu_release` (sw/kernels/coherence.cu: uncached system-scope accesses to
// the directory's registers); `hub` boots the microcontrollers and sends the HUB
// firmware one command (FW_CMD_COH_ACQUIRE / _RELEASE, firmware/lib/coh.c).
// After every invalidation one row per synchronisation goes to the results table (CSV).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/host/host_api.h"
#include "platform/param_set.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/gpu_module.h"
#include "sw/driver/launch.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

// Who does the GPU's acquire/release (CoherenceOptions::gpu_sync).
HETVP_ENUM(GpuSync, kernel, hub);

// The runtime's options: the coherence workloads' args group `rt`.
struct CoherenceOptions : ParamSet {
  Size arena{this, "arena", "8 MiB", "shared (pinned, host-mapped) memory arena (at least one 4 KiB page)", Min{4096}};
  Time poll{this, "poll", "1 us", "polling interval for directory status / kernel completion"};
  Enum<GpuSync> gpu_sync{this, "gpu_sync", GpuSync::kernel,
                         "who does the GPU's acquire/release: one-lane kernels, or the HUB microcontroller's firmware "
                         "(one method write; boots the microcontrollers first)"};
  Group<McuBootOptions> mcu{this, "mcu", "microcontroller boot options (gpu_sync: hub)"};
  Group<DriverOptions> driver{this, "driver", "driver options"};
  void validate(Diagnostics& d) const override { mcu.validate(d); }
};

class CoherenceRuntime {
 public:
  CoherenceRuntime(HostApi& api, const CoherenceOptions& opt, const std::string& workload,
                   const std::string& size_label);

  uint64_t alloc(uint64_t bytes);  // page-aligned host physical address inside the shared arena
  uint64_t gva(uint64_t pa) const { return arena_va_ + (pa - arena_pa_); }

  void cpu_acquire();
  void cpu_release();
  void gpu_acquire();
  void gpu_release();
  // Launches a kernel of sw/kernels/coherence.cu (the module the constructor loaded through BAR1)
  // on the compute front end (no channel: sw/driver/launch.h) and waits for it (device
  // synchronise). Fails (HostError) on a kernel error.
  void launch(const std::string& kernel, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
              const std::vector<uint32_t>& args);
  unsigned syncs() const { return syncs_; }
  // Logs the run's invalidations per direction (to the GPU caches / to the CPU caches): syncs,
  // history lines, probes, time, ns per probe and per history line. The workloads call it last.
  void summary();
  GpuDriver& driver() { return drv_; }

 private:
  void dir_write(uint32_t off, uint32_t v);
  uint32_t dir_read(uint32_t off);
  void wait_dir(uint32_t off, const char* what);
  void record(const char* phase);
  void hub_command(uint32_t cmd, const char* what);
  struct HandOver {  // one hand-over direction's latency: its stat and running mean
    const char* stat;
    double total_ns = 0;
    unsigned count = 0;
  };
  void account(HandOver& h, sc_core::sc_time begin);
  uint64_t probes_total_ = 0, ticks_total_ = 0;
  struct Direction {  // the invalidations of one target side's caches
    uint64_t syncs = 0, history = 0, probes = 0, ticks = 0;
  };
  Direction to_[2];  // 0: GPU caches (CPU releases), 1: CPU caches (GPU releases)

  HostApi& api_;
  GpuDriver drv_;
  std::optional<ComputeFrontEnd> compute_;  // once the GPU is open
  std::optional<GpuModule> module_;         // sw/kernels/coherence.cu
  std::string workload_, size_;
  uint64_t arena_pa_ = 0, arena_va_ = 0, arena_size_ = 0, arena_next_ = 0, dir_va_ = 0;
  sc_core::sc_time poll_;
  unsigned syncs_ = 0;
  bool hub_sync_ = false;
  std::unique_ptr<McuDriver> mcu_;  // gpu_sync: hub
  HandOver acquire_{"gpu_acquire_ns_mean"}, release_{"gpu_release_ns_mean"};
};

}  // namespace hetvp::sw
