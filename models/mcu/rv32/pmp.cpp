// hetvp — RV32 physical memory protection (see pmp.h for what is modelled).
#include "models/mcu/rv32/pmp.h"

namespace hetvp::mcu::rv32 {

namespace {
constexpr uint8_t kR = 1, kW = 2, kL = 0x80;
constexpr unsigned kOff = 0, kTor = 1, kNa4 = 2, kNapot = 3;
unsigned mode(uint8_t cfg) { return (cfg >> 3) & 3u; }
}  // namespace

void Pmp::reset() {
  for (unsigned i = 0; i < kEntries; ++i) cfg_[i] = 0, addr_[i] = 0;
  update();
}

uint32_t Pmp::read(uint32_t csr) const {
  if (csr >= 0x3B0) return addr_[csr - 0x3B0];  // G = 0: every bit reads as written
  const unsigned first = (csr - 0x3A0) * 4;
  uint32_t v = 0;
  for (unsigned k = 0; k < 4; ++k) v |= uint32_t(cfg_[first + k]) << (8 * k);
  return v;
}

void Pmp::write(uint32_t csr, uint32_t value) {
  if (csr >= 0x3B0) {
    const unsigned i = csr - 0x3B0;
    // A locked entry's address is fixed, and so is the one below a locked TOR entry (its lower bound).
    if (cfg_[i] & kL) return;
    if (i + 1 < kEntries && (cfg_[i + 1] & kL) && mode(cfg_[i + 1]) == kTor) return;
    addr_[i] = value;
  } else {
    const unsigned first = (csr - 0x3A0) * 4;
    for (unsigned k = 0; k < 4; ++k) {
      uint8_t& c = cfg_[first + k];
      if (c & kL) continue;
      uint8_t n = static_cast<uint8_t>(value >> (8 * k)) & 0x9F;  // bits 6:5 are reserved (read 0)
      if (!(n & kR)) n &= static_cast<uint8_t>(~kW);             // R=0 W=1 is reserved: W reads 0
      c = n;
    }
  }
  update();
}

void Pmp::update() {
  active_ = false;
  for (unsigned i = 0; i < kEntries; ++i) {
    lo_[i] = hi_[i] = 0;
    const uint64_t a = addr_[i];
    switch (mode(cfg_[i])) {
      case kOff:
        continue;
      case kTor:
        lo_[i] = i ? uint64_t(addr_[i - 1]) << 2 : 0;
        hi_[i] = a << 2;
        if (lo_[i] >= hi_[i]) lo_[i] = hi_[i] = 0;  // matches nothing
        break;
      case kNa4:
        lo_[i] = a << 2;
        hi_[i] = lo_[i] + 4;
        break;
      case kNapot: {
        unsigned ones = 0;  // trailing ones: the region is 2^(ones + 3) bytes
        while (ones < 32 && ((a >> ones) & 1)) ++ones;
        const uint64_t size = uint64_t(1) << (ones + 3);
        lo_[i] = (a << 2) & ~(size - 1);
        hi_[i] = lo_[i] + size;
        break;
      }
    }
    if (cfg_[i] & kL) active_ = true;
  }
}

bool Pmp::allows(uint32_t addr, uint32_t size, Access acc) const {
  const uint64_t a = addr, e = a + size;
  for (unsigned i = 0; i < kEntries; ++i) {
    if (mode(cfg_[i]) == kOff || lo_[i] == hi_[i]) continue;
    if (e <= lo_[i] || a >= hi_[i]) continue;            // no byte of the access in this entry
    if (a < lo_[i] || e > hi_[i]) return false;           // matches part of the access only
    if (!(cfg_[i] & kL)) return true;                     // machine mode: unlocked entries do not bind
    return (cfg_[i] & acc) != 0;
  }
  return true;  // machine mode, no entry matches
}

}  // namespace hetvp::mcu::rv32
