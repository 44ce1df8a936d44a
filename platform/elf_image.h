// hetvp — ELF32 RISC-V executable reader (firmware images, standalone ISS programs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hetvp {

// Every malformed input raises this; what() = "<source name>: <what is wrong>".
class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ElfSegment {
  uint32_t vaddr = 0;
  uint32_t paddr = 0;
  uint32_t memsz = 0;         // >= data.size(); the rest is zero (.bss)
  uint32_t flags = 0;         // PF_X | PF_W | PF_R
  std::vector<uint8_t> data;  // the file bytes (p_filesz)
  bool executable() const { return flags & 1u; }
};

struct ElfSymbol {
  std::string name;
  uint32_t value = 0;
  uint32_t size = 0;
  uint8_t type = 0;  // STT_*
  uint8_t bind = 0;  // STB_*
  bool absolute = false;  // SHN_ABS: a constant (e.g. a register offset .equ'd in assembly), no address
};

class ElfImage {
 public:
  static ElfImage from_file(const std::string& path);
  static ElfImage from_bytes(const uint8_t* data, size_t size, const std::string& name = "<memory>");
  static ElfImage from_bytes(const std::vector<uint8_t>& bytes, const std::string& name = "<memory>") {
    return from_bytes(bytes.data(), bytes.size(), name);
  }

  const std::string& name() const { return name_; }
  uint32_t entry() const { return entry_; }
  const std::vector<ElfSegment>& segments() const { return segments_; }  // PT_LOAD with memsz > 0
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }     // empty if stripped
  std::optional<uint32_t> symbol(const std::string& name) const;

 private:
  std::string name_;
  uint32_t entry_ = 0;
  std::vector<ElfSegment> segments_;
  std::vector<ElfSymbol> symbols_;
};

}  // namespace hetvp
