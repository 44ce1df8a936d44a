// A host runtime shaped like Gdev's CUDA driver API (github:shinpei0208/gdev, test/cuda/user/*:
// cuCtxCreate, cuMemAlloc, cuMemcpyHtoD/DtoH, cuLaunchGrid, cuCtxSynchronize, cuCtxDestroy),
// on the driver's channels (sw/driver/channel.h, docs/contexts.md). A context is a channel; each
// call costs the runtime's api_call and pushes the channel's methods (copies, launches:
// sw/driver/launch.h), kicked at once; synchronize releases the channel's fence and waits for it.
// Several contexts at once: one host thread interleaves them (push to each, then synchronize
// each), and the FIFO time-slices their channels.
// VRAM is freed and reused (cuMemFree, cuModuleUnload; sw/driver/vram_allocator.h): a free of a
// buffer not allocated in the context, a second free and a copy to a freed buffer are HostErrors
// naming the call and the address; a context destroyed with buffers or modules still allocated
// releases them and says so (log line, stats `gdev_released_buffers` / `gdev_released_bytes`).
// A kernel with more than the 64 bytes of parameters CMP_ARG carries (at most CMP_PARAM_MAX) gets
// a parameter buffer in the context's VRAM, as the direct path's (launch.h KernelLaunch::param_buffer).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/host/host_api.h"
#include "sw/driver/channel.h"
#include "sw/driver/gpu_driver.h"
#include "sw/driver/gpu_module.h"
#include "sw/driver/launch.h"
#include "sw/host/host_processes.h"

namespace hetvp::sw {

class McuDriver;

// The runtime's options (workload args group `gdev`): its channels'.
using GdevOptions = ChannelOptions;

// How Gdev copies pageable host memory (malloc'ed, which the GPU cannot reach): through pinned
// bounce buffers, a chunk at a time, `pipeline` buffers in turn so that the CPU's memcpy of one
// chunk overlaps the DMA of the previous one (Gdev gdev_api.c:115-190 HtoD, :311-372 DtoH).
// Defaults are Gdev's kernel-mode build (mod/gdev/gdev_conf.h:36-41: CHUNK_DEFAULT 256 KB,
// PIPELINE default 2; the user-mode build uses 2 MB chunks).
struct BounceOptions : ParamSet {
  Size chunk{this, "chunk", "256 KiB",
             "bytes of each bounce buffer: a pageable copy moves this much per DMA (Gdev's kernel build: 256 KB, "
             "mod/gdev/gdev_conf.h:41)",
             Range{4096, 64ll << 20}};
  Int<unsigned> pipeline{this, "pipeline", 2,
                         "bounce buffers used in turn (Gdev's PIPELINE default 2, at most 4: gdev_conf.h:36-38)",
                         Range{1, 4}};
};
// The kernel driver's own host costs, on top of the runtime's `api_call` (the user library's
// work): every runtime call enters the driver once (Gdev's kernel build: libucuda calls ioctl on
// /dev/gdevN, gdev_ioctl.c), and memory the driver allocates pinned for the GPU (cuMemAllocHost,
// the bounce buffers, a module's upload buffer) costs per page.
// Both 0 by default (not charged), so that every result stays what it was; docs/contexts.md gives
// the assumed values to set and why they are not the default yet.
struct KernelCosts : ParamSet {
  Time ioctl{this, "ioctl", "0 us",
             "host CPU time of one entry into and exit from the kernel driver (a system call), once per runtime "
             "call; 0: not charged (assumption when set: 0.5 us, the order of a Linux system call with its "
             "argument copies)"};
  Time pin_page{this, "pin_page", "0 us",
                "host CPU time to allocate, pin and DMA-map one 4 KiB page of host memory for the GPU; 0: not "
                "charged (assumption when set: 0.25 us, the order of get_user_pages / dma_map_page per page)"};
};
// A context is one channel.
using GdevContext = Channel;

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

  GdevContext* ctx_create();
  void ctx_destroy(GdevContext* c);  // synchronizes first
  // cuMemAlloc: VRAM mapped in the context's space; out of VRAM is a HostError naming the request
  // and what is free.
  DevPtr mem_alloc(GdevContext* c, uint64_t bytes);
  // cuMemFree (Gdev memory.c: cuCtxSynchronize first): the pages unmapped, the TLB flushed, the
  // VRAM free for reuse.
  void mem_free(GdevContext* c, const DevPtr& p);
  HostBuf mem_alloc_host(GdevContext* c, uint64_t bytes);  // cuMemAllocHost: pinned, mapped
  HostBuf map_host(GdevContext* c, uint64_t phys, uint64_t bytes);  // pinned memory the program has
  // Asynchronous (pushed and kicked; ordered within the context): synchronize to wait.
  void memcpy_htod_async(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes);
  void memcpy_dtoh_async(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes);
  // cuModuleLoad: the module translated on the host and its image uploaded to the context's VRAM
  // through a pinned bounce buffer and the channel's copy engine, as Gdev uploads code
  // (sw/driver/gpu_module.h); synchronizes.
  GpuModule module_load(GdevContext* c, const std::string& ptx_text, const std::string& file);
  // cuModuleUnload: the image's (and local memory's) VRAM freed as cuMemFree frees a buffer.
  void module_unload(GdevContext* c, const GpuModule& m);
  void launch_async(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t grid_x, uint32_t grid_y,
                    uint32_t block_x, uint32_t block_y, const std::vector<uint32_t>& args, uint32_t shared = 0);
  // The same in the CUDA driver API's two steps: the function's block shape and parameters
  // (cuFuncSetBlockShape, cuParamSet*: KERNEL, BLOCK_X/Y, ARGs pushed now), then cuLaunchGrid
  // (GRID_X/Y and LAUNCH). Between them the channel's GR context holds the launch state, so a
  // switch to another channel in between must save and restore it.
  void set_params(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t block_x, uint32_t block_y,
                  const std::vector<uint32_t>& args, uint32_t shared = 0);
  void launch_grid_async(GdevContext* c, uint32_t grid_x, uint32_t grid_y);
  // cuMemcpyHtoD / cuMemcpyDtoH from / to pageable host memory at host physical `host` (not mapped
  // for the GPU): through the context's bounce buffers (BounceOptions), chunk by chunk, the CPU's
  // memcpy of a chunk (timed cached accesses) overlapping the DMA of the previous one; each
  // bounce buffer has a fence the host polls before reusing it. Synchronous. The bounce buffers
  // are allocated at the context's first pageable copy (Gdev allocates them in cuCtxCreate).
  void memcpy_htod_pageable(GdevContext* c, const DevPtr& dst, uint64_t host, uint64_t bytes);
  void memcpy_dtoh_pageable(GdevContext* c, uint64_t host, const DevPtr& src, uint64_t bytes);
  void set_bounce(const BounceOptions& b) { bounce_opt_ = b; }
  // The context's bounce buffers allocated now (Gdev's gopen does it in cuCtxCreate); else at its
  // first pageable copy.
  void alloc_bounce(GdevContext* c);
  void set_kernel_costs(const KernelCosts& k) { kcost_ = k; }
  // Several processes on the host CPU (sw/host/host_processes.h): the driver's code is not
  // preempted, its waits for the GPU (fences) give the CPU to another process, and each context
  // belongs to the process that created it. nullptr (the default): one program.
  void set_processes(HostProcesses* p) { procs_ = p; }
  // The kernel's release of an ended process (Gdev's gdev_release on the device file's close):
  // every context process `process` still has open is destroyed (its buffers released, logged)
  // and reported: a log line naming the process and channel, stat `gdev_contexts_released_at_exit`.
  // Returns how many.
  unsigned process_exit(int process);
  // Synchronous forms (cuMemcpyHtoD, cuMemcpyDtoH): push, then synchronize.
  void memcpy_htod(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes);
  void memcpy_dtoh(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes);
  void synchronize(GdevContext* c);
  // Raw access for tests: push methods (header + data words) and kick.
  void push_raw(GdevContext* c, const std::vector<uint32_t>& words) { c->push(words); }
  void push_segment(GdevContext* c, uint64_t va, uint32_t words) { c->push_segment(va, words); }  // any VA
  void kick(GdevContext* c) { c->kick(); }
  unsigned chid(const GdevContext* c) const { return c->chid(); }
  uint64_t inst(const GdevContext* c) const { return c->inst(); }
  unsigned space(const GdevContext* c) const { return c->space(); }
  uint32_t fifo_base() const { return fifo_.base(); }
  sc_core::sc_time golden_time() const { return fifo_.golden_time(); }

 private:
  HostApi& api_;
  GpuDriver& gpu_;
  Fifo fifo_;
  const GdevOptions& opt_;  // fifo_'s
  struct Binding {  // what set_params named, pushed with the grid (grid_methods)
    uint64_t module = 0;
    uint32_t shared = 0;
  };
  std::map<const GdevContext*, Binding> bound_;
  struct Memory {  // what cuMemAlloc / cuModuleLoad hold in a context, by GPU VA
    std::map<uint64_t, GpuBuffer> live;
    std::set<uint64_t> freed;          // freed with cuMemFree and not handed out again
    std::map<uint64_t, GpuModule> modules;  // by image VA
  };
  std::map<const GdevContext*, Memory> mem_;
  // Parameter buffers (CMP_PARAM_MAX bytes of VRAM each) of a context's launches with more than
  // CMP_ARGS words: the block is written through BAR1 when the launch is pushed, so each launch
  // pushed since the context's last synchronize holds its own (`busy`); a synchronize makes them
  // `free` for reuse; cuCtxDestroy frees them all.
  struct ParamBuffers {
    std::vector<GpuBuffer> busy, free;
  };
  std::map<const GdevContext*, ParamBuffers> params_;
  // A launch of more than CMP_ARGS words of parameters: its block padded to the kernel's parameter
  // size (ptx param_bytes, rounded up to the largest parameter alignment, which the front end reads),
  // written to a parameter buffer, and k.param_buffer set to it.
  void place_params(GdevContext* c, const GpuModule& m, KernelLaunch& k);
  BounceOptions bounce_opt_;
  struct Bounce {  // a context's bounce buffers: pinned, mapped; a fence word each
    std::vector<HostBuf> buf;
    HostBuf fence;
    std::vector<uint32_t> seq;  // the last sequence released per buffer
  };
  std::map<const GdevContext*, Bounce> bounce_;
  Bounce& bounce(GdevContext* c);
  // Pushes a semaphore release of the buffer's next sequence number after the work pushed so far.
  void release_fence(GdevContext* c, Bounce& b, unsigned k);
  void wait_fence(GdevContext* c, Bounce& b, unsigned k);
  double released_buffers_ = 0, released_bytes_ = 0, released_contexts_ = 0;
  KernelCosts kcost_;
  HostProcesses* procs_ = nullptr;
  int depth_ = 0;                              // driver nesting without processes
  std::map<GdevContext*, int> owner_;          // the process that created each context
  // One runtime call's entry into the kernel driver: its ioctl cost (outermost only), no
  // preemption inside.
  class Syscall {
   public:
    explicit Syscall(GdevRuntime& rt) : k_(rt.procs_, rt.depth_) {
      if (k_.outermost() && rt.kcost_.ioctl() > sc_core::SC_ZERO_TIME) rt.api_.spend(rt.kcost_.ioctl);
    }

   private:
    HostProcesses::KernelSection k_;
  };
  void wait_gpu(GdevContext* c);  // the context's fence, the CPU free for other processes meanwhile
  void pin(uint64_t bytes);       // kcost_.pin_page per page
  // HostError when `va` lies in a buffer cuMemFree freed (and not in a live one).
  void check_not_freed(const GdevContext* c, uint64_t va, const char* call, const char* which) const;
  void release(GdevContext* c, const GpuBuffer& b);
};

}  // namespace hetvp::sw
