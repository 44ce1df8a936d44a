// `hetvp falcon-as` (issue #39, docs/falcon.md "Assembler"): it reproduces, text for text, every
// firmware header nouveau ships in linux-source-6.1 from its source (GR hub+gpc of six chips, CE, PMU);
// its symbols file; its located errors; and a one-instruction change to hub.fuc, assembled and given
// through the image key, changes what the boot reports.
#include "common/run_hetvp.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>
#include <sys/stat.h>

using namespace hetvp::test;

namespace {

const std::string kSrc = HETVP_NOUVEAU_SRC_DIR;  // cmake/NouveauFirmware.cmake extracts the sources there

// Why nouveau's sources are not there ("" when they are).
std::string unavailable() {
  struct stat st {};
  if (stat((kSrc + "/extracted.stamp").c_str(), &st) == 0) return "";
  const std::string why = HETVP_NOUVEAU_SRC_REASON;
  return why.empty() ? "nouveau's Falcon sources not extracted into " + kSrc : why;
}

// The shipped header as envyas wrote it: Linux added an SPDX line on top.
std::string shipped(const std::string& path) {
  const std::string h = read_file(path);
  const std::string spdx = "/* SPDX-License-Identifier: MIT */\n";
  return h.compare(0, spdx.size(), spdx) == 0 ? h.substr(spdx.size()) : h;
}

struct Image {
  const char* part;  // gr, ce, pmu
  const char* file;  // the source; its header is FILE.h
};
void PrintTo(const Image& i, std::ostream* os) { *os << i.part << "/" << i.file; }
std::string name_of(const ::testing::TestParamInfo<Image>& i) {
  std::string n = std::string(i.param.part) + "_" + i.param.file;
  for (char& c : n)
    if (c == '.') c = '_';
  return n;
}

class FalconAsShipped : public ::testing::TestWithParam<Image> {};

}  // namespace

TEST_P(FalconAsShipped, ReproducesNouveausHeaderWordForWord) {
  if (const std::string why = unavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string src = kSrc + "/" + GetParam().part + "/" + GetParam().file;
  const std::string out = scratch() + "/" + GetParam().part + "_" + GetParam().file + ".h";
  auto r = run_hetvp(std::string("falcon-as ") + src + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  const std::string want = shipped(src + ".h"), got = read_file(out);
  ASSERT_GT(want.size(), 1000u);
  EXPECT_EQ(got, want) << "hetvp falcon-as " << src << " differs from " << src << ".h";
}

INSTANTIATE_TEST_SUITE_P(
    Nouveau61, FalconAsShipped,
    ::testing::Values(Image{"gr", "hubgf100.fuc3"}, Image{"gr", "gpcgf100.fuc3"}, Image{"gr", "hubgf117.fuc3"},
                      Image{"gr", "gpcgf117.fuc3"}, Image{"gr", "hubgk104.fuc3"}, Image{"gr", "gpcgk104.fuc3"},
                      Image{"gr", "hubgk110.fuc3"}, Image{"gr", "gpcgk110.fuc3"}, Image{"gr", "hubgk208.fuc5"},
                      Image{"gr", "gpcgk208.fuc5"}, Image{"gr", "hubgm107.fuc5"}, Image{"gr", "gpcgm107.fuc5"},
                      Image{"ce", "gf100.fuc3"}, Image{"ce", "gt215.fuc3"}, Image{"pmu", "gt215.fuc3"},
                      Image{"pmu", "gf100.fuc3"}, Image{"pmu", "gf119.fuc4"}, Image{"pmu", "gk208.fuc5"}),
    name_of);

// --symbols: one `0x%08x SECTION LABEL` line per label, the addresses the header's comments give.
TEST(FalconAs, SymbolsFileListsEveryLabelWithItsSectionAndAddress) {
  if (const std::string why = unavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string syms = scratch() + "/hubgf100.sym", hdr = scratch() + "/hubgf100_sym.h";
  auto r = run_hetvp("falcon-as " + kSrc + "/gr/hubgf100.fuc3 -o " + hdr + " --symbols " + syms);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string s = read_file(syms), h = read_file(hdr);
  EXPECT_EQ(s.rfind("# ", 0), 0u) << s;  // a comment first
  std::smatch m;
  ASSERT_TRUE(std::regex_search(s, m, std::regex("\n0x([0-9a-f]{8}) gf100_grhub_code main\n"))) << s;
  const std::string addr = m[1].str().substr(4);  // the header prints 4 hex digits
  EXPECT_NE(h.find("/* 0x" + addr + ": main */"), std::string::npos) << addr;
  EXPECT_NE(s.find(" gf100_grhub_data hub_mmio_list_head\n"), std::string::npos);
  // every line is a comment or ADDRESS SECTION LABEL
  size_t lines = 0;
  for (size_t b = 0, e; b < s.size(); b = e + 1) {
    e = s.find('\n', b);
    const std::string line = s.substr(b, e - b);
    EXPECT_TRUE(line[0] == '#' || std::regex_match(line, std::regex("0x[0-9a-f]{8} gf100_grhub_(code|data) \\w+")))
        << line;
    ++lines;
  }
  EXPECT_GT(lines, 50u);
}

// Bad input: each a located error (FILE:LINE from cpp's line markers, an #include'd file's own line)
// with its message, exit status 1, and no output file written.
TEST(FalconAs, BadSourcesAreLocatedErrors) {
  write_file("inc_bad.fuc", "// included\nmov $r1 1\nfrob $r2\n");
  struct Bad {
    std::string name, text, where, message;
    std::string options;
  };
  const Bad bad[] = {
      {"unknown.fuc3", ".section #t_code\nmov $r1 1\n\nfrob $r1 $r2\n", "unknown.fuc3:4: ", "unknown mnemonic 'frob'"},
      {"included.fuc3", ".section #t_code\n#include \"inc_bad.fuc\"\n", "inc_bad.fuc:3: ", "unknown mnemonic 'frob'"},
      {"range.fuc3", ".section #t_code\nmov $r1 1\nand $r2 0x12345\n",
       "range.fuc3:3: ", "operand out of range: 0x12345 fits no form of 'and'"},
      {"range_sethi.fuc3", ".section #t_code\nsethi $r2 0x12345\n",
       "range_sethi.fuc3:2: ", "operand out of range: 0x12345 fits no form of 'sethi'"},
      {"undefined.fuc3", ".section #t_code\nmain:\n  call #nowhere\n",
       "undefined.fuc3:3: ", "undefined symbol '#nowhere'"},
      {"overflow.fuc3", ".section #t_code\nmov $r1 1\nmov $r2 2\n.skip 8\nret\n", "overflow.fuc3:4: ",
       "section overflow: 't_code' reaches 0xe bytes here, more than 0x8 (--code-size)", " --code-size 8"},
      {"overflow_data.fuc3", ".section #t_data\n.b32 1 2 3\n", "overflow_data.fuc3:2: ",
       "section overflow: 't_data' reaches 0xc bytes here, more than 0x4 (--data-size)", " --data-size 4"},
      {"directive.fuc3", ".section #t_code\nret\n.frob 4\n",
       "directive.fuc3:3: ", "bad directive: unknown directive '.frob'"},
      {"equ.fuc3", ".section #t_code\n.equ 4 5\n", "equ.fuc3:2: ", "bad directive: .equ takes #NAME VALUE"},
      {"operands.fuc3", ".section #t_code\nmov b32 $r1 D[$r2]\n",
       "operands.fuc3:2: ", "no form of 'mov' takes the operands b32 $r1 D[...]"},
      {"twice.fuc3", ".section #t_code\na:\nret\na:\n", "twice.fuc3:4: ", "symbol 'a' defined twice (first at "},
      {"far.fuc3", ".section #t_code\nbra b32 $r1 0 ne #t\nt:\n",
       "far.fuc3:2: ", "no form of 'bra' takes the operands b32 $r1 expression ne expression on this Falcon version"},
  };
  for (const Bad& b : bad) {
    const std::string src = write_file(b.name, b.text), out = scratch() + "/" + b.name + ".h";
    auto r = run_hetvp("falcon-as " + src + " -o " + out + b.options);
    EXPECT_EQ(r.status, 1) << b.name << r.out << r.err;
    EXPECT_NE(r.err.find(b.where + b.message), std::string::npos) << b.name << ": " << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << b.name << ": one line: " << r.err;
    EXPECT_FALSE(std::ifstream(out).good()) << b.name << ": wrote " << out;
  }
  // the preprocessor's own error, and the option errors
  auto c = run_hetvp("falcon-as " + write_file("cpp.fuc3", "#include \"no_such.fuc\"\n"));
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("no_such.fuc"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("the C preprocessor failed"), std::string::npos) << c.err;
  auto i = run_hetvp("falcon-as " + write_file("isa.fuc3", "ret\n") + " --isa fuc9");
  EXPECT_EQ(i.status, 2);
  EXPECT_NE(i.err.find("fuc9"), std::string::npos) << i.err;
  auto s = run_hetvp("falcon-as " + write_file("size.fuc3", "ret\n") + " --code-size lots");
  EXPECT_EQ(s.status, 1);
  EXPECT_NE(s.err.find("--code-size: expected a byte count, not 'lots'"), std::string::npos) << s.err;
}

// The same text in each Falcon version's encodings; -D reaches the preprocessor; --format bin writes
// a section's bytes.
TEST(FalconAs, VersionsDefinesAndRawOutput) {
  const std::string src = write_file("v.fuc", ".section #v_code\nmov $r1 VALUE\nlcall #f\nf:\nret\n");
  const std::string out = scratch() + "/v.bin";
  auto r5 = run_hetvp("falcon-as " + src + " --isa fuc5 -D VALUE=0x12 --format bin -o " + out);
  ASSERT_EQ(r5.status, 0) << r5.err;
  // v5: mov $r1 0x12 is 01 12 (2 bytes), lcall #f is 7e 06 00 00, ret f8 00
  EXPECT_EQ(read_file(out), std::string("\x01\x12\x7e\x06\x00\x00\xf8\x00", 8));
  auto r3 = run_hetvp("falcon-as " + src + " --isa fuc3 -D VALUE=0x12 --format bin -o " + out);
  EXPECT_EQ(r3.status, 1);  // lcall is v4+
  EXPECT_NE(r3.err.find("v.fuc:3: no form of 'lcall'"), std::string::npos) << r3.err;
  auto r4 = run_hetvp("falcon-as " + src + " --isa fuc4 -D VALUE=0x12 --format bin -o " + out);
  ASSERT_EQ(r4.status, 0) << r4.err;
  // v4: mov $r1 0x12 is f0 17 12 (f0 form, sub-opcode 7)
  EXPECT_EQ(read_file(out), std::string("\xf0\x17\x12\x7e\x07\x00\x00\xf8\x00", 9));
}

// A one-instruction change to nouveau's hub.fuc (the context size's start, `mov $r1 256`, made 512),
// assembled with hetvp falcon-as and given through gpu0.microcontrollers.hub.image: the boot reads a
// context size 256 bytes larger than with the unchanged source, assembled the same way.
TEST(FalconAs, AOneInstructionChangeToHubFucChangesTheBoot) {
  if (const std::string why = unavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::string dir = scratch() + "/gr_copy";
  ASSERT_EQ(std::system(("mkdir -p " + dir + " && cp " + kSrc + "/gr/* " + dir).c_str()), 0);
  const std::string hub = read_file(dir + "/hub.fuc");
  const std::string from = "\tmov $r1 256\n";
  const size_t at = hub.find(from);
  ASSERT_NE(at, std::string::npos);
  ASSERT_EQ(hub.find(from, at + 1), std::string::npos);  // one place
  auto context_size = [&](const std::string& tag) -> long {
    const std::string img = scratch() + "/hub_" + tag + ".h";
    auto a = run_hetvp("falcon-as " + dir + "/hubgf100.fuc3 -o " + img);
    EXPECT_EQ(a.status, 0) << a.err;
    auto r = run_hetvp(
        "run " + config("gf100_nouveau.yaml") + " --workload boot --set gpu0.microcontrollers.hub.image=" + img, 180);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    std::smatch m;
    if (!std::regex_search(r.out, m, std::regex("context size ([0-9]+) bytes"))) return -1;
    return std::stol(m[1].str());
  };
  const long unchanged = context_size("unchanged");
  ASSERT_GT(unchanged, 0);
  std::ofstream(dir + "/hub.fuc") << hub.substr(0, at) << "\tmov $r1 512\n" << hub.substr(at + from.size());
  const long changed = context_size("changed");
  EXPECT_EQ(changed, unchanged + 256);
}

// --chip: the chip's context-controller memories (gpu_chips.h; GF100: HUB 16 KiB code / 4 KiB data,
// GPC 8 KiB / 2 KiB, Fujii 2013 Table II) bound the *_code / *_data sections, the HUB's or a GPC's by
// the source's name or --unit; the overflow is a located error naming the chip's memory. --code-size
// / --data-size override, and the chip gives the Falcon version when neither --isa nor the suffix does.
TEST(FalconAs, ChipLimitsSectionsToItsMemories) {
  const std::string hub = write_file("hub_chip.fuc3", ".section #t_code\n.skip 0x4000\nret\n");
  const std::string gpc = write_file("gpc_chip.fuc3", ".section #t_data\n.skip 0x800\n.b8 1\n");
  const std::string none = write_file("other_chip.fuc3", ".section #t_code\nret\n");
  const std::string out = scratch() + "/chip.h";
  struct Case {
    std::string src, options, error;  // error "" = assembles
  };
  const Case cases[] = {
      {hub, " --chip gf100",
       "hub_chip.fuc3:3: section overflow: 't_code' reaches 0x4002 bytes here, more than 0x4000 (gf100 HUB code "
       "memory, --chip gf100)"},
      {hub, " --chip gk104", ""},  // Kepler's HUB has 20 KiB
      {hub, " --chip gf100 --unit gpc",
       "hub_chip.fuc3:2: section overflow: 't_code' reaches 0x4000 bytes here, more than 0x2000 (gf100 GPC code "
       "memory, --chip gf100)"},
      {hub, " --chip gf100 --code-size 0x4002", ""},
      {gpc, " --chip gf100",
       "gpc_chip.fuc3:3: section overflow: 't_data' reaches 0x801 bytes here, more than 0x800 (gf100 GPC data "
       "memory, --chip gf100)"},
      {gpc, " --chip gf100 --unit hub", ""},  // the HUB has 4 KiB of data
      {none, " --chip gf100",
       "--chip gf100: say whose memories with --unit hub|gpc (the source's name 'other_chip.fuc3' starts with "
       "neither 'hub' nor 'gpc')"},
      {none, " --chip gm107", "--chip gm107: not a chip hetvp knows (gf100, gf117, gk104, gk110, gk208)"},
      {none, " --unit hub", "--unit hub needs --chip CHIP"},
  };
  for (const Case& c : cases) {
    std::remove(out.c_str());
    auto r = run_hetvp("falcon-as " + c.src + " -o " + out + c.options);
    if (c.error.empty()) {
      EXPECT_EQ(r.status, 0) << c.options << ": " << r.err;
      EXPECT_EQ(r.err, "") << c.options;
      EXPECT_TRUE(std::ifstream(out).good()) << c.options;
      continue;
    }
    EXPECT_EQ(r.status, 1) << c.options << r.err;
    // that line alone; a located error names the source as it was given (in the scratch directory)
    const bool located = c.error.rfind("--", 0) != 0;
    EXPECT_EQ(r.err, (located ? scratch() + "/" : std::string()) + c.error + "\n") << c.options;
    EXPECT_FALSE(std::ifstream(out).good()) << c.options << ": wrote " << out;
  }
  auto bad_unit = run_hetvp("falcon-as " + hub + " --chip gf100 --unit tpc");
  EXPECT_EQ(bad_unit.status, 2);
  EXPECT_NE(bad_unit.err.find("tpc"), std::string::npos) << bad_unit.err;
  // The version: lcall is v4+; a plain .fuc source is fuc3 on gf100, fuc5 on gk208.
  const std::string v = write_file("hub_version.fuc", ".section #v_code\nlcall #f\nf:\nret\n");
  auto g = run_hetvp("falcon-as " + v + " --chip gf100 -o " + out);
  EXPECT_EQ(g.status, 1);
  EXPECT_NE(g.err.find("hub_version.fuc:2: no form of 'lcall'"), std::string::npos) << g.err;
  auto k = run_hetvp("falcon-as " + v + " --chip gk208 -o " + out);
  EXPECT_EQ(k.status, 0) << k.err;
}

// nouveau's GR images fit their chips' memories: --chip assembles each as without it.
TEST(FalconAs, NouveausImagesFitTheirChips) {
  if (const std::string why = unavailable(); !why.empty()) GTEST_SKIP() << why;
  for (const char* f : {"hubgf100.fuc3", "gpcgf100.fuc3", "hubgk104.fuc3", "gpcgk110.fuc3", "hubgk208.fuc5"}) {
    const std::string chip = std::string(f).substr(3, 5), out = scratch() + "/fit_" + f + ".h";
    auto r = run_hetvp("falcon-as " + kSrc + "/gr/" + f + " --chip " + chip + " -o " + out);
    EXPECT_EQ(r.status, 0) << f << ": " << r.err;
    EXPECT_EQ(read_file(out), shipped(kSrc + "/gr/" + f + ".h")) << f;
  }
}
