#include "sw/gdev/runtime.h"

#include <algorithm>
#include <cinttypes>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/gpu/compute/kernel.h"
#include "platform/config.h"
#include "platform/format.h"

// The golden context and per-channel context buffers: sw/driver/gr_context.{h,cpp}.
#include "sw/driver/gr_context.h"

namespace hetvp::sw {

void GdevOptions::validate(Diagnostics& d) const {
  if (gpfifo_entries & (gpfifo_entries - 1))
    d.error(gpfifo_entries.where() + ": " + std::to_string(gpfifo_entries) + " is not a power of two");
  gr_mmio_pairs(d);
}

std::vector<std::pair<uint32_t, uint32_t>> GdevOptions::gr_mmio_pairs(Diagnostics& d) const {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (!gr_mmio.given()) return pairs;
  const YAML::Node& n = gr_mmio.node();
  if (!n.IsSequence()) {
    d.error(gr_mmio.where() + ": a list of [BAR0 address, value] pairs");
    return pairs;
  }
  for (const auto& e : n) {
    if (!e.IsSequence() || e.size() != 2) {
      d.error(gr_mmio.where() + ": each entry is [BAR0 address, value]");
      return pairs;
    }
    try {
      const uint32_t addr = e[0].as<uint32_t>(), value = e[1].as<uint32_t>();
      if (addr & 3) {
        d.error(gr_mmio.where() + ": address " + hex(addr) + " is not 4-byte aligned");
        return pairs;
      }
      pairs.emplace_back(addr, value);
    } catch (const YAML::Exception&) {
      d.error(gr_mmio.where() + ": each entry is [BAR0 address, value], 32-bit numbers");
      return pairs;
    }
  }
  // nouveau's per-channel list is one 4 KiB page of (address, value) pairs (gf100.h:134 mmio_list[4096/8],
  // gf100.c:401-406): the firmware would run off a longer one into whatever follows.
  constexpr size_t kMaxMmio = 4096 / 8;
  if (pairs.size() > kMaxMmio)
    d.error(gr_mmio.where() + ": " + std::to_string(pairs.size()) + " entries, more than a channel's mmio list holds (" +
            std::to_string(kMaxMmio) + ": one 4 KiB page, as nouveau's gf100.h:134)");
  return pairs;
}

struct GdevContext {
  unsigned chid = 0, space = 0;
  uint64_t inst = 0, ctx_buf = 0;
  // GPFIFO ring and push buffer: GPU VAs and how the host writes them.
  GpuBuffer gpfifo, pushbuf;
  uint64_t gpfifo_host = 0, pushbuf_host = 0;  // host physical (pinned) or 0 (VRAM)
  uint32_t gp_put = 0, gp_since_sync = 0;
  uint64_t pb_pos = 0, seg_start = 0;
  // Fence semaphore (pinned host memory, 16 bytes: payload, 0, timestamp).
  uint64_t fence_host = 0;
  GpuBuffer fence;
  uint32_t seq = 0;
  GpuBuffer cb;  // the GPCs' constant buffer (module constants)
  std::vector<uint64_t> pinned;  // host memory to free at destroy
};

struct GdevRuntime::Golden {
  GoldenContext g;
};

namespace {
constexpr unsigned kSubCompute = 0, kSubCopy = 1;
uint32_t inc(unsigned subch, uint32_t mthd, unsigned count) { return FIFO_HDR(FIFO_SEC_OP_INC, count, subch, mthd); }
}  // namespace

GdevRuntime::GdevRuntime(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const GdevOptions& opt)
    : api_(api), gpu_(gpu), mcu_(mcu), opt_(opt), golden_(new Golden) {
  Diagnostics d;  // checked with the configuration already; a set built by hand is checked here
  gr_mmio_ = opt_.gr_mmio_pairs(d);
  d.throw_if_any("gdev options");
  fifo_base_ = gpu_.block_base(PTOP_FIFO_BASE, "FIFO engine (fifo block)");
  channels_ = gpu_.reg_read(fifo_base_ + FIFO_CHANNELS);
  chid_used_.assign(channels_, false);
}

GdevRuntime::~GdevRuntime() = default;

unsigned GdevRuntime::chid(const GdevContext* c) const { return c->chid; }
uint64_t GdevRuntime::inst(const GdevContext* c) const { return c->inst; }
unsigned GdevRuntime::space(const GdevContext* c) const { return c->space; }

void GdevRuntime::ensure_golden() {
  if (golden_ready_) return;
  golden_ready_ = true;
  // Without microcontrollers there is no context-switch firmware, hence no golden context: each
  // channel gets an empty context buffer (and the FIFO lets one channel at a time own GR).
  if (!mcu_) return;
  const sc_core::sc_time t0 = api_.now();
  golden_->g = gr_golden_generate(api_, gpu_, *mcu_);
  golden_time_ = api_.now() - t0;
}

GdevContext* GdevRuntime::ctx_create() {
  api_.spend(opt_.api_call);
  ensure_golden();
  auto ctx = std::make_unique<GdevContext>();
  GdevContext* c = ctx.get();
  unsigned id = 0;
  while (id < channels_ && chid_used_[id]) ++id;
  if (id == channels_) throw HostError("ctx_create: all " + std::to_string(channels_) + " FIFO channels are in use");
  chid_used_[id] = true;
  c->chid = id;
  c->space = gpu_.create_space();
  c->inst = gpu_.alloc_vram_phys(INST_BYTES, INST_BYTES);
  // The context buffer is as large as the golden image the firmware saved (FW_CMD_GR_INFO); the
  // option only sizes it on a GPU without the context-switch firmware.
  uint64_t ctx_bytes = opt_.gr_context_bytes;
  if (mcu_) ctx_bytes = std::max<uint64_t>(golden_->g.bytes, 256u);
  // nouveau's firmware reaches the buffer through the channel's VM (gr_firmware.h): map it there.
  const bool ctx_in_vm = mcu_ && golden_->g.fw && golden_->g.fw->virtual_context_pointer();
  GpuBuffer ctx_mapped;
  if (ctx_in_vm) {
    ctx_mapped = gpu_.alloc_vram((ctx_bytes + 255) & ~uint64_t(255), c->space);
    c->ctx_buf = ctx_mapped.phys;
  } else {
    c->ctx_buf = gpu_.alloc_vram_phys((ctx_bytes + 255) & ~uint64_t(255), 4096);
  }
  const uint64_t gp_bytes = uint64_t(opt_.gpfifo_entries) * GP_ENTRY_BYTES;
  if (opt_.pushbuf_in_vram()) {
    c->gpfifo = gpu_.alloc_vram(gp_bytes, c->space);
    c->pushbuf = gpu_.alloc_vram(opt_.pushbuf_bytes(), c->space);
  } else {
    c->gpfifo_host = api_.alloc_pinned(gp_bytes, 4096);
    c->pushbuf_host = api_.alloc_pinned(opt_.pushbuf_bytes(), 4096);
    c->pinned = {c->gpfifo_host, c->pushbuf_host};
    c->gpfifo = gpu_.map_host(c->gpfifo_host, gp_bytes, c->space);
    c->pushbuf = gpu_.map_host(c->pushbuf_host, opt_.pushbuf_bytes(), c->space);
  }
  c->fence_host = api_.alloc_pinned(4096, 4096);
  c->pinned.push_back(c->fence_host);
  api_.write32(c->fence_host, 0);
  c->fence = gpu_.map_host(c->fence_host, 16, c->space);
  // Instance block: RAMFC's GPFIFO words (nouveau gpfifogf100.c:286), the page directory
  // (vmmgf100.c:357) and its limit.
  unsigned log2 = 0;
  while ((1u << log2) < opt_.gpfifo_entries) ++log2;
  gpu_.write_vram32(c->inst + INST_RAMFC_GP_BASE_LO, uint32_t(c->gpfifo.va));
  gpu_.write_vram32(c->inst + INST_RAMFC_GP_BASE_HI, uint32_t(c->gpfifo.va >> 32) | log2 << 16);
  gpu_.write_vram64(c->inst + INST_PD_BASE, gpu_.space_pd(c->space));
  gpu_.write_vram64(c->inst + INST_PD_LIMIT, (1ull << 40) - 1);
  if (!gr_mmio_.empty() && !ctx_in_vm)
    throw HostError("ctx_create: gdev.gr_mmio needs a firmware with a per-channel mmio list (nouveau's); " +
                    std::string(golden_->g.fw ? golden_->g.fw->name() : "no") + " firmware here");
  if (ctx_in_vm) {
    GpuBuffer list;  // the channel's mmio list, in its space: (address, value) pairs
    if (!gr_mmio_.empty()) {
      list = gpu_.alloc_vram(8 * gr_mmio_.size(), c->space);
      for (size_t i = 0; i < gr_mmio_.size(); ++i) {
        gpu_.write_vram32(list.phys + 8 * i, gr_mmio_[i].first);
        gpu_.write_vram32(list.phys + 8 * i + 4, gr_mmio_[i].second);
      }
    }
    gr_context_create(api_, gpu_, golden_->g, c->inst, ctx_mapped, list.va, uint32_t(gr_mmio_.size()));
  }
  else if (mcu_)
    gr_context_create(api_, gpu_, golden_->g, c->inst, c->ctx_buf);
  else
    // Replaced by sw/driver/gr_context.cpp when it exists and the GPU has microcontrollers: an
    // empty context buffer, its address at +0x210.
    gpu_.write_vram64(c->inst + INST_GR_CTX, c->ctx_buf);
  if (opt_.test_unmapped_context && id > 0) {  // the test-only fault: 0xf000000000 is mapped in no space
    gpu_.write_vram32(c->inst + INST_GR_CTX, 0x00000000u | 4u);
    gpu_.write_vram32(c->inst + INST_GR_CTX + 4, 0xf0u);
  }
  // The module's constants (a GPC constant buffer every kernel of the context sees): word 0 is
  // the "scale" the benchmark kernels multiply by (1).
  c->cb = gpu_.alloc_vram(CMP_CB_MAX, c->space);
  gpu_.write_vram32(c->cb.phys, 1);
  gpu_.reg_write(fifo_base_ + FIFO_CHAN_INST_N(id), 0x80000000u | uint32_t((c->inst >> 12) & 0x0fffffffu));
  gpu_.reg_write(fifo_base_ + FIFO_CHAN_CTRL_N(id), FIFO_CHAN_CTRL_ENABLE);
  push(c, {inc(kSubCompute, FIFO_M_SET_OBJECT, 1), FIFO_CLASS_COMPUTE, inc(kSubCopy, FIFO_M_SET_OBJECT, 1),
           FIFO_CLASS_COPY, inc(kSubCompute, CMPM_GPC_CB(CMP_GPC_CB_LO), 3), uint32_t(c->cb.va),
           uint32_t(c->cb.va >> 32), 16});
  kick(c);
  live_.push_back(std::move(ctx));
  return c;
}

void GdevRuntime::ctx_destroy(GdevContext* c) {
  synchronize(c);
  api_.spend(opt_.api_call);
  gpu_.reg_write(fifo_base_ + FIFO_CHAN_CTRL_N(c->chid), 0);
  gpu_.destroy_space(c->space);
  for (uint64_t p : c->pinned) api_.free_pinned(p);
  chid_used_[c->chid] = false;
  for (auto it = live_.begin(); it != live_.end(); ++it)
    if (it->get() == c) {
      live_.erase(it);
      break;
    }
}

DevPtr GdevRuntime::mem_alloc(GdevContext* c, uint64_t bytes) {
  api_.spend(opt_.api_call);
  return DevPtr{gpu_.alloc_vram(bytes, c->space)};
}

HostBuf GdevRuntime::mem_alloc_host(GdevContext* c, uint64_t bytes) {
  api_.spend(opt_.api_call);
  HostBuf h;
  h.phys = api_.alloc_pinned(bytes, 4096);
  c->pinned.push_back(h.phys);
  h.map = gpu_.map_host(h.phys, bytes, c->space);
  return h;
}

HostBuf GdevRuntime::map_host(GdevContext* c, uint64_t phys, uint64_t bytes) {
  api_.spend(opt_.api_call);
  return HostBuf{phys, gpu_.map_host(phys, bytes, c->space)};
}

void GdevRuntime::push(GdevContext* c, const std::vector<uint32_t>& words) {
  const uint64_t bytes = words.size() * 4;
  if (bytes > opt_.pushbuf_bytes()) throw HostError("push of " + std::to_string(bytes) + " bytes exceeds the push buffer");
  // Out of push buffer or GP entries: wait until the FIFO consumed everything, then start over.
  // (Room for synchronize's release, 5 words and one GP entry, always stays.)
  if (c->pb_pos + bytes + 5 * 4 > opt_.pushbuf_bytes() || c->gp_since_sync + 2 >= opt_.gpfifo_entries) {
    kick(c);
    synchronize(c);
  }
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(c->pushbuf, c->pb_pos), words.data(), bytes, Access::WriteCombined);
  else
    api_.write(c->pushbuf_host + c->pb_pos, words.data(), bytes, Access::Cached);
  c->pb_pos += bytes;
}

void GdevRuntime::push_raw(GdevContext* c, const std::vector<uint32_t>& words) { push(c, words); }

void GdevRuntime::push_segment(GdevContext* c, uint64_t va, uint32_t words) {
  const uint32_t e[2] = {uint32_t(va) & ~3u, uint32_t((va >> 32) & 0xff) | words << GP_ENTRY1_LENGTH_SHIFT};
  const uint64_t at = uint64_t(c->gp_put) * GP_ENTRY_BYTES;
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(c->gpfifo, at), e, 8, Access::WriteCombined);
  else
    api_.write(c->gpfifo_host + at, e, 8, Access::Cached);
  c->gp_put = (c->gp_put + 1) % opt_.gpfifo_entries;
  ++c->gp_since_sync;
  gpu_.reg_write(fifo_base_ + FIFO_GP_PUT_N(c->chid), c->gp_put);  // the doorbell
}

void GdevRuntime::kick(GdevContext* c) {
  if (c->pb_pos == c->seg_start) return;
  const uint32_t words = uint32_t((c->pb_pos - c->seg_start) / 4);
  const uint64_t va = c->pushbuf.va + c->seg_start;
  c->seg_start = c->pb_pos;
  push_segment(c, va, words);
}

void GdevRuntime::memcpy_htod_async(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  api_.spend(opt_.api_call);
  for (uint64_t off = 0; off < bytes;) {
    const uint64_t n = std::min<uint64_t>(bytes - off, 0x80000000ull);
    const uint64_t s = src.map.va + off, d = dst.va() + off;
    push(c, {inc(kSubCopy, COPYM_OFFSET_IN_UPPER, 4), uint32_t(s >> 32), uint32_t(s), uint32_t(d >> 32), uint32_t(d),
             inc(kSubCopy, COPYM_LINE_LENGTH_IN, 1), uint32_t(n), inc(kSubCopy, COPYM_LAUNCH_DMA, 1), 0});
    off += n;
  }
  kick(c);
}

void GdevRuntime::memcpy_dtoh_async(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  api_.spend(opt_.api_call);
  for (uint64_t off = 0; off < bytes;) {
    const uint64_t n = std::min<uint64_t>(bytes - off, 0x80000000ull);
    const uint64_t s = src.va() + off, d = dst.map.va + off;
    push(c, {inc(kSubCopy, COPYM_OFFSET_IN_UPPER, 4), uint32_t(s >> 32), uint32_t(s), uint32_t(d >> 32), uint32_t(d),
             inc(kSubCopy, COPYM_LINE_LENGTH_IN, 1), uint32_t(n), inc(kSubCopy, COPYM_LAUNCH_DMA, 1), 0});
    off += n;
  }
  kick(c);
}

void GdevRuntime::memcpy_htod(GdevContext* c, const DevPtr& dst, const HostBuf& src, uint64_t bytes) {
  memcpy_htod_async(c, dst, src, bytes);
  synchronize(c);
}
void GdevRuntime::memcpy_dtoh(GdevContext* c, const HostBuf& dst, const DevPtr& src, uint64_t bytes) {
  memcpy_dtoh_async(c, dst, src, bytes);
  synchronize(c);
}

void GdevRuntime::launch_async(GdevContext* c, const std::string& kernel, uint32_t grid_x, uint32_t grid_y,
                               uint32_t block_x, uint32_t block_y, const std::vector<uint32_t>& args) {
  api_.spend(opt_.api_call);
  if (args.size() > CMP_ARGS) throw HostError("launch of " + kernel + ": more than 16 argument words");
  std::vector<uint32_t> w = {inc(kSubCompute, CMPM_REG(CMP_KERNEL), 5), gpu::kernel_id(kernel), grid_x, grid_y,
                             block_x, block_y};
  if (!args.empty()) {
    w.push_back(inc(kSubCompute, CMPM_REG(CMP_ARG), unsigned(args.size())));
    w.insert(w.end(), args.begin(), args.end());
  }
  w.push_back(inc(kSubCompute, CMPM_LAUNCH, 1));
  w.push_back(0);
  push(c, w);
  kick(c);
}

void GdevRuntime::set_params(GdevContext* c, const std::string& kernel, uint32_t block_x, uint32_t block_y,
                             const std::vector<uint32_t>& args) {
  api_.spend(opt_.api_call);
  if (args.size() > CMP_ARGS) throw HostError("set_params of " + kernel + ": more than 16 argument words");
  std::vector<uint32_t> w = {inc(kSubCompute, CMPM_REG(CMP_KERNEL), 1), gpu::kernel_id(kernel),
                             inc(kSubCompute, CMPM_REG(CMP_BLOCK_X), 2), block_x, block_y};
  if (!args.empty()) {
    w.push_back(inc(kSubCompute, CMPM_REG(CMP_ARG), unsigned(args.size())));
    w.insert(w.end(), args.begin(), args.end());
  }
  push(c, w);
  kick(c);
}

void GdevRuntime::launch_grid_async(GdevContext* c, uint32_t grid_x, uint32_t grid_y) {
  api_.spend(opt_.api_call);
  push(c, {inc(kSubCompute, CMPM_REG(CMP_GRID_X), 2), grid_x, grid_y, inc(kSubCompute, CMPM_LAUNCH, 1), 0});
  kick(c);
}

void GdevRuntime::synchronize(GdevContext* c) {
  api_.spend(opt_.api_call);
  const uint32_t seq = ++c->seq;
  const uint64_t va = c->fence.va;
  std::vector<uint32_t> w = {inc(kSubCompute, FIFO_M_SEMAPHOREA, 4), uint32_t(va >> 32) & 0xff, uint32_t(va), seq,
                             FIFO_SEM_RELEASE};
  // Not through push(), which would synchronize recursively: push() leaves room for this release.
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(c->pushbuf, c->pb_pos), w.data(), w.size() * 4, Access::WriteCombined);
  else
    api_.write(c->pushbuf_host + c->pb_pos, w.data(), w.size() * 4, Access::Cached);
  c->pb_pos += w.size() * 4;
  kick(c);
  if (!api_.poll32(c->fence_host, ~0u, seq, opt_.poll, opt_.sync_timeout)) {
    const uint32_t err = gpu_.reg_read(fifo_base_ + FIFO_ERROR);
    throw HostError(format("synchronize of channel %u: fence 0x%08x not written within sync_timeout (FIFO ERROR %u, "
                           "channel status 0x%x)",
                           c->chid, seq, err, gpu_.reg_read(fifo_base_ + FIFO_CHAN_STATUS_N(c->chid))));
  }
  c->pb_pos = c->seg_start = 0;
  c->gp_since_sync = 0;
}

}  // namespace hetvp::sw
