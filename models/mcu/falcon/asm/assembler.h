// hetvp — the Falcon assembler behind `hetvp falcon-as` (docs/falcon.md "Assembler"): envyas' syntax
// (sections, labels, .b8/.b16/.b32, .equ, .align, .skip, .size, #symbol references, expressions,
// several instructions on one line as nouveau's multi-line macros leave them), every form of
// isa_forms.h, after the system C preprocessor has run on the source (preprocess()). Errors are
// AsmError, "FILE:LINE: message" with the location from the preprocessor's line markers.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hetvp::mcu::falcon::as {

class AsmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  uint8_t version = 0;                // isa::V0 ... isa::V5 (isa_forms.h)
  std::optional<uint32_t> code_size;  // bytes a section whose name ends in "_code" may hold
  std::optional<uint32_t> data_size;  // the same for "_data"
  // Where each limit comes from, for the overflow message: "--code-size", "gf100 HUB code memory, --chip gf100".
  std::string code_size_from = "--code-size", data_size_from = "--data-size";
};

struct Section {
  std::string name;
  uint32_t base = 0;                                     // `.section #name BASE`
  std::vector<uint8_t> bytes;                            // from base
  std::vector<std::pair<uint32_t, std::string>> labels;  // (address, name), in source order
};

struct Program {
  std::vector<Section> sections;  // in order of first appearance; an empty "default" one is left out
};

// Assembles preprocessed text (cpp's output with its `# LINE "FILE"` markers; text without markers is
// located as `name`:LINE).
Program assemble(const std::string& text, const std::string& name, const Options& options);

// Runs the system C preprocessor (`cpp -nostdinc`, Debian package cpp) on `source` with -I DIR / -D
// NAME[=VALUE]; returns its output. Throws AsmError with cpp's status when it fails (its messages are
// on stderr already).
std::string preprocess(const std::string& source, const std::vector<std::string>& include_dirs,
                       const std::vector<std::string>& defines);

// envyas -a style C arrays: per section `static uint32_t NAME[] = {`, `/* 0xADDR: label */` before the
// word a label points into, `\t0x%08x,` per little-endian word, `};`, a blank line between sections.
std::string to_header(const Program& p);
// The symbols file: `# ...` comment lines, then one line per label: `0x%08x SECTION LABEL`.
std::string to_symbols(const Program& p);

}  // namespace hetvp::mcu::falcon::as
