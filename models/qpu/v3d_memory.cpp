// The V3D's memory side (v3d.h): GPU bus addresses decoded to SDRAM through the `mem` port, with
// DMI where the memory grants it.
//
// Bus addresses (Raspberry Pi / BCM2835 memory map): the top two bits of a VideoCore bus address
// select an alias of the same SDRAM: 0x0 L1 and L2 cached, 0x4 L2 cache coherent (non-allocating),
// 0x8 L2 cached only, 0xC direct (uncached). The V3D reaches the same bytes through each; the
// Reference Guide gives no cost difference between them, so none is modelled (docs/qpu.md).
#include <cstring>

#include "models/qpu/v3d.h"
#include "platform/access_info.h"
#include "platform/format.h"
#include "platform/payload.h"

namespace hetvp::qpu {

int V3d::dmi_region(uint32_t addr, unsigned len) {
  for (size_t i = 0; i < dmi_.size(); ++i)
    if (addr >= dmi_[i].get_start_address() && uint64_t(addr) + len - 1 <= dmi_[i].get_end_address())
      return static_cast<int>(i);
  tlm::tlm_generic_payload gp;
  AccessInfo info;
  info.initiator = name();
  info.side = Side::Gpu;
  gp.set_extension(&info);
  set_access(gp, tlm::TLM_READ_COMMAND, addr, nullptr, len);
  tlm::tlm_dmi d;
  const bool ok = mem->get_direct_mem_ptr(gp, d);
  gp.clear_extension(&info);
  if (!ok || !d.is_read_allowed() || !d.is_write_allowed() || addr < d.get_start_address() ||
      uint64_t(addr) + len - 1 > d.get_end_address())
    return -1;
  dmi_.push_back(d);
  return static_cast<int>(dmi_.size() - 1);
}

uint8_t* V3d::dmi_ptr(uint32_t addr, unsigned len) {
  const int i = dmi_region(addr, len);
  return i < 0 ? nullptr : dmi_[static_cast<size_t>(i)].get_dmi_ptr() + (addr - dmi_[static_cast<size_t>(i)].get_start_address());
}

uint32_t V3d::decode_bus(uint32_t bus, unsigned len, const char* what, const char* verb) const {
  const uint32_t phys = bus & kBusAliasMask;
  if (uint64_t(phys) + len > sdram_size_) {
    if (bus == phys)
      throw QpuFault(format("%s %s 0x%08x (%u bytes) outside SDRAM (0x0..0x%llx)", what, verb, bus, len,
                            static_cast<unsigned long long>(sdram_size_ - 1)));
    throw QpuFault(
        format("%s %s bus address 0x%08x (%u bytes; SDRAM 0x%08x through the 0x%x alias) outside SDRAM "
               "(0x0..0x%llx)",
               what, verb, bus, len, phys, (bus >> 28) & 0xcu, static_cast<unsigned long long>(sdram_size_ - 1)));
  }
  return phys;
}

void V3d::mem_read(uint32_t bus, void* dst, unsigned len, const char* what) {
  mem_access(tlm::TLM_READ_COMMAND, bus, dst, len, what);
}

void V3d::mem_write(uint32_t bus, const void* src, unsigned len, const char* what) {
  mem_access(tlm::TLM_WRITE_COMMAND, bus, const_cast<void*>(src), len, what);
}

// One access of the V3D's own (TMU, VPM DMA, fetch, uniforms) to SDRAM at bus address `bus`:
// through DMI where the memory grants it, else a transaction on `mem`.
void V3d::mem_access(tlm::tlm_command cmd, uint32_t bus, void* data, unsigned len, const char* what) {
  const bool read = cmd == tlm::TLM_READ_COMMAND;
  const uint32_t addr = decode_bus(bus, len, what, read ? "reads" : "writes");
  if (uint8_t* p = dmi_ptr(addr, len)) {
    if (read)
      std::memcpy(data, p, len);
    else
      std::memcpy(p, data, len);
    return;
  }
  tlm::tlm_generic_payload gp;
  AccessInfo info;
  info.initiator = name();
  info.side = Side::Gpu;
  gp.set_extension(&info);
  set_access(gp, cmd, addr, data, len);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  mem->b_transport(gp, d);
  gp.clear_extension(&info);
  if (!gp.is_response_ok())
    throw QpuFault(format("%s %s of 0x%08x failed: %s", what, read ? "read" : "write", addr,
                          gp.get_response_string().c_str()));
}

}  // namespace hetvp::qpu
