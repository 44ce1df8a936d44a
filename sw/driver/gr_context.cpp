#include "sw/driver/gr_context.h"

#include <vector>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/pmc.h"
#include "platform/format.h"
#include "platform/register_table.h"

namespace hetvp::sw {

namespace {

// Timed VRAM access through the BAR1 aperture, 32-bit words.
void vram_write32(HostApi& api, GpuDriver& gpu, uint64_t vram, uint32_t v) {
  api.mmio_write32(gpu.bar1_address(GpuBuffer{0, vram, 4, false}), v);
}

}  // namespace

int64_t gr_context_offset(uint32_t cmp_offset) {
  int64_t at = 0;  // the HUB's MMCTX area starts the image; words in list order (firmware/hub/hub.c)
#define HETVP_GR_FIND(off, count)                                               \
  if (cmp_offset >= uint32_t(off) && cmp_offset < uint32_t(off) + 4u * (count)) \
    return at + (cmp_offset - uint32_t(off));                                   \
  at += 4 * (count);
  HETVP_COMPUTE_CTX_REGS(HETVP_GR_FIND)
#undef HETVP_GR_FIND
  return -1;
}

GoldenContext gr_golden_generate(HostApi& api, GpuDriver& gpu, McuDriver& mcu) {
  return gr_golden_generate(api, gpu, std::shared_ptr<GrFirmware>(make_gr_firmware(api, gpu, &mcu)));
}

GoldenContext gr_golden_generate(HostApi& api, GpuDriver& gpu, std::shared_ptr<GrFirmware> fw) {
  const sc_core::sc_time t0 = api.now();
  GoldenContext g;
  g.fw = fw;
  // Every GR context register to its default (the register tables' reset values), through BAR0,
  // once the golden channel is current: nouveau's order (gf100_grctx_generate: "set channel", then
  // grctx->main's register writes, then the save). First what the firmware's own lists save (under
  // nouveau's: the chip's grctx init lists; GrFirmware::write_list_defaults), then hetvp's compute state.
  auto write_defaults = [&] {
    if (const size_t n = fw->write_list_defaults()) api.stat("gr_golden_init_writes", double(n));
    static const RegSpec kCompute[] = {HETVP_REG_TABLE(HETVP_COMPUTE_REGS)};
    auto reset_of = [](uint32_t off) {
      for (const RegSpec& r : kCompute)
        if (off >= r.offset && off < r.offset + 4 * (r.count ? r.count : 1)) return r.reset;
      return 0u;
    };
    const uint32_t compute = gpu.reg_read(GPU_PTOP_BASE + PTOP_COMPUTE_BASE);
    if (compute) {
#define HETVP_GR_RESET(off, count) \
  for (uint32_t k = 0; k < (count); ++k) gpu.reg_write(compute + (off) + 4 * k, reset_of((off) + 4 * k));
      HETVP_COMPUTE_CTX_REGS(HETVP_GR_RESET)
#undef HETVP_GR_RESET
    }
    // Per-GPC state: where PTOP says the compute block put it (gpu.compute.gpc_bar0), GPC n at
    // + n * GPU_GPC_STRIDE; the gr block's strands read the same key.
    const uint32_t gpc0 = compute ? gpu.reg_read(GPU_PTOP_BASE + PTOP_COMPUTE_GPC_BASE) : 0;
    for (unsigned n = 0; gpc0 && n < gpu.num_gpcs(); ++n) {
      const uint32_t base = gpc0 + n * GPU_GPC_STRIDE;
#define HETVP_GR_GPC_RESET(off, count) \
  for (uint32_t k = 0; k < (count); ++k) gpu.reg_write(base + (off) + 4 * k, 0);
      HETVP_COMPUTE_GPC_CTX_REGS(HETVP_GR_GPC_RESET)
#undef HETVP_GR_GPC_RESET
    }
  };
  g.bytes = fw->context_size();
  // nouveau's firmware reaches the buffer through the channel's VM (ctx_load): the golden channel
  // gets an address space of its own, as gf100_grctx_generate's "grctx" vmm.
  const bool vm = fw->virtual_context_pointer();
  const unsigned space = vm ? gpu.create_space() : 0;
  // A channel for the firmware to save: an instance block pointing at the golden buffer.
  GpuBuffer inst = gpu.alloc_vram(4096);
  GpuBuffer buf = gpu.alloc_vram(g.bytes ? g.bytes : GR_CTX_UNIT, space);
  if (inst.phys & 0xfff) throw McuError("golden context: instance block " + hex(inst.phys) + " not 4 KiB aligned");
  g.vram = buf.phys;
  if (vm) {
    gpu.write_vram64(inst.phys + INST_PD_BASE, gpu.space_pd(space));
    gpu.write_vram64(inst.phys + INST_PD_LIMIT, (1ull << 40) - 1);
    for (uint32_t k = 0; k < fw->header_bytes(); k += 4) vram_write32(api, gpu, g.vram + k, 0);  // no mmio list
  }
  const uint64_t ptr = vm ? buf.va : g.vram;
  vram_write32(api, gpu, inst.phys + GR_INST_CTX_PTR, uint32_t(ptr) | GR_INST_CTX_VRAM);
  vram_write32(api, gpu, inst.phys + GR_INST_CTX_PTR + 4, uint32_t(ptr >> 32));
  fw->set_channel(inst.phys);
  write_defaults();
  const uint32_t saved = fw->save_and_unload();
  if (saved > g.bytes)
    throw McuError("golden context: the firmware saved " + std::to_string(saved) + " bytes into a " +
                   std::to_string(g.bytes) + "-byte buffer");
  g.image.resize(g.bytes);
  if (!g.image.empty())
    api.read(gpu.bar1_address(GpuBuffer{0, g.vram, g.bytes, false}), g.image.data(), g.image.size(), Access::Uncached);
  if (vm) gpu.destroy_space(space);
  g.generation = api.now() - t0;
  const double ns = g.generation.to_seconds() * 1e9;
  gpu.reg_write(GPU_HUB_BASE + GRH_GOLDEN_NS, uint32_t(ns + 0.5));
  api.stat("gr_golden_generation_ns", ns);
  api.stat("gr_context_bytes", g.bytes);
  return g;
}

void gr_context_create(HostApi& api, GpuDriver& gpu, const GoldenContext& golden, uint64_t inst_vram,
                       uint64_t ctx_vram) {
  if (ctx_vram & (GR_CTX_UNIT - 1))
    throw HostError("gr_context_create: context buffer " + hex(ctx_vram) + " is not 256-byte aligned");
  if (!golden.image.empty())
    api.write(gpu.bar1_address(GpuBuffer{0, ctx_vram, golden.bytes, false}), golden.image.data(), golden.image.size(),
              Access::WriteCombined);
  vram_write32(api, gpu, inst_vram + GR_INST_CTX_PTR, uint32_t(ctx_vram) | GR_INST_CTX_VRAM);
  vram_write32(api, gpu, inst_vram + GR_INST_CTX_PTR + 4, uint32_t(ctx_vram >> 32));
}

void gr_context_create(HostApi& api, GpuDriver& gpu, const GoldenContext& golden, uint64_t inst_vram,
                       const GpuBuffer& ctx, uint64_t mmio_va, uint32_t mmio_entries) {
  if (!golden.fw || !golden.fw->virtual_context_pointer()) {
    if (mmio_entries) throw HostError("gr_context_create: hetvp's firmware has no per-channel mmio list");
    return gr_context_create(api, gpu, golden, inst_vram, ctx.phys);
  }
  if (mmio_va & 0xff) throw HostError("gr_context_create: mmio list " + hex(mmio_va) + " is not 256-byte aligned");
  if (!golden.image.empty())
    api.write(gpu.bar1_address(GpuBuffer{0, ctx.phys, golden.bytes, false}), golden.image.data(), golden.image.size(),
              Access::WriteCombined);
  vram_write32(api, gpu, ctx.phys + 0x00, mmio_entries);          // mmio list entries (pairs)
  vram_write32(api, gpu, ctx.phys + 0x04, uint32_t(mmio_va >> 8));  // its address >> 8
  vram_write32(api, gpu, inst_vram + GR_INST_CTX_PTR, uint32_t(ctx.va) | GR_INST_CTX_VRAM);
  vram_write32(api, gpu, inst_vram + GR_INST_CTX_PTR + 4, uint32_t(ctx.va >> 32));
}

void gr_context_write(HostApi& api, GpuDriver& gpu, uint64_t ctx_vram, uint32_t cmp_offset, uint32_t value) {
  const int64_t off = gr_context_offset(cmp_offset);
  if (off < 0) throw HostError("gr_context_write: compute register " + hex(cmp_offset) + " is not context state");
  vram_write32(api, gpu, ctx_vram + uint64_t(off), value);
}

}  // namespace hetvp::sw
