// hetvp tests — ElfImage: a well-formed image and every class of malformed input.
#include "platform/elf_image.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

using hetvp::ElfError;
using hetvp::ElfImage;

namespace {

// Builds: ELF header | 2 program headers | text (8 B) | data (4 B) | symtab | strtab | shstrtab-less shdrs
struct ElfBuilder {
  std::vector<uint8_t> b;
  size_t phoff = sizeof(Elf32_Ehdr);
  size_t text_off = 0, data_off = 0;

  std::vector<uint8_t> build() {
    b.clear();
    b.resize(sizeof(Elf32_Ehdr) + 2 * sizeof(Elf32_Phdr));
    text_off = b.size();
    const uint8_t text[8] = {0x13, 0, 0, 0, 0x73, 0, 0x10, 0};  // nop; ebreak
    b.insert(b.end(), text, text + 8);
    data_off = b.size();
    const uint8_t data[4] = {1, 2, 3, 4};
    b.insert(b.end(), data, data + 4);
    // string table
    const char str[] = "\0tohost\0_start\0";
    const size_t str_off = b.size();
    b.insert(b.end(), str, str + sizeof str);
    while (b.size() % 4) b.push_back(0);
    // symbol table
    const size_t sym_off = b.size();
    Elf32_Sym syms[3] = {};
    syms[1].st_name = 1;
    syms[1].st_value = 0x10000;
    syms[1].st_size = 4;
    syms[1].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_OBJECT);
    syms[2].st_name = 8;
    syms[2].st_value = 0x0;
    syms[2].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);
    b.insert(b.end(), reinterpret_cast<uint8_t*>(syms), reinterpret_cast<uint8_t*>(syms) + sizeof syms);
    // section headers: null, symtab, strtab
    const size_t sh_off = b.size();
    Elf32_Shdr sh[3] = {};
    sh[1].sh_type = SHT_SYMTAB;
    sh[1].sh_offset = static_cast<Elf32_Off>(sym_off);
    sh[1].sh_size = sizeof syms;
    sh[1].sh_entsize = sizeof(Elf32_Sym);
    sh[1].sh_link = 2;
    sh[2].sh_type = SHT_STRTAB;
    sh[2].sh_offset = static_cast<Elf32_Off>(str_off);
    sh[2].sh_size = sizeof str;
    b.insert(b.end(), reinterpret_cast<uint8_t*>(sh), reinterpret_cast<uint8_t*>(sh) + sizeof sh);

    Elf32_Ehdr eh = {};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_RISCV;
    eh.e_version = EV_CURRENT;
    eh.e_entry = 0x0;
    eh.e_phoff = static_cast<Elf32_Off>(phoff);
    eh.e_shoff = static_cast<Elf32_Off>(sh_off);
    eh.e_ehsize = sizeof(Elf32_Ehdr);
    eh.e_phentsize = sizeof(Elf32_Phdr);
    eh.e_phnum = 2;
    eh.e_shentsize = sizeof(Elf32_Shdr);
    eh.e_shnum = 3;
    std::memcpy(b.data(), &eh, sizeof eh);
    Elf32_Phdr ph[2] = {};
    ph[0].p_type = PT_LOAD;
    ph[0].p_offset = static_cast<Elf32_Off>(text_off);
    ph[0].p_vaddr = ph[0].p_paddr = 0;
    ph[0].p_filesz = ph[0].p_memsz = 8;
    ph[0].p_flags = PF_R | PF_X;
    ph[1].p_type = PT_LOAD;
    ph[1].p_offset = static_cast<Elf32_Off>(data_off);
    ph[1].p_vaddr = ph[1].p_paddr = 0x10000;
    ph[1].p_filesz = 4;
    ph[1].p_memsz = 64;
    ph[1].p_flags = PF_R | PF_W;
    std::memcpy(b.data() + phoff, ph, sizeof ph);
    return b;
  }
  static Elf32_Ehdr* eh(std::vector<uint8_t>& v) { return reinterpret_cast<Elf32_Ehdr*>(v.data()); }
  static Elf32_Phdr* ph(std::vector<uint8_t>& v, int k) {
    return reinterpret_cast<Elf32_Phdr*>(v.data() + sizeof(Elf32_Ehdr) + k * sizeof(Elf32_Phdr));
  }
};

void expect_error(const std::vector<uint8_t>& bytes, const std::string& text) {
  try {
    ElfImage::from_bytes(bytes, "fw.elf");
    FAIL() << "no exception, expected: " << text;
  } catch (const ElfError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("fw.elf: ", 0), 0u) << m;  // names the file
    EXPECT_NE(m.find(text), std::string::npos) << m;
  }
}

}  // namespace

TEST(ElfImage, ParsesSegmentsEntryAndSymbols) {
  ElfBuilder eb;
  auto v = eb.build();
  const ElfImage img = ElfImage::from_bytes(v, "fw.elf");
  EXPECT_EQ(img.entry(), 0u);
  ASSERT_EQ(img.segments().size(), 2u);
  EXPECT_EQ(img.segments()[0].paddr, 0u);
  EXPECT_TRUE(img.segments()[0].executable());
  EXPECT_EQ(img.segments()[0].data.size(), 8u);
  EXPECT_EQ(img.segments()[0].data[4], 0x73);
  EXPECT_EQ(img.segments()[1].vaddr, 0x10000u);
  EXPECT_EQ(img.segments()[1].memsz, 64u);
  EXPECT_EQ(img.segments()[1].data, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_FALSE(img.segments()[1].executable());
  ASSERT_TRUE(img.symbol("tohost").has_value());
  EXPECT_EQ(*img.symbol("tohost"), 0x10000u);
  EXPECT_TRUE(img.symbol("_start").has_value());
  EXPECT_FALSE(img.symbol("nope").has_value());
}

TEST(ElfImage, RejectsNonElf) {
  const std::string s = "#!/bin/sh\necho not an elf\n";
  expect_error(std::vector<uint8_t>(s.begin(), s.end()), "not an ELF file");
  expect_error({}, "not an ELF file");
}

TEST(ElfImage, RejectsTruncatedHeader) {
  ElfBuilder eb;
  auto v = eb.build();
  v.resize(30);
  expect_error(v, "truncated ELF header");
}

TEST(ElfImage, RejectsElf64) {
  ElfBuilder eb;
  auto v = eb.build();
  v[EI_CLASS] = ELFCLASS64;
  expect_error(v, "wrong ELF class: ELF64");
}

TEST(ElfImage, RejectsWrongMachine) {
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::eh(v)->e_machine = EM_X86_64;
  expect_error(v, "wrong machine 62, expected RISC-V");
}

TEST(ElfImage, RejectsBigEndianAndNonExecutable) {
  ElfBuilder eb;
  auto v = eb.build();
  v[EI_DATA] = ELFDATA2MSB;
  expect_error(v, "not little-endian");
  auto w = eb.build();
  ElfBuilder::eh(w)->e_type = ET_REL;
  expect_error(w, "not an executable");
}

TEST(ElfImage, RejectsOddEntryPoint) {  // found by the fuzz test: the core ran from entry & ~1
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::eh(v)->e_entry = 1;
  expect_error(v, "entry point 0x00000001 is odd");
}

TEST(ElfImage, RejectsSegmentBeyondFile) {
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::ph(v, 1)->p_offset = static_cast<Elf32_Off>(v.size() - 2);
  expect_error(v, "segment 1 extends beyond end of file");
}

TEST(ElfImage, RejectsTruncatedProgramHeaders) {
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::eh(v)->e_phoff = static_cast<Elf32_Off>(v.size() - 8);
  expect_error(v, "program header table extends beyond end of file");
}

TEST(ElfImage, RejectsImageWithoutLoadableSegment) {
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::ph(v, 0)->p_type = PT_NOTE;
  ElfBuilder::ph(v, 1)->p_type = PT_NOTE;
  expect_error(v, "no loadable segment");
}

TEST(ElfImage, RejectsFileSizeLargerThanMemorySize) {
  ElfBuilder eb;
  auto v = eb.build();
  ElfBuilder::ph(v, 1)->p_memsz = 2;
  expect_error(v, "file size larger than memory size");
}

TEST(ElfImage, FromFileReportsMissingFileAndParsesRealFile) {
  try {
    ElfImage::from_file("/nonexistent/fw.elf");
    FAIL();
  } catch (const ElfError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/fw.elf: cannot open file"), std::string::npos);
  }
  ElfBuilder eb;
  auto v = eb.build();
  const std::string path = testing::TempDir() + "hetvp_elf_test.elf";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
  }
  const ElfImage img = ElfImage::from_file(path);
  EXPECT_EQ(img.name(), path);
  EXPECT_EQ(img.segments().size(), 2u);
}

// Any corruption of a valid image either parses or raises ElfError: never a crash or another exception.
TEST(ElfImage, RandomCorruptionNeverCrashes) {
  ElfBuilder eb;
  const auto good = eb.build();
  std::mt19937 rng(12345);
  int errors = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    auto v = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) v[rng() % v.size()] = static_cast<uint8_t>(rng());
    if (rng() % 8 == 0) v.resize(rng() % v.size());
    try {
      const ElfImage img = ElfImage::from_bytes(v, "fuzz.elf");
      for (const auto& s : img.segments()) EXPECT_LE(s.data.size(), s.memsz);
    } catch (const ElfError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 1000);  // the corruptions were noticed
}
