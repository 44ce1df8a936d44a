// hetvp — nouveau's graphics context-controller firmware (HUB and GPC images of every chip nouveau
// ships them for: gf100, gf117, gk104, gk110 as fuc3, gk208, gm107 as fuc5), as found at configure time
// in Debian's linux-source-6.1 (cmake/NouveauFirmware.cmake). Never in the repository.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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
  std::string chip;    // nouveau's name: "gf100", "gk104", ...
  unsigned fuc = 3;    // Falcon ISA version of the images (3: .fuc3, 5: .fuc5)
  NouveauImage hub;    // <chip>_grhub_code / <chip>_grhub_data
  NouveauImage gpc;    // <chip>_grgpc_code / <chip>_grgpc_data
};

// The images of `chip` built into this hetvp (see available / reason); a chip nouveau has no images
// for is not available, with that reason.
const NouveauFirmware& nouveau_firmware(const std::string& chip);
inline const NouveauFirmware& nouveau_gf100() { return nouveau_firmware("gf100"); }
// The chips with images, in nouveau's order.
const std::vector<std::string>& nouveau_firmware_chips();

}  // namespace hetvp::mcu::falcon
