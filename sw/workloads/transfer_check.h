// The `transfer` workload's check of one read-back chunk (sw/workloads/transfer.cpp): a destination
// is read back as [guard | copied bytes | guard] in chunks; the guards must still hold the marker,
// the copied bytes the source's pattern. Kept apart so that a test can show it finds every kind of
// wrong byte (tests/integration/test_transfer.cpp).
#pragma once

#include <cstdint>
#include <cstring>

namespace hetvp::sw {

struct WrongByte {
  uint64_t at;   // chunk-relative index of the first wrong byte; n when the chunk is right
  uint8_t want;  // what it should have been
};

// got: the chunk read back, n bytes at offset `off` of the whole [guard | size | guard] span.
// marker: at least n bytes of the marker. pattern: the source's `size` bytes.
inline WrongByte first_wrong_byte(const uint8_t* got, uint64_t n, uint64_t off, uint64_t guard, uint64_t size,
                                  const uint8_t* marker, const uint8_t* pattern) {
  // The chunk's part inside the copy: [in_lo, in_hi), chunk-relative (empty: in_lo = in_hi = n).
  const uint64_t lo = off > guard ? off : guard, hi = off + n < guard + size ? off + n : guard + size;
  const bool data = lo < hi;
  const uint64_t in_lo = data ? lo - off : n, in_hi = data ? hi - off : n;
  // Three comparisons in the common case (everything right)...
  if (std::memcmp(got, marker, in_lo) == 0 &&
      std::memcmp(got + in_lo, pattern + (off + in_lo - guard), in_hi - in_lo) == 0 &&
      std::memcmp(got + in_hi, marker, n - in_hi) == 0)
    return {n, 0};
  // ...and a walk to the first wrong byte otherwise.
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t want = i >= in_lo && i < in_hi ? pattern[off + i - guard] : marker[0];
    if (got[i] != want) return {i, want};
  }
  return {n, 0};
}

}  // namespace hetvp::sw
