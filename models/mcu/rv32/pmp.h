// hetvp — RV32 physical memory protection (PMP), as the RISC-V privileged spec defines it for a
// machine-mode-only hart: 16 entries, pmpcfg0-3 (0x3A0-0x3A3) and pmpaddr0-15 (0x3B0-0x3BF),
// address matching OFF / TOR / NA4 / NAPOT, granularity 4 bytes (G = 0), the lock bit L.
//
// In machine mode an entry constrains accesses only when it is locked: the lowest-numbered entry that
// matches any byte of an access decides; a locked one must hold the permission (R load, W store,
// X fetch) and cover every byte of the access, an unlocked one lets it through; no match lets it
// through. So while no entry is locked and enabled (active() false) nothing is checked at all, and
// the core's fast paths stay as they are (docs/iss.md "PMP"). Pure C++.
#pragma once

#include <cstdint>

namespace hetvp::mcu::rv32 {

class Pmp {
 public:
  enum Access : uint8_t { kRead = 1, kWrite = 2, kExec = 4 };
  static constexpr unsigned kEntries = 16;
  static bool is_csr(uint32_t csr) { return (csr >= 0x3A0 && csr <= 0x3A3) || (csr >= 0x3B0 && csr <= 0x3BF); }

  void reset();  // every entry OFF and unlocked, addresses 0 (L clears only on reset)
  uint32_t read(uint32_t csr) const;
  void write(uint32_t csr, uint32_t value);  // WARL: locked entries and reserved bits keep their values
  // Some entry is locked and enabled: machine-mode accesses must be checked.
  bool active() const { return active_; }
  // Whether a machine-mode access of `size` bytes at `addr` is allowed.
  bool allows(uint32_t addr, uint32_t size, Access a) const;

 private:
  void update();  // recomputes ranges and active_ after a write
  uint8_t cfg_[kEntries] = {};
  uint32_t addr_[kEntries] = {};
  uint64_t lo_[kEntries] = {}, hi_[kEntries] = {};  // byte range [lo, hi) of each enabled entry
  bool active_ = false;
};

}  // namespace hetvp::mcu::rv32
