#include "platform/sha256.h"

#include <sha2.h>

namespace hetvp {

// libmd's SHA-256 (Debian libmd-dev, BSD's message digest functions): no hand-written
// cryptography here. libmd rather than OpenSSL's libcrypto (#31): libcrypto is a 4.5 MiB library
// with ~3,400 symbol relocations that every hetvp process paid at start-up (0.5 ms of a 12 ms
// nouveau boot) for one digest in the run record; libmd is 47 KiB.
std::string sha256_hex(const std::string& bytes) {
  char hex[SHA256_DIGEST_STRING_LENGTH];  // 64 lower-case hex digits and the terminating NUL
  SHA256Data(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), hex);
  return std::string(hex, SHA256_DIGEST_STRING_LENGTH - 1);
}

}  // namespace hetvp
