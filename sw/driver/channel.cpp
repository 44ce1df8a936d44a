#include "sw/driver/channel.h"

#include <algorithm>

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "platform/config.h"
#include "platform/format.h"
#include "sw/driver/gr_context.h"

namespace hetvp::sw {

namespace {
uint32_t inc(unsigned subch, uint32_t mthd, unsigned count) { return FIFO_HDR(FIFO_SEC_OP_INC, count, subch, mthd); }
}  // namespace

// ---------------------------------------------------------------- options
void ChannelOptions::validate(Diagnostics& d) const {
  if (gpfifo_entries & (gpfifo_entries - 1))
    d.error(gpfifo_entries.where() + ": " + std::to_string(gpfifo_entries) + " is not a power of two");
  gr_mmio_pairs(d);
}

std::vector<std::pair<uint32_t, uint32_t>> ChannelOptions::gr_mmio_pairs(Diagnostics& d) const {
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
    d.error(gr_mmio.where() + ": " + std::to_string(pairs.size()) +
            " entries, more than a channel's mmio list holds (" + std::to_string(kMaxMmio) +
            ": one 4 KiB page, as nouveau's gf100.h:134)");
  return pairs;
}

// ---------------------------------------------------------------- the FIFO's channels
struct Fifo::Golden {
  GoldenContext g;
};

Fifo::Fifo(HostApi& api, GpuDriver& gpu, McuDriver* mcu, const ChannelOptions& opt)
    : api_(api), gpu_(gpu), mcu_(mcu), opt_(opt), golden_(new Golden) {
  Diagnostics d;  // checked with the configuration already; a set built by hand is checked here
  gr_mmio_ = opt_.gr_mmio_pairs(d);
  d.throw_if_any("channel options");
  base_ = gpu_.block_base(PTOP_FIFO_BASE, "FIFO engine (fifo block)");
  channels_ = gpu_.reg_read(base_ + FIFO_CHANNELS);
  chid_used_.assign(channels_, false);
}

Fifo::~Fifo() = default;

void Fifo::ensure_golden() {
  if (golden_ready_) return;
  golden_ready_ = true;
  // Without microcontrollers there is no context-switch firmware, hence no golden context: each
  // channel gets an empty context buffer (and the FIFO lets one channel at a time own GR).
  if (!mcu_) return;
  const sc_core::sc_time t0 = api_.now();
  golden_->g = gr_golden_generate(api_, gpu_, *mcu_);
  golden_time_ = api_.now() - t0;
}

Channel& Fifo::open() {
  ensure_golden();
  std::unique_ptr<Channel> ch(new Channel(api_, gpu_, opt_));
  Channel* c = ch.get();
  c->fifo_base_ = base_;
  unsigned id = 0;
  while (id < channels_ && chid_used_[id]) ++id;
  if (id == channels_) throw HostError("ctx_create: all " + std::to_string(channels_) + " FIFO channels are in use");
  chid_used_[id] = true;
  c->chid_ = id;
  c->space_ = gpu_.create_space();
  c->opened_ = ++opens_;
  c->inst_ = gpu_.alloc_vram_phys(INST_BYTES, INST_BYTES);
  c->vram_phys_.push_back(c->inst_);
  // The context buffer is as large as the golden image the firmware saved (FW_CMD_GR_INFO); the
  // option only sizes it on a GPU without the context-switch firmware.
  uint64_t ctx_bytes = opt_.gr_context_bytes;
  if (mcu_) ctx_bytes = std::max<uint64_t>(golden_->g.bytes, 256u);
  // nouveau's firmware reaches the buffer through the channel's VM (gr_firmware.h): map it there.
  const bool ctx_in_vm = mcu_ && golden_->g.fw && golden_->g.fw->virtual_context_pointer();
  GpuBuffer ctx_mapped;
  if (ctx_in_vm) {
    ctx_mapped = gpu_.alloc_vram((ctx_bytes + 255) & ~uint64_t(255), c->space_);
    c->vram_.push_back(ctx_mapped);
    c->ctx_buf_ = ctx_mapped.phys;
  } else {
    c->ctx_buf_ = gpu_.alloc_vram_phys((ctx_bytes + 255) & ~uint64_t(255), 4096);
    c->vram_phys_.push_back(c->ctx_buf_);
  }
  const uint64_t gp_bytes = uint64_t(opt_.gpfifo_entries) * GP_ENTRY_BYTES;
  if (opt_.pushbuf_in_vram()) {
    c->gpfifo_ = gpu_.alloc_vram(gp_bytes, c->space_);
    c->pushbuf_ = gpu_.alloc_vram(opt_.pushbuf_bytes(), c->space_);
    c->vram_.insert(c->vram_.end(), {c->gpfifo_, c->pushbuf_});
  } else {
    c->gpfifo_host_ = api_.alloc_pinned(gp_bytes, 4096);
    c->pushbuf_host_ = api_.alloc_pinned(opt_.pushbuf_bytes(), 4096);
    c->pinned_ = {c->gpfifo_host_, c->pushbuf_host_};
    c->gpfifo_ = gpu_.map_host(c->gpfifo_host_, gp_bytes, c->space_);
    c->pushbuf_ = gpu_.map_host(c->pushbuf_host_, opt_.pushbuf_bytes(), c->space_);
  }
  c->fence_host_ = api_.alloc_pinned(4096, 4096);
  c->pinned_.push_back(c->fence_host_);
  api_.write32(c->fence_host_, 0);
  c->fence_ = gpu_.map_host(c->fence_host_, 16, c->space_);
  // Instance block: RAMFC's GPFIFO words (nouveau gpfifogf100.c:286), the page directory
  // (vmmgf100.c:357) and its limit.
  unsigned log2 = 0;
  while ((1u << log2) < opt_.gpfifo_entries) ++log2;
  gpu_.write_vram32(c->inst_ + INST_RAMFC_GP_BASE_LO, uint32_t(c->gpfifo_.va));
  gpu_.write_vram32(c->inst_ + INST_RAMFC_GP_BASE_HI, uint32_t(c->gpfifo_.va >> 32) | log2 << 16);
  gpu_.write_vram64(c->inst_ + INST_PD_BASE, gpu_.space_pd(c->space_));
  gpu_.write_vram64(c->inst_ + INST_PD_LIMIT, (1ull << 40) - 1);
  if (!gr_mmio_.empty() && !ctx_in_vm)
    throw HostError("ctx_create: gdev.gr_mmio needs a firmware with a per-channel mmio list (nouveau's); " +
                    std::string(golden_->g.fw ? golden_->g.fw->name() : "no") + " firmware here");
  if (ctx_in_vm) {
    GpuBuffer list;  // the channel's mmio list, in its space: (address, value) pairs
    if (!gr_mmio_.empty()) {
      list = gpu_.alloc_vram(8 * gr_mmio_.size(), c->space_);
      c->vram_.push_back(list);
      for (size_t i = 0; i < gr_mmio_.size(); ++i) {
        gpu_.write_vram32(list.phys + 8 * i, gr_mmio_[i].first);
        gpu_.write_vram32(list.phys + 8 * i + 4, gr_mmio_[i].second);
      }
    }
    gr_context_create(api_, gpu_, golden_->g, c->inst_, ctx_mapped, list.va, uint32_t(gr_mmio_.size()));
  } else if (mcu_) {
    gr_context_create(api_, gpu_, golden_->g, c->inst_, c->ctx_buf_);
  } else {
    // No context-switch firmware: an empty context buffer, its address at +0x210.
    gpu_.write_vram64(c->inst_ + INST_GR_CTX, c->ctx_buf_);
  }
  if (opt_.test_unmapped_context && id > 0) {  // the test-only fault: 0xf000000000 is mapped in no space
    gpu_.write_vram32(c->inst_ + INST_GR_CTX, 0x00000000u | 4u);
    gpu_.write_vram32(c->inst_ + INST_GR_CTX + 4, 0xf0u);
  }
  // The module's constants (a GPC constant buffer every kernel of the channel sees): word 0 is
  // the "scale" the benchmark kernels multiply by (1).
  c->cb_ = gpu_.alloc_vram(CMP_CB_MAX, c->space_);
  c->vram_.push_back(c->cb_);
  gpu_.write_vram32(c->cb_.phys, 1);
  gpu_.reg_write(base_ + FIFO_CHAN_INST_N(id), 0x80000000u | uint32_t((c->inst_ >> 12) & 0x0fffffffu));
  gpu_.reg_write(base_ + FIFO_CHAN_CTRL_N(id), FIFO_CHAN_CTRL_ENABLE);
  using K = Channel;
  c->push({inc(K::kSubCompute, FIFO_M_SET_OBJECT, 1), FIFO_CLASS_COMPUTE, inc(K::kSubCopy, FIFO_M_SET_OBJECT, 1),
           FIFO_CLASS_COPY, inc(K::kSubCompute, CMPM_GPC_CB(CMP_GPC_CB_LO), 3), uint32_t(c->cb_.va),
           uint32_t(c->cb_.va >> 32), 16});
  c->kick();
  live_.push_back(std::move(ch));
  return *c;
}

void Fifo::close(Channel& c) {
  gpu_.reg_write(base_ + FIFO_CHAN_CTRL_N(c.chid_), 0);
  for (uint64_t p : c.pinned_) api_.free_pinned(p);
  // Channels closed before this one opened: this one has owned GR since (it pushed compute
  // methods at open and was synchronized), so nothing refers to their VRAM any more.
  for (auto it = retired_.begin(); it != retired_.end();) {
    if (it->closed_after_opens >= c.opened_) {
      ++it;
      continue;
    }
    gpu_.destroy_space(it->space);  // first: its buffers' page-table entries go with it (no writes)
    for (const GpuBuffer& b : it->vram) gpu_.free_vram(b);
    for (uint64_t p : it->vram_phys) gpu_.free_vram_phys(p);
    it = retired_.erase(it);
  }
  retired_.push_back(Retired{opens_, c.space_, std::move(c.vram_), std::move(c.vram_phys_)});
  chid_used_[c.chid_] = false;
  for (auto it = live_.begin(); it != live_.end(); ++it)
    if (it->get() == &c) {
      live_.erase(it);
      break;
    }
}

// ---------------------------------------------------------------- one channel
void Channel::push(const std::vector<uint32_t>& words) {
  const uint64_t bytes = words.size() * 4;
  if (bytes > opt_.pushbuf_bytes())
    throw HostError("push of " + std::to_string(bytes) + " bytes exceeds the push buffer");
  // Out of push buffer or GP entries: wait until the FIFO consumed everything, then start over.
  // (Room for synchronize's release, 5 words and one GP entry, always stays.)
  if (pb_pos_ + bytes + 5 * 4 > opt_.pushbuf_bytes() || gp_since_sync_ + 2 >= opt_.gpfifo_entries) {
    kick();
    synchronize();
  }
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(pushbuf_, pb_pos_), words.data(), bytes, Access::WriteCombined);
  else
    api_.write(pushbuf_host_ + pb_pos_, words.data(), bytes, Access::Cached);
  pb_pos_ += bytes;
}

void Channel::push_segment(uint64_t va, uint32_t words) {
  const uint32_t e[2] = {uint32_t(va) & ~3u, uint32_t((va >> 32) & 0xff) | words << GP_ENTRY1_LENGTH_SHIFT};
  const uint64_t at = uint64_t(gp_put_) * GP_ENTRY_BYTES;
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(gpfifo_, at), e, 8, Access::WriteCombined);
  else
    api_.write(gpfifo_host_ + at, e, 8, Access::Cached);
  gp_put_ = (gp_put_ + 1) % opt_.gpfifo_entries;
  ++gp_since_sync_;
  gpu_.reg_write(fifo_base_ + FIFO_GP_PUT_N(chid_), gp_put_);  // the doorbell
}

void Channel::kick() {
  if (pb_pos_ == seg_start_) return;
  const uint32_t words = uint32_t((pb_pos_ - seg_start_) / 4);
  const uint64_t va = pushbuf_.va + seg_start_;
  seg_start_ = pb_pos_;
  push_segment(va, words);
}

void Channel::copy(uint64_t src_va, uint64_t dst_va, uint64_t bytes) {
  for (uint64_t off = 0; off < bytes;) {
    const uint64_t n = std::min<uint64_t>(bytes - off, 0x80000000ull);
    const uint64_t s = src_va + off, d = dst_va + off;
    push({inc(kSubCopy, COPYM_OFFSET_IN_UPPER, 4), uint32_t(s >> 32), uint32_t(s), uint32_t(d >> 32), uint32_t(d),
          inc(kSubCopy, COPYM_LINE_LENGTH_IN, 1), uint32_t(n), inc(kSubCopy, COPYM_LAUNCH_DMA, 1), 0});
    off += n;
  }
}

void Channel::synchronize() {
  api_.spend(opt_.api_call);
  const uint32_t seq = ++seq_;
  const uint64_t va = fence_.va;
  std::vector<uint32_t> w = {inc(kSubCompute, FIFO_M_SEMAPHOREA, 4), uint32_t(va >> 32) & 0xff, uint32_t(va), seq,
                             FIFO_SEM_RELEASE};
  // Not through push(), which would synchronize recursively: push() leaves room for this release.
  if (opt_.pushbuf_in_vram())
    api_.write(gpu_.bar1_address(pushbuf_, pb_pos_), w.data(), w.size() * 4, Access::WriteCombined);
  else
    api_.write(pushbuf_host_ + pb_pos_, w.data(), w.size() * 4, Access::Cached);
  pb_pos_ += w.size() * 4;
  kick();
  if (!api_.poll32(fence_host_, ~0u, seq, opt_.poll, opt_.sync_timeout)) {
    const uint32_t err = gpu_.reg_read(fifo_base_ + FIFO_ERROR);
    throw HostError(
        format("synchronize of channel %u: fence 0x%08x not written within sync_timeout (FIFO ERROR %u, "
               "channel status 0x%x)",
               chid_, seq, err, gpu_.reg_read(fifo_base_ + FIFO_CHAN_STATUS_N(chid_))));
  }
  pb_pos_ = seg_start_ = 0;
  gp_since_sync_ = 0;
}

}  // namespace hetvp::sw
