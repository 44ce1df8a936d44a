// Seeded, deterministic fuzzing of what a user hands `hetvp` (SPEC §10): YAML configurations and
// firmware images. Every mutant must give a clear error naming where (file:line:col or the key path
// for YAML, the file for an image) with exit status 2 (configuration) or 1 (the simulated system
// failed), or be accepted: never a crash, an uncaught exception, a SystemC error report or a hang.
//
// HETVP_FUZZ_VERBOSE=1 prints every mutant and the first line of what hetvp said about it.
#include <gtest/gtest.h>

#include <elf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "common/run_hetvp.h"
#include "common/text_match.h"

using namespace hetvp::test;

namespace {

constexpr int kTimeout = 5;  // seconds; a check or a short run takes ~10 ms

using Rng = std::mt19937;
// rng() % n rather than std::uniform_int_distribution: the same mutants with every standard library.
size_t pick(Rng& rng, size_t n) { return n ? rng() % n : 0; }
template <class T>
const T& pick_of(Rng& rng, const std::vector<T>& v) {
  return v[pick(rng, v.size())];
}

using hetvp::test::has;
bool verbose() { return std::getenv("HETVP_FUZZ_VERBOSE") != nullptr; }

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string escape_regex(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

// What must never appear, whatever the input: crash and abort texts, SystemC's own error reports,
// and the what() of a library exception that leaked into a message (std::bad_alloc, stoll, ...).
void expect_no_crash(const RunResult& r, const std::string& what) {
  const std::string all = r.out + r.err;
  for (const char* bad : {"terminate called", "Segmentation", "Aborted", "core dumped", "Error: (E", "Fatal: (F",
                          "std::", "stoll", "stoull", "stod", "basic_string", "vector::"})
    EXPECT_FALSE(has(all, bad)) << what << "\n'" << bad << "' in the output:\n" << r.out << r.err;
  EXPECT_NE(r.status, 124) << what << "\ntimed out after " << kTimeout << " s";
  EXPECT_LT(r.status, 124) << what << "\nkilled by a signal\n" << r.err;
}

// ------------------------------------------------------------------------------------------- YAML
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}
std::string join_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (auto& l : lines) s += l + "\n";
  return s;
}
bool is_content(const std::string& line) {
  size_t p = line.find_first_not_of(' ');
  return p != std::string::npos && line[p] != '#';
}

// A `key: value` of a block or flow mapping; value is empty when it is a nested map/list or absent.
struct KeyValue {
  size_t line, key_pos, key_len, val_pos, val_len;
};

std::vector<KeyValue> key_values(const std::vector<std::string>& lines) {
  static const std::regex kv(R"(([A-Za-z_][A-Za-z0-9_]*):(?: +([^,{}\[\]# ][^,{}\[\]#]*[^,{}\[\]# ]|[^,{}\[\]# ]))?)");
  std::vector<KeyValue> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!is_content(lines[i])) continue;
    std::string code = lines[i];
    size_t hash = code.find(" #");
    if (hash != std::string::npos) code.resize(hash);
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kv); it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      out.push_back({i, size_t(m.position(1)), size_t(m.length(1)), m[2].matched ? size_t(m.position(2)) : 0,
                     m[2].matched ? size_t(m.length(2)) : 0});
    }
  }
  return out;
}

struct Mutant {
  std::string what;  // for messages: the mutation and where
  std::string text;
};

// A "billion laughs" in one flow sequence: `levels` anchors, each a list of `fanout` aliases of the
// previous one (fanout^levels nodes when expanded, a few hundred bytes of text).
std::string alias_bomb(int levels, int fanout) {
  std::string s = "[&lol0 [";
  for (int k = 0; k < fanout; ++k) s += k ? ", lol" : "lol";
  s += "]";
  for (int i = 1; i < levels; ++i) {
    s += ", &lol" + std::to_string(i) + " [";
    for (int k = 0; k < fanout; ++k) s += (k ? ", *lol" : "*lol") + std::to_string(i - 1);
    s += "]";
  }
  return s + "]";
}

// One single mutation of `text`; kind cycles through the eight kinds so every kind is exercised.
// Kinds 8 and 9 are alias attacks: a value that refers to itself, and an alias bomb.
Mutant mutate_yaml(const std::string& text, int kind, Rng& rng) {
  std::vector<std::string> lines = split_lines(text);
  std::vector<size_t> content;
  for (size_t i = 0; i < lines.size(); ++i)
    if (is_content(lines[i])) content.push_back(i);
  const std::vector<KeyValue> kvs = key_values(lines);
  std::vector<KeyValue> scalars;
  for (auto& k : kvs)
    if (k.val_len) scalars.push_back(k);
  auto at = [&](size_t l) { return "line " + std::to_string(l + 1) + " '" + lines[l] + "'"; };
  Mutant m;
  switch (kind) {
    case 0: {  // delete a line
      size_t l = pick_of(rng, content);
      m.what = "delete " + at(l);
      lines.erase(lines.begin() + long(l));
      break;
    }
    case 1: {  // duplicate a line
      size_t l = pick_of(rng, content);
      m.what = "duplicate " + at(l);
      lines.insert(lines.begin() + long(l), lines[l]);
      break;
    }
    case 2: {  // replace a scalar value by something wrong
      static const std::vector<std::string> wrong = {"-1",      "-250 ns",
                                                     "1e30",    "1e30 GiB",
                                                     "1e30 s",  "1e30 GHz",
                                                     "",        "not_a_value",
                                                     "[1, 2]",  "{a: 1}",
                                                     "0",       "0 ns",
                                                     "0 Hz",    "99999999999999999999",
                                                     "nan",     "inf",
                                                     "-inf",    "0x",
                                                     "~",       "true",
                                                     "1.5",     "4 parsecs",
                                                     "1e-30 s", "0x8000000000000000",
                                                     "''"};
      const KeyValue& k = pick_of(rng, scalars);
      const std::string& v = pick_of(rng, wrong);
      m.what = "value '" + lines[k.line].substr(k.val_pos, k.val_len) + "' -> '" + v + "' in " + at(k.line);
      lines[k.line].replace(k.val_pos, k.val_len, v);
      break;
    }
    case 3: {  // rename a key: a typo, a case change, or another key of the file
      const KeyValue& k = pick_of(rng, kvs);
      std::string key = lines[k.line].substr(k.key_pos, k.key_len), renamed;
      switch (pick(rng, 4)) {
        case 0:
          renamed = key + "x";
          break;
        case 1:
          renamed = key.size() > 1 ? key.substr(1) : key + key;
          break;
        case 2:
          renamed = key;
          for (auto& c : renamed) c = char(std::toupper(static_cast<unsigned char>(c)));
          break;
        default: {
          const KeyValue& o = pick_of(rng, kvs);
          renamed = lines[o.line].substr(o.key_pos, o.key_len);
        }
      }
      m.what = "key '" + key + "' -> '" + renamed + "' in " + at(k.line);
      lines[k.line].replace(k.key_pos, k.key_len, renamed);
      break;
    }
    case 4: {  // break the indentation
      size_t l = pick_of(rng, content);
      size_t lead = lines[l].find_first_not_of(' ');
      size_t n = 1 + pick(rng, 3);
      m.what = at(l);
      if (lead > 0 && pick(rng, 2)) {
        n = std::min(n, lead);
        lines[l].erase(0, n);
        m.what = "unindent by " + std::to_string(n) + " " + m.what;
      } else {
        lines[l].insert(0, n, ' ');
        m.what = "indent by " + std::to_string(n) + " " + m.what;
      }
      break;
    }
    case 5: {  // truncate at a random byte
      size_t cut = pick(rng, text.size());
      m.what = "truncate at byte " + std::to_string(cut);
      m.text = text.substr(0, cut);
      return m;
    }
    case 6:    // a tab
    case 7: {  // a stray ':'
      size_t l = pick_of(rng, content);
      size_t pos = pick(rng, lines[l].size() + 1);
      if (kind == 6 && pick(rng, 2)) pos = 0;  // tabs as indentation are the classic
      const char c = kind == 6 ? '\t' : ':';
      m.what = std::string(kind == 6 ? "tab" : "':'") + " at column " + std::to_string(pos + 1) + " of " + at(l);
      lines[l].insert(pos, 1, c);
      break;
    }
    case 8: {  // a value (or a whole new instance) that contains an alias of itself
      static const std::vector<std::string> cycles = {"&self [*self]", "&self {again: *self}", "&self [1, [2, *self]]",
                                                      "&self {a: [*self]}"};
      const std::string& v = pick_of(rng, cycles);
      if (pick(rng, 3) == 0) {
        m.what = "instance 'loop: " + v + "' appended";
        lines.push_back("loop: " + v);
      } else {
        const KeyValue& k = pick_of(rng, scalars);
        m.what = "value '" + lines[k.line].substr(k.val_pos, k.val_len) + "' -> '" + v + "' in " + at(k.line);
        lines[k.line].replace(k.val_pos, k.val_len, v);
      }
      break;
    }
    case 9: {  // nested aliases: a value, or a top-level key, that expands to fanout^levels nodes
      const int levels = int(6 + pick(rng, 4)), fanout = int(8 + pick(rng, 3));
      const std::string v = alias_bomb(levels, fanout);
      const std::string shape = std::to_string(levels) + " levels of " + std::to_string(fanout) + " aliases";
      if (pick(rng, 3) == 0) {
        m.what = "alias bomb (" + shape + ") appended";
        lines.push_back("lol: " + v);
      } else {
        const KeyValue& k = pick_of(rng, scalars);
        m.what =
            "value '" + lines[k.line].substr(k.val_pos, k.val_len) + "' -> alias bomb (" + shape + ") in " + at(k.line);
        lines[k.line].replace(k.val_pos, k.val_len, v);
      }
      break;
    }
  }
  m.text = join_lines(lines);
  return m;
}

// Exit status 2 must name the file with a line:col, or the --set (README: every error names where).
void expect_names_where(const RunResult& r, const std::string& file, const std::string& what) {
  const std::string f = escape_regex(file);
  const std::regex where("error: " + f + "(:[0-9]+:[0-9]+[: ]| \\(--set [^)]*\\): )");
  EXPECT_TRUE(std::regex_search(r.err, where)) << what << "\nstatus 2 without file:line:col:\n" << r.err;
}

struct YamlCase {
  const char* config;
  uint32_t seed;
};

void PrintTo(const YamlCase& c, std::ostream* os) { *os << c.config << ", seed " << c.seed; }

class FuzzYaml : public testing::TestWithParam<YamlCase> {};

TEST_P(FuzzYaml, SingleMutationsGiveOkOrAnErrorNamingWhere) {
  // The first 60 cycle through kinds 0-7 (the seeds give the same mutants as before kinds 8-9
  // existed); the last 12 alternate self-references and alias bombs.
  constexpr int kMutants = 72, kPlain = 60, kRuns = 10;
  const YamlCase& c = GetParam();
  const std::string original = read_file(config(c.config));
  ASSERT_FALSE(original.empty());
  Rng rng(c.seed);
  const std::string file = write_file(std::string("fuzz-") + c.config, "");
  int accepted = 0, rejected = 0, runs = 0;
  for (int i = 0; i < kMutants; ++i) {
    const Mutant m = mutate_yaml(original, i < kPlain ? i % 8 : 8 + i % 2, rng);
    std::ofstream(file) << m.text;
    const std::string what = std::string(c.config) + " mutant " + std::to_string(i) + ": " + m.what;
    const RunResult r = run_hetvp("check " + file, kTimeout);
    if (verbose()) std::printf("[%s] check -> %d %s\n", what.c_str(), r.status, first_line(r.err).c_str());
    expect_no_crash(r, what);
    EXPECT_TRUE(r.status == 0 || r.status == 2) << what << "\nstatus " << r.status << "\n" << r.out << r.err;
    if (r.status == 2) {
      ++rejected;
      expect_names_where(r, file, what);
    }
    if (r.status != 0) continue;
    ++accepted;
    if (runs >= kRuns) continue;
    // An accepted mutant must also run (briefly): whatever it changed, no crash and a clear outcome.
    ++runs;
    const RunResult run = run_hetvp("run " + file + " --quiet --set simulation.time_limit=200us", kTimeout);
    if (verbose()) std::printf("[%s] run -> %d %s\n", what.c_str(), run.status, first_line(run.err).c_str());
    expect_no_crash(run, what + " (run)");
    EXPECT_TRUE(run.status == 0 || run.status == 1 || run.status == 2) << what << "\nrun status " << run.status;
    if (run.status == 1) EXPECT_TRUE(has(run.err, "FAILED: ")) << what << "\n" << run.err;
    if (run.status == 2) expect_names_where(run, file, what + " (run)");
  }
  // The mutations did something: most are rejected, some are harmless (comments, equal values).
  EXPECT_GT(rejected, kMutants / 3) << c.config;
  EXPECT_GT(accepted, 0) << c.config;
}

INSTANTIATE_TEST_SUITE_P(Configs, FuzzYaml,
                         testing::Values(YamlCase{"default.yaml", 1001}, YamlCase{"coherence.yaml", 1002},
                                         YamlCase{"two_gpus.yaml", 1003}, YamlCase{"gen3_x8.yaml", 1004},
                                         YamlCase{"rtl_block_example.yaml", 1005}),
                         [](const testing::TestParamInfo<YamlCase>& i) {
                           std::string n = i.param.config;
                           return n.substr(0, n.find('.'));
                         });

// The defects the seeded mutants found (issue #13), each once and on purpose: `hetvp check` answers
// with exit status 2 and file:line:col, quickly, instead of a segfault, a hang or an unlocated error.
TEST(FuzzYamlFound, EachAttackIsRefusedQuicklyNamingWhere) {
  const std::string original = read_file(config("default.yaml"));
  ASSERT_FALSE(original.empty());
  struct Case {
    std::string name, text, expect;  // expect: "file:line:col: ..." after the file name
  };
  const int n = int(split_lines(original).size());
  const std::string next = std::to_string(n + 1);
  const std::vector<Case> cases = {
      {"self-reference", original + "tag_cycles: &a [*a]\n", ":" + next + ":17: alias '*a'"},
      {"alias bomb", original + "lol: " + alias_bomb(9, 8) + "\n", ":" + next + ":"},
      {"deep nesting", original + "deep: " + std::string(3000, '[') + std::string(3000, ']') + "\n", ":" + next + ":"},
      {"empty", "", ":1:1: the configuration is empty"},
      {"comments only", "# nothing\n", ":1:1: the configuration is empty"},
      {"target nobody connects", original + "lonely: {type: memory, size: 1 MiB}\n",
       ":" + next + ":1: lonely: target port 'in' is not connected"},
      {"required port open", original + "cpu2: {type: host_cpu}\n", ":" + next + ":1: cpu2: required port 'mem'"},
  };
  for (const Case& c : cases) {
    const std::string file = write_file("found.yaml", c.text);
    const RunResult r = run_hetvp("check " + file, kTimeout);
    expect_no_crash(r, c.name);
    EXPECT_EQ(r.status, 2) << c.name << "\n" << r.err;
    EXPECT_TRUE(has(r.err, "error: " + file + c.expect)) << c.name << ": expected '" << c.expect << "' in\n" << r.err;
  }
}

// A run that ends inside the workload (here the time limit, in the middle of the transfer sweep)
// must not leave the workload's memory behind: in a -DHETVP_SANITIZE=ON build LeakSanitizer
// reported the driver's page tables and the parsed method lists (docs/reliability.md).
TEST(FuzzYamlFound, RunStoppedInsideTheWorkloadLeavesNoLeak) {
  const RunResult r = run_hetvp("run " + config("default.yaml") + " --quiet --set simulation.time_limit=200us", 60);
  expect_no_crash(r, "transfer stopped by the time limit");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "did not finish within simulation.time_limit")) << r.err;
  EXPECT_FALSE(has(r.err, "LeakSanitizer")) << r.err;
}

// ------------------------------------------------------------------------------------------ images
std::string firmware(const std::string& name) { return binary_dir() + "/firmware/" + name; }

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

struct ImageMutant {
  std::string what;
  std::vector<uint8_t> bytes;
  bool must_fail = true;  // an image no loader may accept (a random flip may be harmless)
};

template <class T>
void poke(std::vector<uint8_t>& b, size_t off, T v) {
  if (off + sizeof v <= b.size()) std::memcpy(b.data() + off, &v, sizeof v);
}

ImageMutant mutate_image(const std::vector<uint8_t>& good, int kind, Rng& rng) {
  ImageMutant m;
  m.bytes = good;
  auto& b = m.bytes;
  Elf32_Ehdr eh;
  std::memcpy(&eh, good.data(), sizeof eh);
  // The PT_LOAD program headers' offsets in the file.
  std::vector<size_t> loads;
  for (unsigned k = 0; k < eh.e_phnum; ++k) {
    Elf32_Phdr ph;
    size_t off = eh.e_phoff + size_t(k) * eh.e_phentsize;
    std::memcpy(&ph, good.data() + off, sizeof ph);
    if (ph.p_type == PT_LOAD && ph.p_memsz) loads.push_back(off);
  }
  const size_t ph = pick_of(rng, loads);
  const std::string seg = "segment header at " + std::to_string(ph);
  switch (kind) {
    case 0: {  // truncated (always inside the headers or a segment: the loaded part is cut)
      size_t n = pick(rng, std::min<size_t>(good.size(), 0x1000));
      m.what = "truncated to " + std::to_string(n) + " bytes";
      b.resize(n);
      break;
    }
    case 1:
      m.what = "empty file";
      b.clear();
      break;
    case 2:
      if (pick(rng, 2)) {
        m.what = "a text file";
        const std::string t = "#!/bin/sh\necho this is not firmware\n";
        b.assign(t.begin(), t.end());
      } else {
        m.what = "random bytes";
        b.resize(64 + pick(rng, 4096));
        for (auto& x : b) x = uint8_t(rng());
        b[0] = 0x7e;  // never ELF magic by chance
      }
      break;
    case 3: {  // a byte of the ELF identification or of the fields the loader needs
      static const std::vector<size_t> fields = {0, 1, 2, 3, EI_CLASS, EI_DATA, 16, 17, 18, 19, 28, 29, 30, 42, 43, 44};
      size_t off = pick_of(rng, fields);
      b[off] ^= uint8_t(1 + pick(rng, 255));
      m.what = "ELF header byte " + std::to_string(off) + " flipped";
      // Magic, class, byte order, type and machine must be exact; a changed e_phoff, e_phentsize or
      // e_phnum may still describe a table that loads.
      m.must_fail = off < 20;
      break;
    }
    case 4: {  // any byte of the program header table
      size_t off = eh.e_phoff + pick(rng, size_t(eh.e_phnum) * eh.e_phentsize);
      b[off] ^= uint8_t(1 + pick(rng, 255));
      m.what = "program header byte " + std::to_string(off) + " flipped";
      m.must_fail = false;  // p_align, p_paddr and a non-load header's fields are not used
      break;
    }
    case 5: {
      static const std::vector<uint16_t> machines = {EM_X86_64, EM_ARM, EM_386, EM_NONE, EM_AARCH64};
      uint16_t mach = pick_of(rng, machines);
      poke(b, offsetof(Elf32_Ehdr, e_machine), mach);
      m.what = "e_machine " + std::to_string(mach);
      break;
    }
    case 6: {
      static const std::vector<std::pair<int, uint8_t>> ident = {
          {EI_CLASS, ELFCLASS64}, {EI_CLASS, ELFCLASSNONE}, {EI_CLASS, 7}, {EI_DATA, ELFDATA2MSB}, {EI_DATA, 0}};
      auto [field, v] = pick_of(rng, ident);
      b[size_t(field)] = v;
      m.what = std::string(field == EI_CLASS ? "EI_CLASS " : "EI_DATA ") + std::to_string(v);
      break;
    }
    case 7: {  // a loadable segment placed outside the microcontroller's memories
      static const std::vector<uint32_t> addrs = {0x80000000u, 0xfffff000u, 0x00110000u, 0x00020000u,
                                                  0x00008000u, 0x0000fffcu, 0x01000000u};
      uint32_t a = pick_of(rng, addrs);
      poke(b, ph + offsetof(Elf32_Phdr, p_vaddr), a);
      poke(b, ph + offsetof(Elf32_Phdr, p_paddr), a);
      m.what = seg + ": address " + std::to_string(a);
      break;
    }
    case 8: {  // sizes and offsets of a segment
      switch (pick(rng, 4)) {
        case 0:
          poke(b, ph + offsetof(Elf32_Phdr, p_memsz), uint32_t(0x7fffffff));
          m.what = seg + ": p_memsz 2 GiB";
          break;
        case 1:
          poke(b, ph + offsetof(Elf32_Phdr, p_memsz), uint32_t(0xfffffff0));
          m.what = seg + ": p_memsz wraps";
          break;
        case 2:
          poke(b, ph + offsetof(Elf32_Phdr, p_filesz), uint32_t(0x100000));
          m.what = seg + ": p_filesz 1 MiB";
          break;
        default:
          poke(b, ph + offsetof(Elf32_Phdr, p_offset), uint32_t(good.size()));
          m.what = seg + ": p_offset at EOF";
      }
      break;
    }
    case 9: {  // the program header table itself
      switch (pick(rng, 4)) {
        case 0:
          poke(b, offsetof(Elf32_Ehdr, e_phoff), uint32_t(0xfffffff0));
          m.what = "e_phoff past EOF";
          break;
        case 1:
          poke(b, offsetof(Elf32_Ehdr, e_phnum), uint16_t(0));
          m.what = "e_phnum 0";
          break;
        case 2:
          poke(b, offsetof(Elf32_Ehdr, e_phnum), uint16_t(0xffff));
          m.what = "e_phnum 65535";
          break;
        default:
          poke(b, offsetof(Elf32_Ehdr, e_phentsize), uint16_t(8));
          m.what = "e_phentsize 8";
      }
      break;
    }
    case 10: {  // entry point outside the code, or not on an instruction
      static const std::vector<uint32_t> entries = {0xdeadbeefu, 0x10000u, 0x00020000u, 0x1u, 0xfffffffcu};
      uint32_t e = pick_of(rng, entries);
      poke(b, offsetof(Elf32_Ehdr, e_entry), e);
      m.what = "e_entry " + std::to_string(e);
      break;
    }
    case 11: {  // the section headers (only the symbol table is read)
      switch (pick(rng, 4)) {
        case 0:
          poke(b, offsetof(Elf32_Ehdr, e_shoff), uint32_t(0xffffff00));
          m.what = "e_shoff past EOF";
          break;
        case 1:
          poke(b, offsetof(Elf32_Ehdr, e_shnum), uint16_t(0xffff));
          m.what = "e_shnum 65535";
          break;
        case 2:
          poke(b, offsetof(Elf32_Ehdr, e_shentsize), uint16_t(1));
          m.what = "e_shentsize 1";
          break;
        default: {  // every section header's sh_entsize/sh_link scrambled
          for (unsigned k = 0; k < eh.e_shnum; ++k) {
            size_t off = eh.e_shoff + size_t(k) * eh.e_shentsize;
            poke(b, off + offsetof(Elf32_Shdr, sh_entsize), uint32_t(pick(rng, 3)));
            poke(b, off + offsetof(Elf32_Shdr, sh_link), uint32_t(pick(rng, 2) ? 0xffff : 0));
          }
          m.what = "section headers scrambled";
        }
      }
      break;
    }
    case 12: {  // random bytes anywhere (mostly code: may still load, then the firmware misbehaves)
      size_t n = 1 + pick(rng, 8);
      m.what = std::to_string(n) + " random bytes changed at";
      for (size_t k = 0; k < n; ++k) {
        size_t off = pick(rng, b.size());
        b[off] = uint8_t(rng());
        m.what += " " + std::to_string(off);
      }
      m.must_fail = false;
      break;
    }
    case 13: {  // the executable flag moved: no code segment, or two
      uint32_t flags;
      std::memcpy(&flags, b.data() + ph + offsetof(Elf32_Phdr, p_flags), 4);
      poke(b, ph + offsetof(Elf32_Phdr, p_flags), flags ^ uint32_t(PF_X));
      m.what = seg + ": PF_X toggled";
      break;
    }
    default: {
      static const std::vector<uint16_t> types = {ET_DYN, ET_REL, ET_CORE, ET_NONE};
      uint16_t t = pick_of(rng, types);
      poke(b, offsetof(Elf32_Ehdr, e_type), t);
      m.what = "e_type " + std::to_string(t);
    }
  }
  return m;
}

struct ImageCase {
  const char* image;     // in build/firmware
  const char* workload;  // the boot that loads it: mcu_boot's hub_firmware / gpc_firmware
  uint32_t seed;
};

void PrintTo(const ImageCase& c, std::ostream* os) { *os << c.image << ", seed " << c.seed; }

class FuzzImage : public testing::TestWithParam<ImageCase> {};

TEST_P(FuzzImage, CorruptionsAreRefusedNamingTheFile) {
  constexpr int kMutants = 60, kKinds = 15;
  const ImageCase& c = GetParam();
  const std::vector<uint8_t> good = read_bytes(firmware(c.image));
  if (good.empty()) GTEST_SKIP() << firmware(c.image) << " not built (no RISC-V cross compiler)";
  ASSERT_GT(good.size(), sizeof(Elf32_Ehdr));
  Rng rng(c.seed);
  const std::string file = scratch() + "/fuzz-" + c.image;
  for (int i = 0; i < kMutants; ++i) {
    const ImageMutant m = mutate_image(good, i % kKinds, rng);
    write_bytes(file, m.bytes);
    const std::string what = std::string(c.image) + " mutant " + std::to_string(i) + ": " + m.what;

    const RunResult iss = run_hetvp("iss " + file + " --max-instructions 1000000", kTimeout);
    if (verbose()) std::printf("[%s] iss -> %d %s\n", what.c_str(), iss.status, first_line(iss.err).c_str());
    expect_no_crash(iss, what + " (iss)");
    // The firmware is not a standalone program: in the bare ISS even the intact image traps on its
    // first access to the register block (status 1). A corrupt one may exit with any code.
    if (m.must_fail)
      EXPECT_TRUE(iss.status == 1 || iss.status == 2) << what << "\niss status " << iss.status << iss.err;
    if (iss.status != 0) EXPECT_TRUE(has(iss.err, "hetvp iss: " + file + ": ")) << what << "\n" << iss.err;

    const RunResult boot =
        run_hetvp("run " + config("default.yaml") + " --quiet --workload mcu_boot --set workload.args." + c.workload +
                      "=" + file + " --set workload.args.boot_timeout=1ms",
                  kTimeout);
    if (verbose()) std::printf("[%s] boot -> %d %s\n", what.c_str(), boot.status, first_line(boot.err).c_str());
    expect_no_crash(boot, what + " (boot)");
    if (m.must_fail)
      EXPECT_TRUE(boot.status == 1 || boot.status == 2) << what << "\nboot status " << boot.status;
    else
      EXPECT_LE(boot.status, 2) << what;
    if (boot.status != 0)
      EXPECT_TRUE(has(boot.err, file)) << what << "\nthe failure does not name the image:\n" << boot.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Firmware, FuzzImage,
                         testing::Values(ImageCase{"hub.elf", "hub_firmware", 2001},
                                         ImageCase{"gpc.elf", "gpc_firmware", 2002}),
                         [](const testing::TestParamInfo<ImageCase>& i) {
                           std::string n = i.param.image;
                           return n.substr(0, n.find('.'));
                         });

}  // namespace
