// The host CPU's DirectMemory (models/host/direct_memory.h): pointers granted by TLM DMI through
// the `mem` port, as its cached accesses use them, and marked stale when the grant is revoked.
#include <algorithm>
#include <cinttypes>

#include "models/host/host_cpu.h"
#include "platform/format.h"
#include "platform/payload.h"

namespace hetvp {

uint8_t* HostCpu::map_direct(uint64_t addr, uint64_t len) {
  const std::string what = format("%s: a pointer to 0x%" PRIx64 " (%" PRIu64 " bytes)", name_.c_str(), addr, len);
  if (len == 0 || addr + (len - 1) < addr) throw HostError(what + ": an empty or wrapping range");
  if (!use_dmi_)
    throw HostError(what + ": DMI is off for this CPU (" + name_ +
                    ".dmi: false), so it hands out no pointers; use the access API");
  for (const DirectMap& m : direct_maps_)
    if (m.addr == addr && m.len == len && m.stale.empty()) return m.ptr;
  // Asked as a write: the pointer is for reading and writing.
  uint8_t probe[8] = {};
  tlm::tlm_generic_payload gp;
  set_access(gp, tlm::TLM_WRITE_COMMAND, addr, probe, unsigned(std::min<uint64_t>(len, sizeof probe)));
  AccessInfo info = *info_ext_;
  gp.set_extension(&info);
  tlm::tlm_dmi d;
  const bool granted = mem->get_direct_mem_ptr(gp, d);
  gp.clear_extension(&info);
  if (!granted || !d.get_dmi_ptr())
    throw HostError(what + ": not memory the CPU reaches by DMI (a peripheral's registers, or nothing mapped there): " +
                    "peripherals stay behind the access API (timed loads and stores)");
  if (!d.is_read_write_allowed())
    throw HostError(what + ": the memory grants DMI for " + (d.is_read_allowed() ? "reading" : "writing") +
                    " only");
  if (addr < d.get_start_address() || addr + (len - 1) > d.get_end_address())
    throw HostError(what + format(": the range reaches past the memory's DMI region [0x%" PRIx64 ", 0x%" PRIx64
                                  "] (its storage is contiguous only within one region): map up to 0x%" PRIx64
                                  " and the rest separately",
                                  uint64_t(d.get_start_address()), uint64_t(d.get_end_address()),
                                  uint64_t(d.get_end_address()) + 1));
  uint8_t* p = d.get_dmi_ptr() + (addr - d.get_start_address());
  direct_maps_.push_back({addr, len, p, ""});
  return p;
}

void HostCpu::unmap_direct(const volatile void* p) {
  const auto* b = static_cast<const volatile uint8_t*>(p);
  auto it = std::find_if(direct_maps_.begin(), direct_maps_.end(),
                         [&](const DirectMap& m) { return b >= m.ptr && b < m.ptr + m.len; });
  if (it != direct_maps_.end()) direct_maps_.erase(it);
}

std::string HostCpu::direct_stale(const volatile void* p) const {
  const auto* b = static_cast<const volatile uint8_t*>(p);
  for (const DirectMap& m : direct_maps_)
    if (b >= m.ptr && b < m.ptr + m.len) return m.stale;
  return "it is not a pointer " + name_ + " handed out (or it was unmapped)";
}

void HostCpu::revoke_direct(uint64_t start, uint64_t end) {
  for (DirectMap& m : direct_maps_) {
    if (!m.stale.empty() || m.addr > end || start > m.addr + (m.len - 1)) continue;
    m.stale = format("the memory revoked its DMI grant for [0x%" PRIx64 ", 0x%" PRIx64 "] at %s", start, end,
                     sc_core::sc_time_stamp().to_string().c_str());
    SC_REPORT_WARNING("hetvp/host_cpu",
                      format("%s: %s while the host program holds a pointer to 0x%" PRIx64 " (%" PRIu64
                             " bytes) from it: accesses through that pointer would bypass the platform; map it again",
                             name_.c_str(), m.stale.c_str(), m.addr, m.len)
                          .c_str());
  }
}

}  // namespace hetvp
