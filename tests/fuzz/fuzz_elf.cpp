// Fuzz harness: the ELF32 reader (platform/elf_image.*). Any byte string must either give an image
// whose segments and symbols are self-consistent, or an ElfError; any other exception, a crash or
// a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "platform/elf_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    hetvp::ElfImage img = hetvp::ElfImage::from_bytes(data, size, "fuzz.elf");
    uint64_t total = 0;
    for (const auto& s : img.segments()) {
      if (s.data.size() > s.memsz) std::abort();  // file bytes never exceed the memory image
      if (s.data.size() > size) std::abort();     // nor the input they came from
      total += s.memsz;
      (void)s.executable();
    }
    for (const auto& sym : img.symbols()) (void)img.symbol(sym.name);
    (void)img.entry();
    (void)total;
  } catch (const hetvp::ElfError&) {
  }
  return 0;
}
