#include "models/pcie/config_space.h"

#include <stdexcept>

#include "firmware/include/hetvp/pcie_config.h"
#include "models/pcie/tlp.h"

namespace hetvp::pcie {

Type0ConfigSpace::Type0ConfigSpace(uint16_t vendor, uint16_t device, uint32_t class_code, std::vector<BarSpec> bars)
    : vendor_(vendor), device_(device), class_code_(class_code) {
  // Lay the BARs out in slots: a 64-bit BAR takes two.
  bars_.resize(6);
  unsigned slot = 0;
  for (auto& b : bars) {
    if (slot >= 6 || (b.is64 && slot >= 5)) throw std::logic_error("too many BARs");
    if (b.size && (b.size & (b.size - 1))) throw std::logic_error("BAR size must be a power of two");
    bars_[slot] = b;
    slot += b.is64 ? 2 : 1;
  }
  for (unsigned i = 0; i < 6; ++i)
    if (bars_[i].size)
      bar_regs_[i] = (bars_[i].is64 ? PCICFG_BAR_64BIT : 0u) | (bars_[i].prefetchable ? PCICFG_BAR_PREFETCH : 0u);
}

uint64_t Type0ConfigSpace::bar_address(unsigned slot) const {
  uint64_t a = bar_regs_[slot] & ~uint64_t(PCICFG_BAR_FLAGS);
  if (bars_[slot].is64) a |= uint64_t(bar_regs_[slot + 1]) << 32;
  return a;
}

uint32_t Type0ConfigSpace::read32(unsigned reg) const {
  switch (reg & ~3u) {
    case PCICFG_ID:
      return vendor_ | (uint32_t(device_) << 16);
    case PCICFG_COMMAND:
      return command_ | PCICFG_STATUS_CAP_LIST;
    case PCICFG_CLASS_REV:
      return class_code_ << PCICFG_CLASS_REV_CLASS_SHIFT | PCICFG_REVISION;
    case PCICFG_HEADER:
      return 0;  // header type 0, single function
    case PCICFG_CAP_PTR:
      return PCICFG_MSI_CAP;
    case PCICFG_MSI_CAP:
      return PCICFG_MSI_CAP_ID | (uint32_t(msi_control_) << 16);  // last in the list
    case PCICFG_MSI_ADDR_LO:
      return static_cast<uint32_t>(msi_address_);
    case PCICFG_MSI_ADDR_HI:
      return static_cast<uint32_t>(msi_address_ >> 32);
    case PCICFG_MSI_DATA:
      return msi_data_;
    default:
      break;
  }
  unsigned r = reg & ~3u;
  if (r >= PCICFG_BAR && r < PCICFG_BAR + 24) return bar_regs_[(r - PCICFG_BAR) / 4];
  return 0;
}

void Type0ConfigSpace::write32(unsigned reg, uint32_t value, uint32_t mask) {
  write_register(reg, value, mask);
  update_windows();
}

void Type0ConfigSpace::write_register(unsigned reg, uint32_t value, uint32_t mask) {
  unsigned r = reg & ~3u;
  auto merge = [&](uint32_t old) { return (old & ~mask) | (value & mask); };
  if (r == PCICFG_COMMAND) {
    command_ = static_cast<uint16_t>(merge(command_) & PCICFG_COMMAND_WRITABLE);
    return;
  }
  if (r >= PCICFG_BAR && r < PCICFG_BAR + 24) {
    unsigned slot = (r - PCICFG_BAR) / 4;
    uint32_t v = merge(bar_regs_[slot]);
    // The upper half of a 64-bit BAR: size mask applies to bits 63:32.
    if (slot > 0 && bars_[slot - 1].is64 && !bars_[slot].size) {
      uint64_t size = bars_[slot - 1].size;
      uint32_t hi_mask = static_cast<uint32_t>(~(size - 1) >> 32);
      bar_regs_[slot] = v & hi_mask;
      return;
    }
    const BarSpec& b = bars_[slot];
    if (!b.size) return;  // unimplemented BAR reads as zero
    uint32_t flags = bar_regs_[slot] & PCICFG_BAR_FLAGS;
    bar_regs_[slot] = (v & static_cast<uint32_t>(~(b.size - 1)) & ~PCICFG_BAR_FLAGS) | flags;
    return;
  }
  if (r == PCICFG_MSI_CAP) {
    msi_control_ = static_cast<uint16_t>((merge(uint32_t(msi_control_) << 16) >> 16) & PCICFG_MSI_CONTROL_WRITABLE) |
                   (PCICFG_MSI_64BIT >> 16);
    return;
  }
  if (r == PCICFG_MSI_ADDR_LO) {
    msi_address_ =
        (msi_address_ & ~0xffffffffull) | (merge(static_cast<uint32_t>(msi_address_)) & ~PCICFG_MSI_ADDR_ALIGN);
    return;
  }
  if (r == PCICFG_MSI_ADDR_HI) {
    msi_address_ = (msi_address_ & 0xffffffffull) | (uint64_t(merge(static_cast<uint32_t>(msi_address_ >> 32))) << 32);
    return;
  }
  if (r == PCICFG_MSI_DATA) {
    msi_data_ = static_cast<uint16_t>(merge(msi_data_));
    return;
  }
  // everything else is read-only
}

void Type0ConfigSpace::update_windows() {
  windows_ = 0;
  if (!memory_enabled()) return;
  for (unsigned i = 0; i < 6; ++i) {
    if (!bars_[i].size) continue;
    uint64_t base = bar_address(i);
    if (base == 0) continue;  // unassigned
    window_[windows_++] = Window{base, bars_[i].size, i};
  }
}

}  // namespace hetvp::pcie
