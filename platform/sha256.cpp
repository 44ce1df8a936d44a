#include "platform/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace hetvp {

// OpenSSL's EVP digest (Debian libssl-dev): no hand-written cryptography here.
std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr))
    throw std::runtime_error("SHA-256 of the configuration failed (OpenSSL EVP_Digest)");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

}  // namespace hetvp
