// hetvp — nouveau's GF100 graphics context-controller firmware (HUB and GPC images), as found at
// configure time in Debian's linux-source-6.1 (cmake/NouveauFirmware.cmake). Never in the repository.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetvp::mcu::falcon {

struct NouveauImage {
  const uint32_t* code = nullptr;  // little-endian words, as nouveau uploads them
  size_t code_words = 0;
  const uint32_t* data = nullptr;
  size_t data_words = 0;
};

struct NouveauFirmware {
  bool available = false;
  std::string reason;  // why not available ("" when available)
  NouveauImage hub;    // gf100_grhub_code / gf100_grhub_data
  NouveauImage gpc;    // gf100_grgpc_code / gf100_grgpc_data
};

// The images built into this hetvp (see available / reason).
const NouveauFirmware& nouveau_gf100();

}  // namespace hetvp::mcu::falcon
