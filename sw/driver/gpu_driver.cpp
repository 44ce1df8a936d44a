#include "sw/driver/gpu_driver.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gpu_regs.h"
#include "models/pcie/tlp.h"
#include "platform/format.h"

namespace hetvp::sw {

using namespace hetvp::gpu;

namespace {
constexpr uint64_t kVramVaBase = 0x0100000000ull;         // VRAM buffers (each followed by an unmapped guard page)
constexpr uint64_t kSysmemVaBase = 0x4000000000ull;       // host mappings
constexpr uint64_t kPdBytes = 8ull << MMU_PD_INDEX_BITS;  // 128 KiB
constexpr uint64_t kPtBytes = 8ull << MMU_PT_INDEX_BITS;  // 128 KiB, covers 64 MiB
constexpr uint64_t kPageTableArea = 16ull << 20;          // VRAM [0, 16 MiB) holds PD and PTs
constexpr uint64_t kPage = 1ull << MMU_PAGE_SHIFT;

}  // namespace

const char* to_string(Direction d) { return d == Direction::HostToDevice ? "HtoD" : "DtoH"; }
const char* to_string(CopyMethod m) { return m == CopyMethod::Dma ? "DMA" : "IORW"; }

GpuDriver::GpuDriver(HostApi& api, const DriverOptions& opt) : api_(api), opt_(opt) {}

// ---------------------------------------------------------------- PCIe enumeration
uint32_t GpuDriver::cfg_read(unsigned bus, unsigned dev, unsigned reg) {
  return api_.mmio_read32(api_.platform().ecam_base + pcie::ecam_offset(bus, dev, 0, reg));
}
void GpuDriver::cfg_write(unsigned bus, unsigned dev, unsigned reg, uint32_t v) {
  api_.mmio_write32(api_.platform().ecam_base + pcie::ecam_offset(bus, dev, 0, reg), v);
}

std::vector<PcieFunction> GpuDriver::enumerate() {
  std::vector<PcieFunction> found;
  const PlatformInfo& pi = api_.platform();
  uint64_t next = pi.mmio_base;
  unsigned next_bus = 1;
  auto align = [](uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); };
  for (unsigned dev = 0; dev < 32; ++dev) {
    uint32_t id = cfg_read(0, dev, PCICFG_ID);
    if (PCICFG_ID_VENDOR(id) == 0xffff) continue;
    if (PCICFG_HEADER_TYPE(cfg_read(0, dev, PCICFG_HEADER)) != PCICFG_HEADER_TYPE_BRIDGE) continue;
    unsigned bus = next_bus++;
    cfg_write(0, dev, pcie::kCfgBusNumbers, 0 | (bus << 8) | (bus << 16));
    uint32_t eid = cfg_read(bus, 0, PCICFG_ID);
    if (PCICFG_ID_VENDOR(eid) == 0xffff) continue;  // empty slot
    PcieFunction f;
    f.bus = bus;
    f.vendor = PCICFG_ID_VENDOR(eid);
    f.device_id = PCICFG_ID_DEVICE(eid);
    // Size and place every BAR: write all-ones, read back the size mask.
    uint64_t mem_lo = ~0ull, mem_hi = 0, pref_lo = ~0ull, pref_hi = 0;
    for (unsigned b = 0; b < 6; ++b) {
      unsigned reg = PCICFG_BAR + 4 * b;
      uint32_t orig = cfg_read(bus, 0, reg);
      cfg_write(bus, 0, reg, 0xffffffff);
      uint32_t lo = cfg_read(bus, 0, reg);
      if (lo == 0) continue;
      bool is64 = (orig & PCICFG_BAR_TYPE_MASK) == PCICFG_BAR_64BIT, pref = orig & PCICFG_BAR_PREFETCH;
      uint64_t mask = lo & ~uint64_t(PCICFG_BAR_FLAGS);
      if (is64) {
        cfg_write(bus, 0, reg + 4, 0xffffffff);
        mask |= uint64_t(cfg_read(bus, 0, reg + 4)) << 32;
      } else {
        mask |= 0xffffffff00000000ull;
      }
      uint64_t size = ~mask + 1;
      uint64_t at = align(next, std::max<uint64_t>(size, 1ull << 20));
      if (at + size > pi.mmio_base + pi.mmio_size)
        throw HostError("enumeration: PCIe memory window exhausted placing BAR" + std::to_string(b) + " of " +
                        std::to_string(size >> 20) + " MiB");
      next = at + size;
      cfg_write(bus, 0, reg, static_cast<uint32_t>(at));
      if (is64) cfg_write(bus, 0, reg + 4, static_cast<uint32_t>(at >> 32));
      f.bar[b] = at;
      f.bar_size[b] = size;
      uint64_t& lo_r = pref ? pref_lo : mem_lo;
      uint64_t& hi_r = pref ? pref_hi : mem_hi;
      lo_r = std::min(lo_r, at);
      hi_r = std::max(hi_r, at + size - 1);
      if (is64) ++b;
    }
    // Open the bridge windows onto what the device decodes, then enable decoding and mastering.
    if (mem_hi)
      cfg_write(0, dev, pcie::kCfgMemBaseLimit,
                uint32_t(mem_lo >> 16 & 0xfff0) | uint32_t(mem_hi >> 16 & 0xfff0) << 16);
    else
      cfg_write(0, dev, pcie::kCfgMemBaseLimit, 0x0000fff0);  // closed
    if (pref_hi) {
      cfg_write(0, dev, pcie::kCfgPrefBaseLimit,
                uint32_t(pref_lo >> 16 & 0xfff0) | uint32_t(pref_hi >> 16 & 0xfff0) << 16);
      cfg_write(0, dev, pcie::kCfgPrefBaseUpper, static_cast<uint32_t>(pref_lo >> 32));
      cfg_write(0, dev, pcie::kCfgPrefLimitUpper, static_cast<uint32_t>(pref_hi >> 32));
    } else {
      cfg_write(0, dev, pcie::kCfgPrefBaseLimit, 0x0000fff0);
    }
    cfg_write(0, dev, pcie::kCfgCommandStatus, pcie::kCmdMemoryEnable | pcie::kCmdBusMaster);
    // MSI: address and data, then enable.
    cfg_write(bus, 0, PCICFG_MSI_ADDR_LO, static_cast<uint32_t>(pi.msi_address));
    cfg_write(bus, 0, PCICFG_MSI_ADDR_HI, static_cast<uint32_t>(pi.msi_address >> 32));
    cfg_write(bus, 0, PCICFG_MSI_DATA, kGpuMsiVector);
    cfg_write(bus, 0, PCICFG_MSI_CAP, cfg_read(bus, 0, PCICFG_MSI_CAP) | PCICFG_MSI_ENABLE);
    cfg_write(bus, 0, PCICFG_COMMAND, PCICFG_COMMAND_MEMORY | PCICFG_COMMAND_MASTER);
    if (f.vendor == kVendorNvidia) found.push_back(f);
  }
  return found;
}

void GpuDriver::open(unsigned index) {
  auto gpus = enumerate();
  if (index >= gpus.size())
    throw HostError("no GPU number " + std::to_string(index) + " on PCIe (found " + std::to_string(gpus.size()) + ")");
  fn_ = gpus[index];
  open_ = true;
  uint32_t boot0 = reg_read(GPU_PMC_BASE + PMC_BOOT_0);
  if (boot0 != PMC_BOOT_0_GF100 && !find_gpu_chip_by_boot0(boot0))  // a chip of gpu_chips.h (#25)
    throw HostError("GPU " + std::to_string(index) + ": unexpected PMC_BOOT_0 " + hex(boot0));
  num_gpcs_ = reg_read(GPU_PTOP_BASE + PTOP_NUM_GPCS);
  vram_size_ = uint64_t(reg_read(GPU_PTOP_BASE + PTOP_VRAM_MIB)) << 20;
  // Page directory at VRAM 0; page tables follow inside the page-table area.
  pd_ = 0;
  pt_next_ = kPdBytes;
  const Fit fit = opt_.vram_fit == VramFit::best_fit ? Fit::Best : Fit::First;
  vram_ = VramAllocator(kPageTableArea, vram_size_ > kPageTableArea ? vram_size_ - kPageTableArea : 0, fit);
  // VAs: next fit, so that a freed buffer's address stays unmapped (a stale pointer faults) until
  // the 252 GiB of VA have gone round once.
  vram_va_ = VramAllocator(kVramVaBase + kPageTableArea, kSysmemVaBase - (kVramVaBase + kPageTableArea), Fit::Next);
  mappings_.clear();
  sysmem_va_next_ = kSysmemVaBase;
  spaces_.assign(1, Space{true, pd_, std::vector<uint64_t>(1u << MMU_PD_INDEX_BITS, 0)});
  reg_write(GPU_MMU_BASE + MMU_PD_BASE_LO, static_cast<uint32_t>(pd_));
  reg_write(GPU_MMU_BASE + MMU_PD_BASE_HI, static_cast<uint32_t>(pd_ >> 32));
  reg_write(GPU_PMC_BASE + PMC_INTR_EN, 0xffffffff);
  copy_engines_ = reg_read(GPU_PTOP_BASE + PTOP_NUM_COPY);
  // Where the copy engines are, read now so that no measured copy pays for it.
  if (copy_engines_) block_base(PTOP_COPY_BASE, "copy engines");
  // A pinned word the copy engine writes on completion.
  fence_host_ = api_.alloc_pinned(kPage, kPage);
  fence_buf_ = map_host(fence_host_, kPage);
}

uint32_t GpuDriver::block_base(uint32_t ptop_reg, const char* what) {
  if (!open_) throw HostError(std::string("block_base(") + what + ") before open");
  for (auto& [reg, base] : block_base_)
    if (reg == ptop_reg) return base;
  const uint32_t base = reg_read(GPU_PTOP_BASE + ptop_reg);
  if (base == 0)
    throw HostError(std::string("the GPU on bus ") + std::to_string(fn_.bus) + " has no " + what + " (BAR0 " +
                    hex(GPU_PTOP_BASE + ptop_reg) + " in PTOP reads 0: the block is not in the config's gpu blocks)");
  block_base_.emplace_back(ptop_reg, base);
  return base;
}

uint32_t GpuDriver::reg_read(uint32_t offset) { return api_.mmio_read32(fn_.bar[0] + offset); }
void GpuDriver::reg_write(uint32_t offset, uint32_t value) { api_.mmio_write32(fn_.bar[0] + offset, value); }

// ---------------------------------------------------------------- GPU memory
void GpuDriver::write_vram64(uint64_t vram_offset, uint64_t value) {
  if (vram_offset + 8 > fn_.bar_size[1]) throw HostError("page tables outside the BAR1 aperture");
  api_.mmio_write32(fn_.bar[1] + vram_offset, static_cast<uint32_t>(value));
  api_.mmio_write32(fn_.bar[1] + vram_offset + 4, static_cast<uint32_t>(value >> 32));
}
void GpuDriver::write_vram32(uint64_t vram_offset, uint32_t value) {
  if (vram_offset + 4 > fn_.bar_size[1]) throw HostError("VRAM write outside the BAR1 aperture");
  api_.mmio_write32(fn_.bar[1] + vram_offset, value);
}

GpuDriver::Space& GpuDriver::space(unsigned id) {
  if (!open_) throw HostError("GPU address space used before open");
  if (id >= spaces_.size() || !spaces_[id].live) throw HostError("no GPU address space " + std::to_string(id));
  return spaces_[id];
}

uint64_t GpuDriver::alloc_table() {
  if (!free_tables_.empty()) {
    // A recycled table holds a destroyed space's entries: clear it (untimed: a driver clears
    // tables with a copy-engine fill, which this model does not charge).
    const uint64_t t = free_tables_.back();
    free_tables_.pop_back();
    std::vector<uint8_t> zero(kPtBytes, 0);
    vram_poke(t, zero.data(), zero.size());
    return t;
  }
  if (pt_next_ + kPtBytes > kPageTableArea) throw HostError("out of GPU page-table memory");
  const uint64_t t = pt_next_;
  pt_next_ += kPtBytes;
  return t;
}

unsigned GpuDriver::create_space() {
  static_assert(kPdBytes == kPtBytes, "one free list for directories and tables");
  Space s{true, alloc_table(), std::vector<uint64_t>(1u << MMU_PD_INDEX_BITS, 0)};
  unsigned id = 1;
  while (id < spaces_.size() && spaces_[id].live) ++id;
  if (id == spaces_.size()) spaces_.emplace_back();
  spaces_[id] = std::move(s);
  return id;
}

void GpuDriver::destroy_space(unsigned id) {
  if (id == 0) throw HostError("the default GPU address space cannot be destroyed");
  Space& s = space(id);
  for (uint64_t pt : s.pde)
    if (pt) free_tables_.push_back(pt);  // a recycled table's stale PTEs are overwritten or unreachable: see below
  free_tables_.push_back(s.pd);
  s.live = false;
  for (auto& [va, m] : mappings_)
    if (m.space == id) m.space_live = false;
  reg_write(GPU_MMU_BASE + MMU_TLB_FLUSH, 1);
}

uint64_t GpuDriver::space_pd(unsigned id) const { return const_cast<GpuDriver*>(this)->space(id).pd; }

std::string GpuDriver::out_of_vram(const char* what, uint64_t size, uint64_t bytes) const {
  return std::string(what) + ": out of VRAM: asked " + std::to_string(size) + " bytes" +
         (bytes != size ? " (" + std::to_string(bytes) + " in whole pages)" : std::string()) + ", " +
         vram_.describe_free() + " (" + std::to_string(vram_.live_blocks()) + " buffers hold " +
         std::to_string(vram_.used_bytes()) + " of the " + std::to_string(vram_.size()) +
         " bytes above the page tables; cuMemFree / free_vram releases a buffer)";
}

uint64_t GpuDriver::alloc_vram_phys(uint64_t size, uint64_t align) {
  if (!open_) throw HostError("alloc_vram_phys before open");
  const uint64_t bytes = (size + kPage - 1) & ~(kPage - 1);
  const auto at = vram_.alloc(bytes, std::max(align, kPage));
  if (bytes == 0 || !at) throw HostError(out_of_vram("alloc_vram_phys", size, bytes));
  return *at;
}

void GpuDriver::free_vram_phys(uint64_t vram_offset) {
  if (!open_) throw HostError("free_vram_phys before open");
  for (const auto& [va, m] : mappings_)
    if (m.phys == vram_offset)
      throw HostError("free_vram_phys: VRAM " + hex(vram_offset) + " is the buffer at GPU VA " + hex(va) +
                      ": free it with free_vram");
  switch (vram_.free(vram_offset)) {
    case VramAllocator::FreeResult::Ok: return;
    case VramAllocator::FreeResult::DoubleFree:
      throw HostError("free_vram_phys: VRAM " + hex(vram_offset) + " was already freed (double free)");
    case VramAllocator::FreeResult::NeverAllocated: break;
  }
  throw HostError("free_vram_phys: VRAM " + hex(vram_offset) + " was never allocated");
}

void GpuDriver::map_pages(uint64_t va, uint64_t phys, uint64_t size, bool sysmem, unsigned sid) {
  Space& sp = space(sid);
  for (uint64_t off = 0; off < size; off += kPage) {
    uint64_t v = va + off;
    uint64_t pdi = (v >> (MMU_PAGE_SHIFT + MMU_PT_INDEX_BITS)) & ((1u << MMU_PD_INDEX_BITS) - 1);
    uint64_t pti = (v >> MMU_PAGE_SHIFT) & ((1u << MMU_PT_INDEX_BITS) - 1);
    if (!sp.pde[pdi]) {
      sp.pde[pdi] = alloc_table();
      write_vram64(sp.pd + pdi * 8, sp.pde[pdi] | MMU_PDE_VALID);
    }
    write_vram64(sp.pde[pdi] + pti * 8, ((phys + off) & ~(kPage - 1)) | MMU_PTE_VALID | (sysmem ? MMU_PTE_SYSMEM : 0));
  }
  reg_write(GPU_MMU_BASE + MMU_TLB_FLUSH, 1);
}

GpuBuffer GpuDriver::alloc_vram(uint64_t size, unsigned space) {
  if (!open_) throw HostError("alloc_vram before open");
  const uint64_t bytes = (size + kPage - 1) & ~(kPage - 1);
  this->space(space);  // a bad space fails before anything is taken
  // Physically contiguous (range invalidation cares), but in the GPU's virtual space every
  // buffer is followed by an unmapped guard page, as host mappings are: an engine that runs off
  // the end of one buffer faults instead of writing into the next one.
  const auto phys = bytes ? vram_.alloc(bytes, kPage) : std::nullopt;
  if (!phys) throw HostError(out_of_vram("alloc_vram", size, bytes));
  const auto va = vram_va_.alloc(bytes + kPage, kPage);
  if (!va) {
    vram_.free(*phys);
    throw HostError("alloc_vram: out of GPU virtual address space for VRAM (asked " + std::to_string(size) +
                    " bytes; " + vram_va_.describe_free() + ")");
  }
  GpuBuffer b{*va, *phys, size, false};
  map_pages(b.va, b.phys, bytes, false, space);
  mappings_[b.va] = VramMapping{b.phys, bytes, space, true};
  return b;
}

void GpuDriver::free_vram(const GpuBuffer& b) {
  if (!open_) throw HostError("free_vram before open");
  if (b.sysmem) throw HostError("free_vram: GPU VA " + hex(b.va) + " maps host memory (map_host), not VRAM");
  const auto it = mappings_.find(b.va);
  if (it == mappings_.end()) {
    if (vram_va_.was_freed(b.va)) throw HostError("free_vram: GPU VA " + hex(b.va) + " was already freed (double free)");
    if (const auto in = vram_va_.block_containing(b.va))
      throw HostError("free_vram: GPU VA " + hex(b.va) + " is inside the VRAM buffer at " + hex(*in) +
                      ", not its start");
    throw HostError("free_vram: GPU VA " + hex(b.va) + " was never allocated");
  }
  const VramMapping m = it->second;
  // Unmap: clear each page's entry, as map_pages wrote it, then flush the TLB. A destroyed space's
  // tables are gone (and may serve another space now): nothing to write.
  if (m.space_live) {
    Space& sp = space(m.space);
    for (uint64_t off = 0; off < m.bytes; off += kPage) {
      const uint64_t v = b.va + off;
      const uint64_t pdi = (v >> (MMU_PAGE_SHIFT + MMU_PT_INDEX_BITS)) & ((1u << MMU_PD_INDEX_BITS) - 1);
      const uint64_t pti = (v >> MMU_PAGE_SHIFT) & ((1u << MMU_PT_INDEX_BITS) - 1);
      if (sp.pde[pdi]) write_vram64(sp.pde[pdi] + pti * 8, 0);
    }
    reg_write(GPU_MMU_BASE + MMU_TLB_FLUSH, 1);
  }
  mappings_.erase(it);
  vram_va_.free(b.va);
  vram_.free(m.phys);
}

GpuBuffer GpuDriver::map_host(uint64_t host_phys, uint64_t size, unsigned space) {
  if (!open_) throw HostError("map_host before open");
  uint64_t first = host_phys & ~(kPage - 1);
  uint64_t bytes = ((host_phys + size + kPage - 1) & ~(kPage - 1)) - first;
  GpuBuffer b{sysmem_va_next_ + (host_phys - first), host_phys, size, true};
  map_pages(sysmem_va_next_, first, bytes, true, space);
  sysmem_va_next_ += bytes + kPage;  // a guard page between mappings
  return b;
}

uint64_t GpuDriver::bar1_address(const GpuBuffer& b, uint64_t offset) const {
  if (b.sysmem) throw HostError("bar1_address of a host buffer");
  if (b.phys + offset >= fn_.bar_size[1])
    throw HostError("VRAM offset " + hex(b.phys + offset) + " is outside the BAR1 aperture");
  return fn_.bar[1] + b.phys + offset;
}

void GpuDriver::vram_peek(uint64_t vram_offset, void* dst, uint64_t size) {
  api_.peek(fn_.bar[1] + vram_offset, dst, size);
}
void GpuDriver::vram_poke(uint64_t vram_offset, const void* src, uint64_t size) {
  api_.poke(fn_.bar[1] + vram_offset, src, size);
}

// ---------------------------------------------------------------- copies
DmaTicket GpuDriver::start_dma(unsigned engine, const GpuBuffer& src, const GpuBuffer& dst, uint64_t size) {
  if (engine >= copy_engines_)
    throw HostError("copy engine " + std::to_string(engine) + " does not exist (the GPU has " +
                    std::to_string(copy_engines_) + (copy_engines_ ? ")" : "; add copy_engine to gpu blocks)"));
  if (size == 0 || size > 0xffffffffull)
    throw HostError("start_dma: size " + std::to_string(size) + " out of range 1..4 GiB-1");
  const uint32_t base = block_base(PTOP_COPY_BASE, "copy engines") + engine * GPU_COPY_STRIDE;
  DmaTicket t{engine, ++fence_seq_[engine], size};
  const uint64_t fence_va = fence_buf_.va + 4 * engine;
  reg_write(base + COPY_SRC_LO, static_cast<uint32_t>(src.va));
  reg_write(base + COPY_SRC_HI, static_cast<uint32_t>(src.va >> 32));
  reg_write(base + COPY_DST_LO, static_cast<uint32_t>(dst.va));
  reg_write(base + COPY_DST_HI, static_cast<uint32_t>(dst.va >> 32));
  reg_write(base + COPY_LENGTH, static_cast<uint32_t>(size));
  reg_write(base + COPY_FENCE_LO, static_cast<uint32_t>(fence_va));
  reg_write(base + COPY_FENCE_HI, static_cast<uint32_t>(fence_va >> 32));
  reg_write(base + COPY_FENCE_VALUE, t.seq);
  reg_write(base + COPY_LAUNCH,
            COPY_LAUNCH_GO | COPY_LAUNCH_FENCE | (opt_.interrupt_completion() ? uint32_t(COPY_LAUNCH_INTR) : 0u));
  return t;
}

bool GpuDriver::dma_done(const DmaTicket& t) {
  return (api_.read32(fence_host_ + 4 * t.engine) & ~COPY_FENCE_ERROR) == t.seq;
}

void GpuDriver::wait_dma(const DmaTicket& t) {
  const uint32_t base = block_base(PTOP_COPY_BASE, "copy engines") + t.engine * GPU_COPY_STRIDE;
  bool done;
  if (opt_.interrupt_completion()) {
    // The MSI says "something happened"; PMC_INTR says what. Acknowledge our bit.
    const uint32_t bit = 1u << (t.engine == 0 ? GPU_INTR_COPY0 : GPU_INTR_COPY1);
    done = false;
    while (!done && api_.wait_interrupt(kGpuMsiVector, opt_.copy_timeout)) {
      uint32_t pending = reg_read(GPU_PMC_BASE + PMC_INTR);
      if (pending & bit) reg_write(GPU_PMC_BASE + PMC_INTR, bit);
      done = dma_done(t);
    }
  } else {
    // Poll the fence in host memory (cheap cached loads), as Gdev does.
    done = api_.poll32(fence_host_ + 4 * t.engine, ~COPY_FENCE_ERROR, t.seq, opt_.poll_interval, opt_.copy_timeout);
  }
  if (done && !(api_.read32(fence_host_ + 4 * t.engine) & COPY_FENCE_ERROR)) return;
  uint32_t st = reg_read(base + COPY_STATUS);
  uint64_t ea = reg_read(base + COPY_ERROR_LO) | uint64_t(reg_read(base + COPY_ERROR_HI)) << 32;
  if (st & COPY_STATUS_ERROR)
    throw HostError("copy engine " + std::to_string(t.engine) + " error " + std::to_string(COPY_STATUS_CODE(st)) +
                    " at GPU address " + hex(ea) + " (copy of " + std::to_string(t.size) + " bytes)");
  throw HostError("copy engine " + std::to_string(t.engine) + " did not complete within copy_timeout (status " +
                  hex(st) + ")");
}

void GpuDriver::copy_dma(const GpuBuffer& src, const GpuBuffer& dst, uint64_t size, unsigned engine) {
  for (uint64_t off = 0; off < size;) {
    uint64_t n = std::min<uint64_t>(size - off, 0x80000000ull);  // LENGTH is 32-bit
    GpuBuffer s = src, d = dst;
    s.va += off;
    d.va += off;
    wait_dma(start_dma(engine, s, d, n));
    off += n;
  }
}

void GpuDriver::copy_iorw(Direction d, const GpuBuffer& host, const GpuBuffer& dev, uint64_t size) {
  // The CPU moves the data itself: cached accesses on the host side, uncached 32-bit accesses
  // through the BAR1 aperture on the device side, a page at a time. Above `iorw_word_limit`
  // every uncached access moves one byte (a call per byte: the CPU splits a call into
  // `mmio_width` pieces, never joins calls).
  std::vector<uint8_t> tmp(4096);
  const bool bytewise = opt_.iorw_word_limit != 0 && size > opt_.iorw_word_limit;
  auto uncached = [&](bool write, uint64_t addr, uint8_t* p, size_t n) {
    if (!bytewise) return write ? api_.write(addr, p, n, Access::Uncached) : api_.read(addr, p, n, Access::Uncached);
    for (size_t i = 0; i < n; ++i)
      write ? api_.write(addr + i, p + i, 1, Access::Uncached) : api_.read(addr + i, p + i, 1, Access::Uncached);
  };
  for (uint64_t off = 0; off < size; off += tmp.size()) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(tmp.size(), size - off));
    if (d == Direction::HostToDevice) {
      api_.read(host.phys + off, tmp.data(), n, Access::Cached);
      if (opt_.bar1_write_combining)
        api_.write(bar1_address(dev, off), tmp.data(), n, Access::WriteCombined);
      else
        uncached(true, bar1_address(dev, off), tmp.data(), n);
    } else {
      uncached(false, bar1_address(dev, off), tmp.data(), n);
      api_.write(host.phys + off, tmp.data(), n, Access::Cached);
    }
  }
}

void GpuDriver::copy(CopyMethod m, Direction d, const GpuBuffer& host, const GpuBuffer& dev, uint64_t size) {
  if (!open_) throw HostError("copy before open");
  if (size > host.size || size > dev.size)
    throw HostError("copy of " + std::to_string(size) + " bytes overruns a buffer");
  api_.spend(opt_.api_call);
  // A bounce-buffer memcpy, when configured, costs CPU time in proportion to the size.
  auto bounce = [&](const sc_core::sc_time& per_kib) {
    if (per_kib != sc_core::SC_ZERO_TIME) api_.spend(per_kib * (static_cast<double>(size) / 1024.0));
  };
  if (m == CopyMethod::Iorw) {
    copy_iorw(d, host, dev, size);
  } else if (d == Direction::HostToDevice) {
    bounce(opt_.bounce_htod_per_kib);
    copy_dma(host, dev, size);
  } else {
    copy_dma(dev, host, size);
    bounce(opt_.bounce_dtoh_per_kib);
  }
}

}  // namespace hetvp::sw
