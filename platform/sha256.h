// SHA-256 of a byte string (libmd), as 64 lowercase hex digits: the stats' run record names
// the configuration file by its digest.
#pragma once

#include <string>

namespace hetvp {

std::string sha256_hex(const std::string& bytes);

}  // namespace hetvp
