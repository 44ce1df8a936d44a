// hetvp — ELF32 RISC-V executable reader.
#include "platform/elf_image.h"
#include "platform/file_input.h"
#include "platform/format.h"

#include <elf.h>

#include <cstdio>
#include <cstring>

namespace hetvp {

namespace {
[[noreturn]] void fail(const std::string& name, const std::string& what) { throw ElfError(name + ": " + what); }
}  // namespace

ElfImage ElfImage::from_file(const std::string& path) {
  std::vector<uint8_t> bytes;
  try {
    bytes = read_input_bytes(path, input_kind::kElf);  // regular files only, bounded
  } catch (const InputFileError& e) {
    throw ElfError(e.what());
  }
  return from_bytes(bytes.data(), bytes.size(), path);
}

ElfImage ElfImage::from_bytes(const uint8_t* data, size_t size, const std::string& name) {
  ElfImage img;
  img.name_ = name;
  if (size < 4 || std::memcmp(data, ELFMAG, SELFMAG) != 0) fail(name, "not an ELF file (bad magic)");
  if (size < EI_NIDENT) fail(name, "truncated ELF header");
  if (data[EI_CLASS] == ELFCLASS64) fail(name, "wrong ELF class: ELF64, expected ELF32 (RV32)");
  if (data[EI_CLASS] != ELFCLASS32)
    fail(name, "wrong ELF class " + std::to_string(data[EI_CLASS]) + ", expected ELF32");
  if (data[EI_DATA] != ELFDATA2LSB) fail(name, "not little-endian (EI_DATA must be ELFDATA2LSB)");
  if (size < sizeof(Elf32_Ehdr)) fail(name, "truncated ELF header (" + std::to_string(size) + " bytes)");
  Elf32_Ehdr eh;
  std::memcpy(&eh, data, sizeof eh);
  if (eh.e_machine != EM_RISCV) fail(name, "wrong machine " + std::to_string(eh.e_machine) + ", expected RISC-V (243)");
  if (eh.e_type != ET_EXEC) fail(name, "not an executable (e_type " + std::to_string(eh.e_type) + ")");
  if (eh.e_entry & 1u) {
    std::string b = format("entry point 0x%08x is odd (RISC-V instructions start on 2-byte boundaries)", eh.e_entry);
    fail(name, b);
  }
  img.entry_ = eh.e_entry;

  // program headers
  if (eh.e_phnum == 0) fail(name, "no program headers (no loadable segment)");
  if (eh.e_phentsize < sizeof(Elf32_Phdr)) fail(name, "bad program header entry size");
  if (static_cast<uint64_t>(eh.e_phoff) + static_cast<uint64_t>(eh.e_phnum) * eh.e_phentsize > size)
    fail(name, "truncated: program header table extends beyond end of file");
  for (unsigned k = 0; k < eh.e_phnum; ++k) {
    Elf32_Phdr ph;
    std::memcpy(&ph, data + eh.e_phoff + static_cast<size_t>(k) * eh.e_phentsize, sizeof ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz) fail(name, "segment " + std::to_string(k) + ": file size larger than memory size");
    if (static_cast<uint64_t>(ph.p_offset) + ph.p_filesz > size)
      fail(name, "segment " + std::to_string(k) + " extends beyond end of file (offset " + std::to_string(ph.p_offset) +
                     " + " + std::to_string(ph.p_filesz) + " > " + std::to_string(size) + ")");
    if (static_cast<uint64_t>(ph.p_paddr) + ph.p_memsz > (1ull << 32) ||
        static_cast<uint64_t>(ph.p_vaddr) + ph.p_memsz > (1ull << 32))
      fail(name, "segment " + std::to_string(k) + " wraps past the 4 GiB address space");
    ElfSegment s;
    s.vaddr = ph.p_vaddr;
    s.paddr = ph.p_paddr;
    s.memsz = ph.p_memsz;
    s.flags = ph.p_flags;
    s.data.assign(data + ph.p_offset, data + ph.p_offset + ph.p_filesz);
    img.segments_.push_back(std::move(s));
  }
  if (img.segments_.empty()) fail(name, "no loadable segment (PT_LOAD)");

  // symbol table (optional)
  if (eh.e_shnum != 0) {
    if (eh.e_shentsize < sizeof(Elf32_Shdr)) fail(name, "bad section header entry size");
    if (static_cast<uint64_t>(eh.e_shoff) + static_cast<uint64_t>(eh.e_shnum) * eh.e_shentsize > size)
      fail(name, "truncated: section header table extends beyond end of file");
    auto shdr = [&](unsigned k) {
      Elf32_Shdr sh;
      std::memcpy(&sh, data + eh.e_shoff + static_cast<size_t>(k) * eh.e_shentsize, sizeof sh);
      return sh;
    };
    for (unsigned k = 0; k < eh.e_shnum; ++k) {
      const Elf32_Shdr sh = shdr(k);
      if (sh.sh_type != SHT_SYMTAB) continue;
      if (static_cast<uint64_t>(sh.sh_offset) + sh.sh_size > size)
        fail(name, "truncated: symbol table extends beyond end of file");
      if (sh.sh_entsize < sizeof(Elf32_Sym)) fail(name, "bad symbol table entry size " + std::to_string(sh.sh_entsize));
      if (sh.sh_link >= eh.e_shnum) fail(name, "symbol table links to a missing string table");
      const Elf32_Shdr st = shdr(sh.sh_link);
      if (static_cast<uint64_t>(st.sh_offset) + st.sh_size > size)
        fail(name, "truncated: string table extends beyond end of file");
      const size_t n = sh.sh_size / sh.sh_entsize;
      for (size_t j = 1; j < n; ++j) {
        Elf32_Sym sym;
        std::memcpy(&sym, data + sh.sh_offset + j * sh.sh_entsize, sizeof sym);
        if (sym.st_name >= st.sh_size) continue;
        const char* s = reinterpret_cast<const char*>(data + st.sh_offset + sym.st_name);
        const size_t maxlen = st.sh_size - sym.st_name;
        ElfSymbol e;
        e.name.assign(s, strnlen(s, maxlen));
        if (e.name.empty()) continue;
        e.value = sym.st_value;
        e.size = sym.st_size;
        e.type = ELF32_ST_TYPE(sym.st_info);
        e.bind = ELF32_ST_BIND(sym.st_info);
        e.absolute = sym.st_shndx == SHN_ABS;
        img.symbols_.push_back(std::move(e));
      }
    }
  }
  return img;
}

std::optional<uint32_t> ElfImage::symbol(const std::string& n) const {
  // prefer a global definition over a local one of the same name
  std::optional<uint32_t> local;
  for (const auto& s : symbols_) {
    if (s.name != n) continue;
    if (s.bind != STB_LOCAL) return s.value;
    if (!local) local = s.value;
  }
  return local;
}

}  // namespace hetvp
