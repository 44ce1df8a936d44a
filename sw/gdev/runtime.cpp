#include "sw/gdev/runtime.h"

#include <algorithm>
#include <cinttypes>
#include <iterator>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "platform/format.h"

namespace hetvp::sw {

GdevRuntime::GdevRuntime(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const GdevOptions& opt)
    : api_(api), gpu_(gpu), fifo_(api, gpu, mcu, opt), opt_(fifo_.options()) {}

GdevContext* GdevRuntime::ctx_create() {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  GdevContext* c = &fifo_.open();
  owner_[c] = procs_ ? procs_->current() : -1;
  return c;
}

void GdevRuntime::synchronize(GdevContext* c) {
  const Syscall sys(*this);
  wait_gpu(c);
}

void GdevRuntime::wait_gpu(GdevContext* c) {
  const HostProcesses::GpuWait w(procs_);
  c->synchronize();
  const auto it = params_.find(c);  // every launch pushed so far has read its parameters
  if (it != params_.end()) {
    ParamBuffers& p = it->second;
    p.free.insert(p.free.end(), p.busy.begin(), p.busy.end());
    p.busy.clear();
  }
}

void GdevRuntime::pin(uint64_t bytes) {
  if (kcost_.pin_page() > sc_core::SC_ZERO_TIME) api_.spend(kcost_.pin_page() * double((bytes + 4095) / 4096));
}

unsigned GdevRuntime::process_exit(int process) {
  const Syscall sys(*this);  // the device file's close
  std::vector<GdevContext*> open;
  for (const auto& [c, p] : owner_)
    if (p == process) open.push_back(c);
  std::sort(open.begin(), open.end(), [](const GdevContext* a, const GdevContext* b) { return a->chid() < b->chid(); });
  for (GdevContext* c : open) {
    api_.log(format("gdev: process %d exited with its context on channel %u still open: the driver destroys it",
                    process, c->chid()));
    ctx_destroy(c);
  }
  if (!open.empty()) {
    released_contexts_ += double(open.size());
    api_.stat("gdev_contexts_released_at_exit", released_contexts_);
  }
  return unsigned(open.size());
}

void GdevRuntime::ctx_destroy(GdevContext* c) {
  const Syscall sys(*this);
  wait_gpu(c);
  bound_.erase(c);
  api_.spend(opt_.api_call);
  // What the program left allocated goes with the context (Gdev's gclose: "mem GC"), reported.
  Memory& m = mem_[c];
  uint64_t buffers = 0, bytes = 0;
  for (const auto& [va, mod] : m.modules)
    for (const GpuBuffer* b : {&mod.image, &mod.lmem})
      if (b->size) {
        ++buffers;
        bytes += b->size;
        release(c, *b);
      }
  for (const auto& [va, b] : m.live) {
    ++buffers;
    bytes += b.size;
    release(c, b);
  }
  mem_.erase(c);
  if (const auto it = params_.find(c); it != params_.end()) {  // the runtime's own: not the program's leak
    for (const std::vector<GpuBuffer>* v : {&it->second.busy, &it->second.free})
      for (const GpuBuffer& b : *v) release(c, b);
    params_.erase(it);
  }
  bounce_.erase(c);  // pinned: freed with the channel
  if (buffers) {
    released_buffers_ += double(buffers);
    released_bytes_ += double(bytes);
    api_.log(format("gdev: cuCtxDestroy of the context on channel %u released %" PRIu64 " buffer(s) of %" PRIu64
                    " bytes still allocated (no cuMemFree / cuModuleUnload)",
                    c->chid(), buffers, bytes));
    api_.stat("gdev_released_buffers", released_buffers_);
    api_.stat("gdev_released_bytes", released_bytes_);
  }
  owner_.erase(c);
  fifo_.close(*c);
}

void GdevRuntime::release(GdevContext*, const GpuBuffer& b) { gpu_.free_vram(b); }

DevPtr GdevRuntime::mem_alloc(GdevContext* c, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  GpuBuffer b;
  try {
    b = gpu_.alloc_vram(bytes, c->space());
  } catch (const HostError& e) {
    throw HostError(format("cuMemAlloc of %" PRIu64 " bytes (context on channel %u): %s", bytes, c->chid(), e.what()));
  }
  Memory& m = mem_[c];
  m.live[b.va] = b;
  m.freed.erase(m.freed.lower_bound(b.va), m.freed.lower_bound(b.va + b.size));
  return DevPtr{b};
}

void GdevRuntime::mem_free(GdevContext* c, const DevPtr& p) {
  const Syscall sys(*this);
  wait_gpu(c);  // Gdev memory.c: cuMemFree synchronizes the context before gfree
  api_.spend(opt_.api_call);
  Memory& m = mem_[c];
  const auto it = m.live.find(p.va());
  if (it == m.live.end()) {
    if (m.freed.count(p.va()))
      throw HostError(format("cuMemFree: GPU address 0x%" PRIx64 " (context on channel %u) was already freed "
                             "(double free)",
                             p.va(), c->chid()));
    throw HostError(format("cuMemFree: GPU address 0x%" PRIx64 " was never allocated by cuMemAlloc in the context "
                           "on channel %u",
                           p.va(), c->chid()));
  }
  gpu_.free_vram(it->second);
  m.freed.insert(p.va());
  m.live.erase(it);
}

void GdevRuntime::check_not_freed(const GdevContext* c, uint64_t va, const char* call, const char* which) const {
  const auto mi = mem_.find(c);
  if (mi == mem_.end()) return;
  const Memory& m = mi->second;
  auto live = m.live.upper_bound(va);
  if (live != m.live.begin() && va - std::prev(live)->first < std::prev(live)->second.size) return;
  if (m.freed.count(va))
    throw HostError(format("%s: the %s, GPU address 0x%" PRIx64 " (context on channel %u), was freed by cuMemFree",
                           call, which, va, c->chid()));
}

HostBuf GdevRuntime::mem_alloc_host(GdevContext* c, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  pin(bytes);
  HostBuf h;
  h.phys = api_.alloc_pinned(bytes, 4096);
  c->adopt_pinned(h.phys);
  h.map = gpu_.map_host(h.phys, bytes, c->space());
  return h;
}

HostBuf GdevRuntime::map_host(GdevContext* c, uint64_t phys, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  return HostBuf{phys, gpu_.map_host(phys, bytes, c->space())};
}

void GdevRuntime::memcpy_htod_async(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  check_not_freed(c, dst.va(), "cuMemcpyHtoD", "destination");
  c->copy(src.map.va, dst.va(), bytes);
  c->kick();
}

void GdevRuntime::memcpy_dtoh_async(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  check_not_freed(c, src.va(), "cuMemcpyDtoH", "source");
  c->copy(src.va(), dst.map.va, bytes);
  c->kick();
}

// ---------------------------------------------------------------- pageable host memory
void GdevRuntime::alloc_bounce(GdevContext* c) {
  const Syscall sys(*this);
  bounce(c);
}

GdevRuntime::Bounce& GdevRuntime::bounce(GdevContext* c) {
  Bounce& b = bounce_[c];
  if (!b.buf.empty()) return b;
  for (unsigned k = 0; k < bounce_opt_.pipeline; ++k) b.buf.push_back(mem_alloc_host(c, bounce_opt_.chunk));
  b.fence = mem_alloc_host(c, 4096);
  for (unsigned k = 0; k < bounce_opt_.pipeline; ++k) api_.write32(b.fence.phys + 16 * k, 0);
  b.seq.assign(bounce_opt_.pipeline, 0);
  return b;
}

void GdevRuntime::release_fence(GdevContext* c, Bounce& b, unsigned k) {
  const uint64_t va = b.fence.map.va + 16 * k;
  c->push({FIFO_HDR(FIFO_SEC_OP_INC, 4, Channel::kSubCompute, FIFO_M_SEMAPHOREA), uint32_t(va >> 32) & 0xff,
           uint32_t(va), ++b.seq[k], FIFO_SEM_RELEASE});
  c->kick();
}

void GdevRuntime::wait_fence(GdevContext* c, Bounce& b, unsigned k) {
  if (!b.seq[k]) return;  // never used
  const HostProcesses::GpuWait w(procs_);
  if (!api_.poll32(b.fence.phys + 16 * k, ~0u, b.seq[k], opt_.poll, opt_.sync_timeout))
    throw HostError(format("bounce buffer %u of the context on channel %u: fence 0x%08x not written within "
                           "sync_timeout",
                           k, c->chid(), b.seq[k]));
}

void GdevRuntime::memcpy_htod_pageable(GdevContext* c, const DevPtr& dst, uint64_t host, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  check_not_freed(c, dst.va(), "cuMemcpyHtoD", "destination");
  Bounce& b = bounce(c);
  const uint64_t chunk = bounce_opt_.chunk;
  std::vector<uint8_t> tmp(std::min(chunk, bytes));
  unsigned k = 0;
  for (uint64_t off = 0; off < bytes; off += chunk, k = (k + 1) % b.buf.size()) {
    const uint64_t n = std::min(chunk, bytes - off);
    wait_fence(c, b, k);  // the DMA that last read this buffer is done
    api_.read(host + off, tmp.data(), n, Access::Cached);  // the CPU's memcpy into the bounce buffer
    api_.write(b.buf[k].phys, tmp.data(), n, Access::Cached);
    c->copy(b.buf[k].map.va, dst.va() + off, n);
    release_fence(c, b, k);
  }
  for (unsigned i = 0; i < b.buf.size(); ++i) wait_fence(c, b, i);  // Gdev polls the last chunk's fence
}

void GdevRuntime::memcpy_dtoh_pageable(GdevContext* c, uint64_t host, const DevPtr& src, uint64_t bytes) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  check_not_freed(c, src.va(), "cuMemcpyDtoH", "source");
  Bounce& b = bounce(c);
  const uint64_t chunk = bounce_opt_.chunk;
  std::vector<uint8_t> tmp(std::min(chunk, bytes));
  const uint64_t chunks = (bytes + chunk - 1) / chunk;
  auto drain = [&](uint64_t i) {  // chunk i: wait for its DMA, memcpy it out of its buffer
    const unsigned k = unsigned(i % b.buf.size());
    const uint64_t off = i * chunk, n = std::min(chunk, bytes - off);
    wait_fence(c, b, k);
    api_.read(b.buf[k].phys, tmp.data(), n, Access::Cached);
    api_.write(host + off, tmp.data(), n, Access::Cached);
  };
  // The DMA of chunk i into buffer i % pipeline goes out once chunk i - pipeline has been copied
  // out of it; the CPU copies chunk i - 1 out while chunk i's DMA runs.
  uint64_t drained = 0;
  for (uint64_t i = 0; i < chunks; ++i) {
    while (drained + b.buf.size() <= i) drain(drained++);
    const unsigned k = unsigned(i % b.buf.size());
    const uint64_t off = i * chunk, n = std::min(chunk, bytes - off);
    c->copy(src.va() + off, b.buf[k].map.va, n);
    release_fence(c, b, k);
    while (drained < i) drain(drained++);
  }
  while (drained < chunks) drain(drained++);
}

// One driver call (the synchronous copy), as Gdev's cuMemcpyHtoD is one ioctl.
void GdevRuntime::memcpy_htod(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  const Syscall sys(*this);
  memcpy_htod_async(c, dst, src, bytes);
  wait_gpu(c);
}
void GdevRuntime::memcpy_dtoh(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  const Syscall sys(*this);
  memcpy_dtoh_async(c, dst, src, bytes);
  wait_gpu(c);
}

GpuModule GdevRuntime::module_load(GdevContext* c, const std::string& ptx_text, const std::string& file) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  std::vector<uint8_t> image;
  GpuModule m = place_module(api_, gpu_, ptx_text, file, c->space(), gpu_.options().module_translate, &image);
  // Gdev (gdev_cuda.c, module.c): the code is copied into a bounce buffer, then DMA'd to VRAM.
  const uint64_t bounce = api_.alloc_pinned(image.size(), 4096);
  c->adopt_pinned(bounce);
  api_.write(bounce, image.data(), image.size());
  const GpuBuffer map = gpu_.map_host(bounce, image.size(), c->space());
  pin(image.size());
  c->copy(map.va, m.image.va, image.size());
  c->kick();
  wait_gpu(c);
  mem_[c].modules[m.image.va] = m;
  return m;
}

void GdevRuntime::module_unload(GdevContext* c, const GpuModule& m) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  Memory& mem = mem_[c];
  const auto it = mem.modules.find(m.image.va);
  if (it == mem.modules.end())
    throw HostError(format("cuModuleUnload: no module loaded at GPU address 0x%" PRIx64 " in the context on channel %u "
                           "(unloaded twice?)",
                           m.image.va, c->chid()));
  gpu_.free_vram(m.image);
  if (m.lmem.size) gpu_.free_vram(m.lmem);
  mem.modules.erase(it);
}

void GdevRuntime::launch_async(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t grid_x,
                               uint32_t grid_y, uint32_t block_x, uint32_t block_y, const std::vector<uint32_t>& args,
                               uint32_t shared) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  KernelLaunch k{kernel, grid_x, grid_y, block_x, block_y, args};
  k.module = m.image.va;
  k.shared = shared;
  k.check_args("launch");
  check_params(m, kernel, args, "launch");
  place_params(c, m, k);
  c->push(launch_methods(k, Channel::kSubCompute));
  c->kick();
}

void GdevRuntime::set_params(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t block_x,
                             uint32_t block_y, const std::vector<uint32_t>& args, uint32_t shared) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  KernelLaunch k{kernel, 1, 1, block_x, block_y, args};
  k.check_args("set_params");
  check_params(m, kernel, args, "set_params");
  place_params(c, m, k);
  bound_[c] = Binding{m.image.va, shared};
  c->push(param_methods(k, Channel::kSubCompute));
  c->kick();
}

void GdevRuntime::place_params(GdevContext* c, const GpuModule& m, KernelLaunch& k) {
  if (k.args.size() <= CMP_ARGS) return;
  k.args.resize(std::max<size_t>(k.args.size(), (m.kernel(k.kernel).param_bytes + 3) / 4), 0);
  k.check_args("launch");  // the padded block too (the loader keeps param_bytes within CMP_PARAM_MAX)
  ParamBuffers& p = params_[c];
  if (p.free.empty()) {
    try {
      p.free.push_back(gpu_.alloc_vram(CMP_PARAM_MAX, c->space()));
    } catch (const HostError& e) {
      throw HostError(format("launch of %s (context on channel %u): its parameter buffer: %s", k.kernel.c_str(),
                             c->chid(), e.what()));
    }
  }
  const GpuBuffer b = p.free.back();
  p.free.pop_back();
  p.busy.push_back(b);
  // Written before the launch is kicked: the front end reads the block when the kernel starts.
  api_.write(gpu_.bar1_address(b), k.args.data(), k.args.size() * 4, Access::WriteCombined);
  k.param_buffer = b.va;
}

void GdevRuntime::launch_grid_async(GdevContext* c, uint32_t grid_x, uint32_t grid_y) {
  const Syscall sys(*this);
  api_.spend(opt_.api_call);
  const Binding b = bound_[c];
  c->push(grid_methods(grid_x, grid_y, b.module, b.shared, Channel::kSubCompute));
  c->kick();
}

}  // namespace hetvp::sw
