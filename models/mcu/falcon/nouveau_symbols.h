// hetvp — the labels of nouveau's pre-assembled graphics firmware (the `/* 0xADDR: label */` comments
// of its .fuc3.h/.fuc5.h headers), generated at configure time (cmake/NouveauSymbols.cmake) as the
// text of a symbols file in `hetvp falcon-as --symbols` format: `0xADDR <section> <label>` per line.
// `hetvp debug` reads them (sw/mcu/debug_symbols.h) so a breakpoint can name nouveau's `main`.
#pragma once

#include <vector>

namespace hetvp::mcu::falcon {

struct NouveauSymbols {
  const char* chip;    // "gf100", ...
  const char* unit;    // "hub" or "gpc"
  const char* header;  // "hubgf100.fuc3.h"
  const char* text;    // symbols-file lines
};

// Every image's labels; empty when nouveau's firmware is not built in (nouveau_fw.h says why).
const std::vector<NouveauSymbols>& nouveau_symbols();

}  // namespace hetvp::mcu::falcon
