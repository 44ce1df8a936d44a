// PCIe transaction-layer facts shared by the root complex, the link and endpoints.
#pragma once

#include <cstdint>

#include <tlm>

#include "firmware/include/hetvp/pcie_config.h"

namespace hetvp::pcie {

// Marks a generic payload as a configuration request (Type 0 once it crosses a link); memory
// requests carry no extension. For configuration requests the payload address is the ECAM
// offset: bus << 20 | device << 15 | function << 12 | register.
struct ConfigRequest : tlm::tlm_extension<ConfigRequest> {
  tlm::tlm_extension_base* clone() const override { return new ConfigRequest(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

// A question an endpoint asks the link it is connected to, by debug transport through its
// upstream socket (at end of elaboration): the link fills in its TLP size limits and answers
// without forwarding. The limits are the link's parameters (one place in YAML); on real hardware
// the root complex/driver writes the same values into every device's Device Control register.
// Anything else on the path leaves the extension untouched (max_payload stays 0).
struct LinkQuery : tlm::tlm_extension<LinkQuery> {
  unsigned max_payload = 0;       // bytes
  unsigned max_read_request = 0;  // bytes
  tlm::tlm_extension_base* clone() const override { return new LinkQuery(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const LinkQuery&>(e); }
};

inline unsigned ecam_bus(uint64_t off) { return static_cast<unsigned>((off >> 20) & 0xff); }
inline unsigned ecam_device(uint64_t off) { return static_cast<unsigned>((off >> 15) & 0x1f); }
inline unsigned ecam_function(uint64_t off) { return static_cast<unsigned>((off >> 12) & 0x7); }
inline unsigned ecam_register(uint64_t off) { return static_cast<unsigned>(off & 0xfff); }
inline uint64_t ecam_offset(unsigned bus, unsigned dev, unsigned fn, unsigned reg) {
  return (uint64_t(bus) << 20) | (uint64_t(dev) << 15) | (uint64_t(fn) << 12) | reg;
}

// Configuration-space registers of a Type 1 header (the root complex's ports): the Type 0
// header the GPU implements is firmware/include/hetvp/pcie_config.h (PCICFG_*), whose first
// registers both header types share.
enum : unsigned {
  kCfgVendorDevice = PCICFG_ID,
  kCfgCommandStatus = PCICFG_COMMAND,
  kCfgClassRev = PCICFG_CLASS_REV,
  kCfgHeaderType = PCICFG_HEADER,  // byte 2 of this dword
  kCfgBar0 = PCICFG_BAR,
  kCfgBusNumbers = 0x18,  // type 1: primary, secondary, subordinate
  kCfgMemBaseLimit = 0x20,
  kCfgPrefBaseLimit = 0x24,
  kCfgPrefBaseUpper = 0x28,
  kCfgPrefLimitUpper = 0x2c,
  kCfgCapPointer = PCICFG_CAP_PTR,
};
enum : uint32_t { kCmdMemoryEnable = PCICFG_COMMAND_MEMORY, kCmdBusMaster = PCICFG_COMMAND_MASTER };

}  // namespace hetvp::pcie
