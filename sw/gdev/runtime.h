// A host runtime shaped like Gdev's CUDA driver API (github:shinpei0208/gdev, test/cuda/user/*:
// cuCtxCreate, cuMemAlloc, cuMemcpyHtoD/DtoH, cuLaunchGrid, cuCtxSynchronize, cuCtxDestroy),
// on hetvp's FIFO (docs/contexts.md). A context is a channel with its own GPU address space
// (page directory), instance block, GPFIFO ring and push buffer (pinned host memory, mapped in its
// space), a GR context buffer (gr_context_create: a copy of the golden context) and a fence
// semaphore. Work is pushed as methods and kicked by writing GP_PUT; synchronize pushes a
// semaphore release and polls the value in host memory. Several contexts at once: one host thread
// interleaves them (push to each, then synchronize each), and the FIFO time-slices their channels.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/host/host_api.h"
#include "platform/param_set.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

class McuDriver;

// Where a context's GPFIFO ring and push buffer live (GdevOptions::pushbuf_in).
HETVP_ENUM(PushbufIn, host, vram);

// The runtime's options (workload args group `gdev`).
struct GdevOptions : ParamSet {
  Time api_call{this, "api_call", "5 us", "host software cost of one runtime API call (as the driver's api_call)"};
  Time poll{this, "poll", "1 us", "polling period of a synchronize fence"};
  Time sync_timeout{this, "sync_timeout", "1 s", "a synchronize not complete after this long fails the run"};
  Int<uint32_t> gpfifo_entries{this, "gpfifo_entries", 256, "GP entries of each channel's GPFIFO ring (a power of two)",
                               Range{2, 65536}};
  Size pushbuf{this, "pushbuf", "64 KiB", "push-buffer bytes of each context", Range{4096, 64ll << 20}};
  // Only on a GPU without the context-switch firmware: else the golden image says how large.
  Size gr_context_bytes{this, "gr_context_bytes", "64 KiB", "VRAM reserved for each channel's GR context buffer",
                        Range{4096, 64ll << 20}};
  Enum<PushbufIn> pushbuf_in{this, "pushbuf_in", PushbufIn::host,
                             "where the GPFIFO ring and push buffer live: pinned host memory (the FIFO fetches across "
                             "PCIe) or VRAM (the host writes them through BAR1)"};
  // Per-channel GR register overrides (BAR0 address, value) the context-switch firmware applies at a
  // channel's first load: nouveau's per-channel mmio list (hub.fuc ctx_mmio_exec; gf100_gr_chan_bind
  // writes its count / address into the context header). hetvp's firmware has none: refused there.
  // Free-form YAML: gr_mmio_pairs() reads and checks it.
  Any gr_mmio{this, "gr_mmio",
              "per-channel GR register overrides, a list of [BAR0 address, value] pairs, that the context-switch "
              "firmware writes at each channel's first load (nouveau's per-channel mmio list, docs/contexts.md; "
              "hetvp's firmware has none: refused)"};
  // TEST ONLY fault: the second and later contexts' instance blocks name a context buffer at a GPU
  // virtual address no space maps (the firmware cannot reach it: a named error, docs/contexts.md).
  Bool test_unmapped_context{this, "test_unmapped_context", false,
                             "TEST ONLY fault: every context after the first points its instance block (+0x210) at a "
                             "GPU virtual address no space maps, so the first switch to it fails with a named error"};

  // gpfifo_entries a power of two, gr_mmio a list of aligned [address, value] pairs that fits one page.
  void validate(Diagnostics& d) const override;
  uint64_t pushbuf_bytes() const { return pushbuf & ~uint64_t(4095); }
  bool pushbuf_in_vram() const { return pushbuf_in == PushbufIn::vram; }
  // gr_mmio's pairs (none when not given); each rule validate() checks is reported into `d`.
  std::vector<std::pair<uint32_t, uint32_t>> gr_mmio_pairs(Diagnostics& d) const;
};

struct GdevContext;  // opaque to users: runtime.cpp

struct DevPtr {
  GpuBuffer buf;
  uint64_t va() const { return buf.va; }
};
struct HostBuf {  // pinned host memory, mapped into one context's space
  uint64_t phys = 0;
  GpuBuffer map;
};

class GdevRuntime {
 public:
  // `mcu`: the HUB/GPC driver, for the golden context (nullptr: none on this GPU).
  GdevRuntime(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const GdevOptions& opt = GdevOptions{});
  ~GdevRuntime();

  GdevContext* ctx_create();
  void ctx_destroy(GdevContext* c);  // synchronizes first
  DevPtr mem_alloc(GdevContext* c, uint64_t bytes);
  HostBuf mem_alloc_host(GdevContext* c, uint64_t bytes);  // cuMemAllocHost: pinned, mapped
  HostBuf map_host(GdevContext* c, uint64_t phys, uint64_t bytes);  // pinned memory the program has
  // Asynchronous (pushed and kicked; ordered within the context): synchronize to wait.
  void memcpy_htod_async(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes);
  void memcpy_dtoh_async(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes);
  void launch_async(GdevContext* c, const std::string& kernel, uint32_t grid_x, uint32_t grid_y, uint32_t block_x,
                    uint32_t block_y, const std::vector<uint32_t>& args);
  // The same in the CUDA driver API's two steps: the function's block shape and parameters
  // (cuFuncSetBlockShape, cuParamSet*: KERNEL, BLOCK_X/Y, ARGs pushed now), then cuLaunchGrid
  // (GRID_X/Y and LAUNCH). Between them the channel's GR context holds the launch state, so a
  // switch to another channel in between must save and restore it.
  void set_params(GdevContext* c, const std::string& kernel, uint32_t block_x, uint32_t block_y,
                  const std::vector<uint32_t>& args);
  void launch_grid_async(GdevContext* c, uint32_t grid_x, uint32_t grid_y);
  // Synchronous forms (cuMemcpyHtoD, cuMemcpyDtoH): push, then synchronize.
  void memcpy_htod(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes);
  void memcpy_dtoh(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes);
  void synchronize(GdevContext* c);
  // Raw access for tests: push methods (header + data words) and kick.
  void push_raw(GdevContext* c, const std::vector<uint32_t>& words);
  void push_segment(GdevContext* c, uint64_t va, uint32_t words);  // a GP entry of any VA
  void kick(GdevContext* c);
  unsigned chid(const GdevContext* c) const;
  uint64_t inst(const GdevContext* c) const;
  unsigned space(const GdevContext* c) const;
  uint32_t fifo_base() const { return fifo_base_; }
  sc_core::sc_time golden_time() const { return golden_time_; }

 private:
  void push(GdevContext* c, const std::vector<uint32_t>& words);
  void ensure_golden();
  HostApi& api_;
  GpuDriver& gpu_;
  McuDriver* mcu_;
  GdevOptions opt_;
  std::vector<std::pair<uint32_t, uint32_t>> gr_mmio_;  // opt_.gr_mmio's pairs
  uint32_t fifo_base_ = 0;
  unsigned channels_ = 0;
  std::vector<bool> chid_used_;
  bool golden_ready_ = false;
  struct Golden;
  std::unique_ptr<Golden> golden_;
  sc_core::sc_time golden_time_;
  std::vector<std::unique_ptr<GdevContext>> live_;
};

}  // namespace hetvp::sw
