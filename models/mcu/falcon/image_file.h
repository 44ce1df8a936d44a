// hetvp — a Falcon firmware image read from a file, for the Falcon context controllers: uploaded by
// the boot workload (workload.args.mcu.falcon_hub_image / falcon_gpc_image) or resident in the
// controller's memories at power-on (gpu0.microcontrollers.hub.image / gpc.image); docs/falcon.md
// "Image files". Shared by the model and the driver, so it lives with the model.
//
// Format: the one nouveau's gr/fuc/*.fuc3.h and *.fuc5.h headers use (and envyas' C-array output):
// C text holding exactly one array whose name ends in "_data" and one whose name ends in "_code",
//     static uint32_t <name>_data[] = { 0x..., ... };
//     static uint32_t <name>_code[] = { 0x..., ... };
// each element a 32-bit number (hex 0x..., or decimal), uploaded as little-endian words at data and
// code address 0 in order; /* */ and // comments and whitespace anywhere. Anything else between the
// braces, a missing or repeated array, an empty code array or a number above 0xffffffff is refused,
// naming the file and the line.
//
// Raw binaries (read_falcon_image with a spec "code=CODE.bin[,data=DATA.bin]"): each file is the
// segment's bytes exactly as they go into the Falcon's code / data memory from address 0 (little-endian
// 32-bit words, as nouveau's uploader writes them), no header; its size a non-zero multiple of 4 (code)
// or a multiple of 4 (data; no data= or an empty file: no data words): a hand-assembled program, or
// an assembler's words written out as bytes. Errors name the file: missing or not a regular file, a
// size that is not a multiple of 4, an empty code file, a key other than code=/data=, a key twice, an ELF
// file or a text file (obviously not Falcon words: they would run as code). The sizes are checked
// against the controller's UC_CAPS where the image is loaded (boot_regs.cpp, the driver's upload).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/mcu/falcon/nouveau_fw.h"

namespace hetvp::mcu::falcon {

class FalconImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FalconImageFile {
  std::string path;
  std::vector<uint32_t> code, data;
  // A view for the uploader (valid while this object lives).
  NouveauImage image() const { return {code.data(), code.size(), data.data(), data.size()}; }
};

// Parses the text; `path` is for messages. Throws FalconImageError "PATH:LINE: ...".
FalconImageFile parse_falcon_image(const std::string& text, const std::string& path);
// Reads PATH through platform/file_input.h (regular file, at most input_kind::kFalconImage) and parses it;
// a spec starting with "code=" or "data=" is a raw pair (read_raw_falcon_image).
FalconImageFile read_falcon_image(const std::string& path);
// True when `spec` names raw binaries ("code=..." / "data=...") rather than one .fuc3.h text file.
bool is_raw_falcon_image(const std::string& spec);
// "code=FILE[,data=FILE]" (either order): the raw segments. Throws FalconImageError "FILE: ...".
FalconImageFile read_raw_falcon_image(const std::string& spec);
// One raw segment's words from its bytes; `what` ("code"/"data") and `path` are for messages.
std::vector<uint32_t> raw_falcon_words(const std::vector<uint8_t>& bytes, const std::string& path, const char* what);

}  // namespace hetvp::mcu::falcon
