// Native pointers to simulated memory, for host code that keeps data structures in memory it
// mapped and reads and writes them through plain C pointers (the Pi's mapmem: hetvp::pi,
// sw/qpu/mailbox.h). A host CPU model that reaches memory through TLM DMI offers it beside
// HostApi; a program finds it with direct_memory(api) (nullptr: this CPU hands out no pointers).
//
// The pointer is what TLM DMI grants the CPU's memory port (get_direct_mem_ptr), so accesses
// through it are untimed and unseen by the platform, like the CPU's own DMI accesses without their
// cost: no transaction, no trace, no statistic. Peripherals stay behind the access API: a range
// that is not DMI memory (registers, no target) is refused with an error saying so. When the
// memory revokes the grant (invalidate_direct_mem_ptr over the range) the mapping is stale: the
// CPU warns at once, and direct_stale() says why, so code that checks (hetvp::pi at each mailbox
// call and at unmapmem) stops instead of writing around the platform.
#pragma once

#include <cstdint>
#include <string>

#include "models/host/host_api.h"

namespace hetvp {

class DirectMemory {
 public:
  // A pointer to [addr, addr + len), readable and writable. Throws HostError saying why not: not
  // memory (a peripheral's registers, nothing mapped), DMI off or refused, or a range reaching past
  // the one region the memory grants (its storage is not contiguous beyond it).
  virtual uint8_t* map_direct(uint64_t addr, uint64_t len) = 0;
  // Forgets the mapping `p` came from (nothing when there is none).
  virtual void unmap_direct(const volatile void* p) = 0;
  // "" while the mapping `p` came from is valid; else why not (the revocation, when, what range).
  virtual std::string direct_stale(const volatile void* p) const = 0;

 protected:
  ~DirectMemory() = default;
};

inline DirectMemory* direct_memory(HostApi& api) { return dynamic_cast<DirectMemory*>(&api); }

}  // namespace hetvp
