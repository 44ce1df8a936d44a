// A generic-payload extension every hetvp initiator attaches to its transactions: who issued
// it (for error messages and per-initiator stats) and how it must be treated on the way
// (uncached accesses bypass caches; `side` tells coherence which processor wrote a line).
#pragma once

#include <tlm>

namespace hetvp {

enum class Side : uint8_t { Host = 0, Gpu = 1, Other = 2 };

struct AccessInfo : tlm::tlm_extension<AccessInfo> {
  const char* initiator = "?";  // instance name of the issuing component (static storage)
  bool uncached = false;        // MMIO / uncached access: caches pass it through
  Side side = Side::Other;
  // The issuer can be suspended inside b_transport (a target may wait until the access's arrival
  // time). False for a microcontroller core calling from inside its burst.
  bool may_wait = true;
  // Reads only: one byte per byte of the payload, nonzero where the issuer uses the data (nullptr:
  // all of it). A coalesced GPU load fetches whole segments, including bytes no lane asked for.
  const uint8_t* consumed = nullptr;
  // A GPU load that L1 does not serve (Kepler's global loads; PTX ld.global.cg): a cache built as a
  // GPU L1 (cache key `gpu_l1`) passes it through untouched, the L2 below serves it.
  bool l1_bypass = false;

  tlm::tlm_extension_base* clone() const override { return new AccessInfo(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const AccessInfo&>(e); }
};

// Name of the initiator of `gp`, or "unknown initiator".
inline const char* initiator_of(const tlm::tlm_generic_payload& gp) {
  AccessInfo* a = gp.get_extension<AccessInfo>();
  return a ? a->initiator : "unknown initiator";
}

}  // namespace hetvp
