// hetvp — a Falcon firmware image read from a file, for the Falcon context controllers' boot
// (workload keys mcu.falcon_hub_image / mcu.falcon_gpc_image, docs/falcon.md "Image files").
//
// Format: the one nouveau's gr/fuc/*.fuc3.h and *.fuc5.h headers use (and envyas' C-array output):
// C text holding exactly one array whose name ends in "_data" and one whose name ends in "_code",
//     static uint32_t <name>_data[] = { 0x..., ... };
//     static uint32_t <name>_code[] = { 0x..., ... };
// each element a 32-bit number (hex 0x..., or decimal), uploaded as little-endian words at data and
// code address 0 in order; /* */ and // comments and whitespace anywhere. Anything else between the
// braces, a missing or repeated array, an empty code array or a number above 0xffffffff is refused,
// naming the file and the line.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/mcu/falcon/nouveau_fw.h"

namespace hetvp::sw {

class FalconImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FalconImageFile {
  std::string path;
  std::vector<uint32_t> code, data;
  // A view for the uploader (valid while this object lives).
  mcu::falcon::NouveauImage image() const { return {code.data(), code.size(), data.data(), data.size()}; }
};

// Parses the text; `path` is for messages. Throws FalconImageError "PATH:LINE: ...".
FalconImageFile parse_falcon_image(const std::string& text, const std::string& path);
// Reads PATH through platform/file_input.h (regular file, at most input_kind::kFalconImage) and parses it.
FalconImageFile read_falcon_image(const std::string& path);

}  // namespace hetvp::sw
