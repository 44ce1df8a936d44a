// qpu_run: runs a QPU program on N QPUs — hetvp assembly (.qasm, assembled on the host), or raw
// program words as Pi projects ship them (.hex: comma-separated 32-bit words, low word of each
// instruction first, with // and /* */ comments; .bin: little-endian binary) — with per-QPU
// uniform streams, input buffers loaded from files into SDRAM and output buffers written to files
// after the run (docs/qpu.md "Running a program unchanged"). The code gets a 4 KiB-aligned region
// of its own padded with zeros, so a program that runs off its end meets an all-zero word.
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "models/host/host_api.h"
#include "models/qpu/qpu_isa.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/format.h"
#include "platform/program.h"
#include "sw/qpu/qpu_asm.h"
#include "sw/qpu/v3d_driver.h"

namespace hetvp::qpu {

namespace {

// Every file qpu_run reads goes through the bounded reader (regular files only, a size limit per
// kind: platform/file_input.h); its errors name the file.
std::string read_file(const std::string& path, const InputKind& kind, const std::string& what) {
  try {
    return read_input_text(path, kind);
  } catch (const InputFileError& e) {
    throw HostError("qpu_run: " + what + e.what());
  }
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

}  // namespace

// A .hex file: 32-bit words separated by commas and/or white space, // and /* */ comments; two
// words per instruction, the low word first (as hello_fft's shader_*.hex include into a C array).
std::vector<uint64_t> parse_hex_program(const std::string& text, const std::string& name) {
  std::vector<uint32_t> words;
  unsigned line = 1;
  size_t i = 0, line_start = 0;
  auto where = [&](size_t at) { return name + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1); };
  bool need_sep = false;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == ',') {
      if (!need_sep) throw HostError("qpu_run: " + where(i) + ": a comma with no word before it");
      need_sep = false;
      ++i;
      continue;
    }
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      const size_t e = text.find("*/", i + 2);
      if (e == std::string::npos) throw HostError("qpu_run: " + where(i) + ": unterminated /* comment");
      for (size_t k = i; k < e; ++k)
        if (text[k] == '\n') {
          ++line;
          line_start = k + 1;
        }
      i = e + 2;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
    const std::string tok = text.substr(i, std::max<size_t>(j - i, 1));
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(tok.c_str(), &end, 0);
    if (j == i || *end || errno || v > 0xffffffffull || tok[0] == '-')
      throw HostError("qpu_run: " + where(i) + ": '" + tok + "' is not a 32-bit word (0x... or decimal)");
    if (need_sep) throw HostError("qpu_run: " + where(i) + ": a comma is missing before '" + tok + "'");
    words.push_back(uint32_t(v));
    need_sep = true;
    i = j;
  }
  if (words.empty()) throw HostError("qpu_run: " + name + ": no program words");
  if (words.size() % 2)
    throw HostError("qpu_run: " + name + ": " + std::to_string(words.size()) +
                    " words: an odd count (each 64-bit instruction is two words, the low word first)");
  std::vector<uint64_t> code(words.size() / 2);
  for (size_t k = 0; k < code.size(); ++k) code[k] = uint64_t(words[2 * k + 1]) << 32 | words[2 * k];
  return code;
}

namespace {

// A program's format; `auto` (a C++ keyword, so the enumerator is by_extension) picks it by the
// file's extension.
enum class ProgramFormat { by_extension, qasm, hex, bin };
inline const std::vector<std::string>& enum_names(ProgramFormat) {
  static const std::vector<std::string> names{"auto", "qasm", "hex", "bin"};
  return names;
}

// One SDRAM buffer of workload.args.buffers.
struct QpuBuffer : ParamSet {
  Str name{this, "name", nullptr, "name used as @NAME in the uniforms", Required{}};
  Str file{this, "file", "", "file loaded into the buffer before the run (raw bytes)"};
  Size size{this, "size", "0", "buffer size (0: the input file's size); the rest is zero"};
  Str output{this, "output", "", "file the buffer's contents are written to after the run"};
};

struct QpuRunArgs : V3dOptions {
  QpuRunArgs() : V3dOptions("QPUs to run on (0: one)") {}
  Str program{this, "program", nullptr, "the program: NAME.qasm (hetvp assembly), NAME.hex or NAME.bin (raw words)",
              Required{}};
  Enum<ProgramFormat> format{this, "format", ProgramFormat::by_extension, "program format (auto: by extension)"};
  Str uniforms{this, "uniforms", "",
               "uniforms, comma-separated (numbers, or @BUFFER / @BUFFER+OFFSET for a buffer's bus address); streams "
               "for successive QPUs separated by ';' (one stream: every QPU gets it)"};
  Bool index_uniform{this, "index_uniform", false, "put the QPU's request number (0..N-1) before the uniforms"};
  Int<uint32_t> bus_alias{this, "bus_alias", 0,
                          "alias bits ORed into every bus address handed to the QPUs (0, 0x40000000, "
                          "0x80000000, 0xC0000000: the same SDRAM)",
                          Range{0, 0xffffffffll}};
  List<QpuBuffer> buffers{this, "buffers", "SDRAM buffers: inputs from files, outputs to files"};
  Bool list{this, "list", false, "print the disassembly before running"};
  Time timeout{this, "timeout", "1 s", "how long the host waits for the programs"};

  // The program is read (bounded: platform/file_input.h) and assembled or parsed with the
  // configuration's validation, so a missing, odd, empty or malformed program is a located
  // configuration error (exit status 2) before anything is simulated.
  std::vector<uint64_t> load_program() const {
    const std::string& path = program;
    ProgramFormat fmt = format;
    if (fmt == ProgramFormat::by_extension)
      fmt = ends_with(path, ".hex")   ? ProgramFormat::hex
            : ends_with(path, ".bin") ? ProgramFormat::bin
                                      : ProgramFormat::qasm;
    std::vector<uint64_t> code;
    try {
      const std::string text = read_file(path, input_kind::kQpuProgram, "");
      if (fmt == ProgramFormat::qasm) {
        try {
          code = assemble(text, path);
        } catch (const AsmError& e) {
          throw HostError(std::string("qpu_run: ") + e.what());
        }
        if (code.empty()) throw HostError("qpu_run: " + path + " holds no instructions");
      } else if (fmt == ProgramFormat::hex) {
        code = parse_hex_program(text, path);
      } else {
        if (text.empty() || text.size() % 8)
          throw HostError(
              hetvp::format("qpu_run: %s: %zu bytes: a binary program is a non-empty multiple of 8 bytes "
                            "(64-bit little-endian instructions)",
                            path.c_str(), text.size()));
        code.resize(text.size() / 8);
        std::memcpy(code.data(), text.data(), text.size());
      }
    } catch (const HostError& e) {
      throw ConfigError(program.where() + ": " + e.what());
    }
    return code;
  }
  void validate(Diagnostics& d) const override {
    d.collect([&] { load_program(); });
  }
};

class QpuRun : public ProgramWithArgs<QpuRunArgs> {
 public:
  int run(HostApi& api, const QpuRunArgs& a) override {
    V3dDriver drv(api, a, a.timeout);
    unsigned nq = 1;
    if (a.qpus) {
      const unsigned have = drv.num_qpus();
      nq = a.qpus;
      if (nq > have) throw HostError(format("%u QPUs asked for, the V3D has %u (IDENT1)", nq, have));
    }
    const uint32_t alias = a.bus_alias;
    std::vector<uint64_t> code;
    try {
      code = a.load_program();  // validated before the run; read again in case the file changed since
    } catch (const ConfigError& e) {
      throw HostError(e.what());
    }
    const size_t bytes = (code.size() * 8 + 8191) / 4096 * 4096;  // at least one zero page after the code
    code.resize(bytes / 8, 0);
    const uint32_t at = drv.alloc(bytes, 4096);
    drv.upload(at, code.data(), bytes);
    if (a.list)
      for (size_t i = 0; i < code.size() && (i == 0 || code[i] || code[i - 1]); ++i)
        api.log(format("  0x%08zx: %016llx  %s", at + i * 8, static_cast<unsigned long long>(code[i]),
                       disassemble(code[i], uint32_t(at + i * 8)).c_str()));
    // Buffers.
    struct Buffer {
      std::string name, output;
      uint32_t addr;
      uint64_t size;
    };
    std::map<std::string, Buffer> buffers;
    for (const QpuBuffer& b : a.buffers) {
      Buffer buf{b.name, b.output, 0, b.size};
      if (buffers.count(buf.name)) throw HostError("qpu_run: buffers: two buffers named '" + buf.name + "'");
      std::string data;
      if (!b.file.empty()) data = read_file(b.file, input_kind::kQpuBuffer, "buffer " + buf.name + ": ");
      if (buf.size == 0) buf.size = data.size();
      if (buf.size == 0) throw HostError("qpu_run: buffers: buffer '" + buf.name + "' has neither a size nor a file");
      if (data.size() > buf.size)
        throw HostError(format("qpu_run: buffers: %s: file %s has %zu bytes, more than the size %llu", buf.name.c_str(),
                               b.file.c_str(), data.size(), static_cast<unsigned long long>(buf.size)));
      buf.addr = drv.alloc(buf.size, 4096);
      data.resize(buf.size, '\0');
      drv.upload(buf.addr, data.data(), buf.size);
      buffers[buf.name] = buf;
    }
    // Uniform streams.
    std::vector<std::vector<uint32_t>> streams;
    const std::string& u = a.uniforms;
    size_t p = 0;
    while (!u.empty() && p <= u.size()) {
      size_t q = u.find(';', p);
      if (q == std::string::npos) q = u.size();
      streams.push_back(parse_uniforms(u.substr(p, q - p), buffers, alias, streams.size()));
      p = q + 1;
    }
    if (streams.size() > 1 && streams.size() != nq)
      throw HostError(
          format("qpu_run: uniforms: %zu streams for %u QPUs (give one, or one per QPU)", streams.size(), nq));
    std::vector<uint32_t> unifs;
    uint32_t len = 0;
    for (unsigned q = 0; q < nq; ++q) {
      std::vector<uint32_t> w = streams.empty() ? std::vector<uint32_t>{} : streams[streams.size() == 1 ? 0 : q];
      if (a.index_uniform) w.insert(w.begin(), q);
      len = std::max(len, uint32_t(w.size()));
      unifs.push_back(drv.upload_words(w) | alias);
    }
    const sc_core::sc_time t = drv.execute(at | alias, unifs, len);
    api.log(format("qpu_run: %u programs done in %.3f us", nq, t.to_seconds() * 1e6));
    for (auto& [name, b] : buffers) {
      if (b.output.empty()) continue;
      std::vector<char> data(b.size);
      api.read(b.addr, data.data(), b.size);
      std::ofstream out(b.output, std::ios::binary);
      if (!out || !out.write(data.data(), std::streamsize(data.size())))
        throw HostError("qpu_run: buffer " + name + ": cannot write " + b.output);
      api.log(format("qpu_run: buffer %s (%llu bytes at 0x%08x) -> %s", name.c_str(),
                     static_cast<unsigned long long>(b.size), b.addr, b.output.c_str()));
    }
    return 0;
  }

 private:
  template <class Buffers>
  static std::vector<uint32_t> parse_uniforms(const std::string& text, const Buffers& buffers, uint32_t alias,
                                              size_t stream) {
    std::vector<uint32_t> v;
    size_t p = 0;
    auto trim = [](std::string s) {
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
      return s;
    };
    if (trim(text).empty()) return v;
    while (p <= text.size()) {
      size_t q = text.find(',', p);
      if (q == std::string::npos) q = text.size();
      const std::string item = trim(text.substr(p, q - p));
      const std::string where = format("qpu_run: uniforms: stream %zu, word %zu", stream, v.size());
      if (!item.empty() && item[0] == '@') {
        const size_t plus = item.find('+');
        const std::string name = item.substr(1, plus == std::string::npos ? std::string::npos : plus - 1);
        auto it = buffers.find(name);
        if (it == buffers.end()) throw HostError(where + ": no buffer named '" + name + "' (workload.args.buffers)");
        uint64_t off = 0;
        if (plus != std::string::npos) {
          char* end = nullptr;
          off = std::strtoull(item.c_str() + plus + 1, &end, 0);
          if (*end || off >= it->second.size)
            throw HostError(where + ": '" + item + "': the offset is not a number inside the buffer");
        }
        v.push_back(uint32_t(it->second.addr + off) | alias);
      } else {
        char* end = nullptr;
        errno = 0;
        const long long x = std::strtoll(item.c_str(), &end, 0);
        if (item.empty() || *end || errno || x > 0xffffffffll || x < -2147483648ll)
          throw HostError(where + ": '" + item + "' is not a number or @BUFFER");
        v.push_back(uint32_t(x));
      }
      p = q + 1;
    }
    return v;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("qpu_run", QpuRun,
                       "VideoCore IV: run a QPU program (.qasm, or Pi .hex/.bin words) with uniforms and file buffers");

}  // namespace hetvp::qpu
