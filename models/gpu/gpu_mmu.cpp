#include "models/gpu/gpu_mmu.h"

#include <cinttypes>
#include <cstring>

#include "platform/channel_tag.h"
#include "models/gpu/gpu_regs.h"
#include "firmware/include/hetvp/fifo.h"
#include "platform/payload.h"
#include "platform/format.h"

namespace hetvp::gpu {

namespace {
const RegSpec kMmuRegs[] = {HETVP_REG_TABLE(HETVP_MMU_REGS)};
}  // namespace

GpuMmu::GpuMmu(sc_core::sc_module_name n, const GpuMmuConfig& c, uint64_t vram_size)
    : Peripheral(n, kMmuRegs),
      pd_base_lo_(reg("PD_BASE_LO")),
      pd_base_hi_(reg("PD_BASE_HI")),
      fault_status_(reg("FAULT_STATUS")),
      fault_addr_lo_(reg("FAULT_ADDR_LO")),
      fault_addr_hi_(reg("FAULT_ADDR_HI")),
      fault_count_(reg("FAULT_COUNT")),
      vram_size_(vram_size) {
  tlb_entries_ = c.tlb_entries;
  tlb_hit_ = c.tlb_hit;
  in.register_transport_dbg(&GpuMmu::transport_dbg);
  on_write("PD_BASE_LO", &GpuMmu::pd_base_written);
  on_write("PD_BASE_HI", &GpuMmu::pd_base_written);
  on_write("TLB_FLUSH", &GpuMmu::tlb_flush_written);
  fault_chan_ = &reg("FAULT_CHAN");
  walk_info_->initiator = "gpu.mmu.walker";
  walk_info_->side = Side::Gpu;
  walk_gp_.set_extension(walk_info_);
  declare_stats();
}

void GpuMmu::flush_tlb() {
  tlb_.clear();
  lru_.clear();
  inst_pd_.clear();  // a driver that rewrites an instance block's PD flushes the TLB
}

bool GpuMmu::page_directory(const tlm::tlm_generic_payload& gp, uint64_t& pd, sc_core::sc_time& delay, bool debug) {
  const ChannelTag* tag = gp.get_extension<ChannelTag>();
  if (!tag || !tag->valid) {
    pd = (uint64_t(pd_base_hi_.value) << 32) | pd_base_lo_.value;
    return true;
  }
  auto it = inst_pd_.find(tag->inst);
  if (it != inst_pd_.end()) {
    pd = it->second;
    return true;
  }
  uint64_t v = 0;
  if (tag->inst + INST_BYTES > vram_size_ || !read_vram(tag->inst + INST_PD_BASE, &v, 8, delay, debug)) return false;
  pd = v & ~0xfffull;
  if (!debug) inst_pd_[tag->inst] = pd;
  return true;
}

bool GpuMmu::read_vram(uint64_t addr, void* dst, unsigned len, sc_core::sc_time& delay, bool debug) {
  set_access(walk_gp_, tlm::TLM_READ_COMMAND, addr, dst, len);
  if (debug) return vram->transport_dbg(walk_gp_) == len;
  vram.b_transport(walk_gp_, delay);
  return walk_gp_.is_response_ok();
}

bool GpuMmu::translate(uint64_t pd, uint64_t va, bool write, Translation& t, unsigned& reason, sc_core::sc_time& delay,
                       bool debug) {
  uint64_t vpn = va >> MMU_PAGE_SHIFT;
  // The few most recent translations first (a copy alternates between its source and destination
  // pages; a few cores run side by side): a hit there needs no hash lookup (#31). Same hit, same LRU
  // move as through the hash.
  if (!(va >> MMU_VA_BITS)) {
    const uint64_t key = tlb_key(pd, vpn);
    auto e = lru_.begin();
    for (int n = 0; n < 4 && e != lru_.end(); ++n, ++e) {
      if (e->first != key) continue;
      if (!debug) {
        ++tlb_hits_;
        delay += tlb_hit_;
        if (n) lru_.splice(lru_.begin(), lru_, e);
      }
      t = e->second;
      if (write && t.read_only) {
        reason = MMU_FAULT_READ_ONLY;
        return false;
      }
      return true;
    }
  }
  auto it = va >> MMU_VA_BITS ? tlb_.end() : tlb_.find(tlb_key(pd, vpn));
  if (it != tlb_.end()) {
    if (!debug) {
      ++tlb_hits_;
      delay += tlb_hit_;
      lru_.splice(lru_.begin(), lru_, it->second);
    }
    t = it->second->second;
  } else {
    if (!debug) ++tlb_misses_;
    if (va >> MMU_VA_BITS) {
      reason = MMU_FAULT_NO_PDE;
      return false;
    }
    uint64_t pde = 0;
    uint64_t pdi = (va >> (MMU_PAGE_SHIFT + MMU_PT_INDEX_BITS)) & ((1u << MMU_PD_INDEX_BITS) - 1);
    uint64_t pti = (va >> MMU_PAGE_SHIFT) & ((1u << MMU_PT_INDEX_BITS) - 1);
    if (!read_vram(pd + pdi * 8, &pde, 8, delay, debug) || !(pde & MMU_PDE_VALID)) {
      reason = MMU_FAULT_NO_PDE;
      return false;
    }
    uint64_t pt = pde & 0x000000fffffff000ull;
    // The walker reads a whole 64-byte line of the page table (8 PTEs) and fills the TLB with
    // every valid entry in it: streaming accesses then walk once per 8 pages.
    uint64_t line[8] = {};
    const uint64_t first = pti & ~7ull;
    if (!read_vram(pt + first * 8, line, sizeof line, delay, debug) || !(line[pti - first] & MMU_PTE_VALID)) {
      reason = MMU_FAULT_NO_PTE;
      return false;
    }
    auto decode = [](uint64_t pte) {
      return Translation{pte & 0x000ffffffffff000ull, (pte & MMU_PTE_SYSMEM) != 0, (pte & MMU_PTE_READ_ONLY) != 0};
    };
    t = decode(line[pti - first]);
    if (!t.sysmem && t.page >= vram_size_) {
      reason = MMU_FAULT_OUT_OF_VRAM;
      return false;
    }
    if (!debug) {
      for (unsigned i = 0; i < 8; ++i) {
        if (!(line[i] & MMU_PTE_VALID)) continue;
        Translation e = decode(line[i]);
        if (!e.sysmem && e.page >= vram_size_) continue;
        uint64_t v = tlb_key(pd, (vpn & ~7ull) | i);
        auto old = tlb_.find(v);
        if (old != tlb_.end()) {
          lru_.erase(old->second);
          tlb_.erase(old);
        }
        lru_.emplace_front(v, e);
        tlb_[v] = lru_.begin();
        if (lru_.size() > tlb_entries_) {
          tlb_.erase(lru_.back().first);
          lru_.pop_back();
        }
      }
    }
  }
  if (write && t.read_only) {
    reason = MMU_FAULT_READ_ONLY;
    return false;
  }
  return true;
}

void GpuMmu::fault(uint64_t va, unsigned reason, const tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
  ++faults_;
  const ChannelTag* tag = gp.get_extension<ChannelTag>();
  const bool chan = tag && tag->valid;
  fault_chan_->value = chan ? (0x80000000u | uint32_t((tag->inst >> 12) & 0x0fffffffu)) : 0;
  fault_status_.value = MMU_FAULT_STATUS_PENDING | (reason << MMU_FAULT_STATUS_REASON_SHIFT);
  fault_addr_lo_.value = static_cast<uint32_t>(va);
  fault_addr_hi_.value = static_cast<uint32_t>(va >> 32);
  fault_count_.value++;
  static const char* reasons[] = {"none", "no page directory entry", "no page table entry", "write to read-only page",
                                  "page outside VRAM", "instance block unreadable"};
  std::string buf = format("%s: %s at GPU virtual address 0x%" PRIx64 " by %s: %s", name(),
                           gp.is_write() ? "write" : "read", va, initiator_of(gp), reasons[reason]);
  if (chan) buf += format(" (in the address space of channel %u (instance 0x%" PRIx64 "))", tag->chid, tag->inst);
  SC_REPORT_WARNING("hetvp/gpu-mmu", buf.c_str());
  HETVP_DEBUG(Mmu, "fault: %s at VA 0x%" PRIx64 " by %s%s: %s", gp.is_write() ? "write" : "read", va, initiator_of(gp),
              chan ? format(" (channel %u)", tag->chid).c_str() : "", reasons[reason]);
  intr->raise(GPU_INTR_MMU_FAULT, delay);
}

void GpuMmu::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++accesses_;
  const uint64_t va = gp.get_address();
  const unsigned len = gp.get_data_length();
  unsigned char* data = gp.get_data_ptr();
  const uint64_t page_size = 1ull << MMU_PAGE_SHIFT;
  bool split = (va & (page_size - 1)) + len > page_size;
  if (split) ++split_;
  MmuTargetInfo* target = gp.get_extension<MmuTargetInfo>();
  if (target) target->sysmem = false;
  sc_core::sc_time done = delay;
  uint64_t pd = 0;
  {
    sc_core::sc_time d = delay;
    if (!page_directory(gp, pd, d, false)) {
      fault(va, MMU_FAULT_BAD_INSTANCE, gp, d);
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    delay = d;
    done = d;
  }
  uint64_t off = 0;
  while (off < len) {
    uint64_t cur = va + off;
    unsigned n = static_cast<unsigned>(std::min<uint64_t>(len - off, page_size - (cur & (page_size - 1))));
    Translation t{};
    unsigned reason = 0;
    sc_core::sc_time d = delay;
    const uint64_t misses = tlb_misses_;
    const bool ok = translate(pd, cur, gp.is_write(), t, reason, d, false);
    if (tlb_misses_ != misses && debug_on(DebugFlag::Mmu)) {
      const ChannelTag* tag = gp.get_extension<ChannelTag>();
      debug_print(DebugFlag::Mmu,
                  format("TLB miss at VA 0x%" PRIx64 " by %s%s: walked page directory 0x%" PRIx64 " in %s%s", cur,
                         initiator_of(gp), tag && tag->valid ? format(" (channel %u)", tag->chid).c_str() : "", pd,
                         (d - delay).to_string().c_str(),
                         ok ? format(" -> %s 0x%" PRIx64, t.sysmem ? "host" : "VRAM", t.page).c_str() : ": fault"));
    }
    if (!ok) {
      fault(cur, reason, gp, d);
      gp.set_address(va);
      gp.set_data_ptr(data);
      gp.set_data_length(len);
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    gp.set_address(t.page | (cur & (page_size - 1)));
    gp.set_data_ptr(data + off);
    gp.set_data_length(n);
    gp.set_streaming_width(n);
    gp.set_dmi_allowed(false);
    if (t.sysmem) {
      ++sysmem_accesses_;
      if (target) target->sysmem = true;
      sysmem.b_transport(gp, d);
    } else {
      vram.b_transport(gp, d);
    }
    if (d > done) done = d;
    if (!gp.is_response_ok()) break;
    off += n;
  }
  gp.set_address(va);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_dmi_allowed(false);  // translations can change: no DMI through the MMU
  delay = done;
}

unsigned GpuMmu::transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t va = gp.get_address();
  const unsigned len = gp.get_data_length();
  unsigned char* data = gp.get_data_ptr();
  const uint64_t page_size = 1ull << MMU_PAGE_SHIFT;
  unsigned total = 0;
  uint64_t pd = 0;
  {
    sc_core::sc_time d;
    if (!page_directory(gp, pd, d, true)) return 0;
  }
  while (total < len) {
    uint64_t cur = va + total;
    unsigned n = static_cast<unsigned>(std::min<uint64_t>(len - total, page_size - (cur & (page_size - 1))));
    Translation t{};
    unsigned reason = 0;
    sc_core::sc_time d;
    if (!translate(pd, cur, false, t, reason, d, true)) break;
    gp.set_address(t.page | (cur & (page_size - 1)));
    gp.set_data_ptr(data + total);
    gp.set_data_length(n);
    unsigned got = t.sysmem ? sysmem->transport_dbg(gp) : vram->transport_dbg(gp);
    total += got;
    if (got != n) break;
  }
  gp.set_address(va);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  return total;
}

void GpuMmu::declare_stats() {
  stats_.set_name(basename());
  stats_.counter("accesses", "count", "translated accesses", accesses_)
      .counter("tlb_hits", "count", "translations found in the TLB", tlb_hits_)
      .counter("tlb_misses", "count", "translations that walked the page tables", tlb_misses_)
      .counter("page_splits", "count", "accesses split at a page boundary", split_)
      .counter("sysmem_accesses", "count", "accesses to pages in host (system) memory", sysmem_accesses_)
      .counter("faults", "count", "translation faults (unmapped or invalid page)", faults_)
      .value("register_errors", "count", "illegal register accesses", [this] { return bank_.errors(); });
}

}  // namespace hetvp::gpu
