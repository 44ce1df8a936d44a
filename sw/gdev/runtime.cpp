#include "sw/gdev/runtime.h"

namespace hetvp::sw {

GdevRuntime::GdevRuntime(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const GdevOptions& opt)
    : api_(api), gpu_(gpu), fifo_(api, gpu, mcu, opt), opt_(fifo_.options()) {}

GdevContext* GdevRuntime::ctx_create() {
  api_.spend(opt_.api_call);
  return &fifo_.open();
}

void GdevRuntime::ctx_destroy(GdevContext* c) {
  c->synchronize();
  bound_.erase(c);
  api_.spend(opt_.api_call);
  fifo_.close(*c);
}

DevPtr GdevRuntime::mem_alloc(GdevContext* c, uint64_t bytes) {
  api_.spend(opt_.api_call);
  return DevPtr{gpu_.alloc_vram(bytes, c->space())};
}

HostBuf GdevRuntime::mem_alloc_host(GdevContext* c, uint64_t bytes) {
  api_.spend(opt_.api_call);
  HostBuf h;
  h.phys = api_.alloc_pinned(bytes, 4096);
  c->adopt_pinned(h.phys);
  h.map = gpu_.map_host(h.phys, bytes, c->space());
  return h;
}

HostBuf GdevRuntime::map_host(GdevContext* c, uint64_t phys, uint64_t bytes) {
  api_.spend(opt_.api_call);
  return HostBuf{phys, gpu_.map_host(phys, bytes, c->space())};
}

void GdevRuntime::memcpy_htod_async(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  api_.spend(opt_.api_call);
  c->copy(src.map.va, dst.va(), bytes);
  c->kick();
}

void GdevRuntime::memcpy_dtoh_async(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  api_.spend(opt_.api_call);
  c->copy(src.va(), dst.map.va, bytes);
  c->kick();
}

void GdevRuntime::memcpy_htod(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  memcpy_htod_async(c, dst, src, bytes);
  synchronize(c);
}
void GdevRuntime::memcpy_dtoh(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  memcpy_dtoh_async(c, dst, src, bytes);
  synchronize(c);
}

GpuModule GdevRuntime::module_load(GdevContext* c, const std::string& ptx_text, const std::string& file) {
  api_.spend(opt_.api_call);
  std::vector<uint8_t> image;
  GpuModule m = place_module(api_, gpu_, ptx_text, file, c->space(), gpu_.options().module_translate, &image);
  // Gdev (gdev_cuda.c, module.c): the code is copied into a bounce buffer, then DMA'd to VRAM.
  const uint64_t bounce = api_.alloc_pinned(image.size(), 4096);
  c->adopt_pinned(bounce);
  api_.write(bounce, image.data(), image.size());
  const GpuBuffer map = gpu_.map_host(bounce, image.size(), c->space());
  c->copy(map.va, m.image.va, image.size());
  c->kick();
  c->synchronize();
  return m;
}

void GdevRuntime::launch_async(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t grid_x,
                               uint32_t grid_y, uint32_t block_x, uint32_t block_y, const std::vector<uint32_t>& args,
                               uint32_t shared) {
  api_.spend(opt_.api_call);
  KernelLaunch k{kernel, grid_x, grid_y, block_x, block_y, args};
  k.module = m.image.va;
  k.shared = shared;
  k.check_args("launch");
  check_params(m, kernel, args, "launch");
  c->push(launch_methods(k, Channel::kSubCompute));
  c->kick();
}

void GdevRuntime::set_params(GdevContext* c, const GpuModule& m, const std::string& kernel, uint32_t block_x,
                             uint32_t block_y, const std::vector<uint32_t>& args, uint32_t shared) {
  api_.spend(opt_.api_call);
  const KernelLaunch k{kernel, 1, 1, block_x, block_y, args};
  k.check_args("set_params");
  check_params(m, kernel, args, "set_params");
  bound_[c] = Binding{m.image.va, shared};
  c->push(param_methods(k, Channel::kSubCompute));
  c->kick();
}

void GdevRuntime::launch_grid_async(GdevContext* c, uint32_t grid_x, uint32_t grid_y) {
  api_.spend(opt_.api_call);
  const Binding b = bound_[c];
  c->push(grid_methods(grid_x, grid_y, b.module, b.shared, Channel::kSubCompute));
  c->kick();
}

}  // namespace hetvp::sw
