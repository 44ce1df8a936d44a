// A Type 0 (endpoint) configuration space: IDs, command register, BARs with sizing by writing
// all-ones, and an MSI capability. Owned by an endpoint model; the endpoint decodes memory
// requests against the BARs the driver programmed.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "firmware/include/hetvp/pcie_config.h"

namespace hetvp::pcie {

struct BarSpec {
  uint64_t size = 0;  // power of two, >= 16; 0 = BAR not implemented
  bool is64 = false;  // takes this BAR slot and the next
  bool prefetchable = false;
};

class Type0ConfigSpace {
 public:
  Type0ConfigSpace(uint16_t vendor, uint16_t device, uint32_t class_code, std::vector<BarSpec> bars);

  uint32_t read32(unsigned reg) const;
  void write32(unsigned reg, uint32_t value, uint32_t byte_mask = 0xffffffff);

  bool memory_enabled() const { return command_ & PCICFG_COMMAND_MEMORY; }
  bool bus_master() const { return command_ & PCICFG_COMMAND_MASTER; }
  // Which BAR slot decodes `addr`, and the offset inside it; -1 if none or memory decoding is off.
  // Inline over the windows the last command/BAR write left (every BAR1 read decodes, #31).
  int decode(uint64_t addr, uint64_t& offset) const {
    for (unsigned i = 0; i < windows_; ++i) {
      if (addr - window_[i].base < window_[i].size) {
        offset = addr - window_[i].base;
        return static_cast<int>(window_[i].slot);
      }
    }
    return -1;
  }
  uint64_t bar_address(unsigned bar) const;

  bool msi_enabled() const { return msi_control_ & (PCICFG_MSI_ENABLE >> 16); }
  uint64_t msi_address() const { return msi_address_; }
  uint16_t msi_data() const { return msi_data_; }

  static constexpr unsigned kMsiCap = PCICFG_MSI_CAP;

 private:
  uint16_t vendor_, device_;
  uint32_t class_code_;
  std::vector<BarSpec> bars_;           // per BAR slot index (64-bit BARs take two slots)
  std::array<uint32_t, 6> bar_regs_{};  // raw register values
  uint16_t command_ = 0;
  uint16_t msi_control_ = PCICFG_MSI_64BIT >> 16;
  uint64_t msi_address_ = 0;
  uint16_t msi_data_ = 0;
  // The decoding windows: implemented, assigned BARs in slot order, none while memory decoding is
  // off. Rebuilt by write32 (update_windows) whenever the command register or a BAR changes.
  struct Window {
    uint64_t base, size;
    unsigned slot;
  };
  std::array<Window, 6> window_{};
  unsigned windows_ = 0;
  void update_windows();
  void write_register(unsigned reg, uint32_t value, uint32_t mask);
};

}  // namespace hetvp::pcie
