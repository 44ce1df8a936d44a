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

class QpuRun : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    s->integer("qpus", 0, "QPUs to run on (0: one)").range(0, 16);
    s->choice("wait", {"poll", "interrupt"}, std::string("poll"),
              "wait for completion by polling SRQCS or by interrupt");
    s->integer("v3d_base", 0x20c00000, "physical address of the V3D registers (peripheral base + 0xC00000)").min(0);
    s->integer("irq_vector", 0, "interrupt vector of the V3D (v3d.irq_vector)").range(0, 255);
    s->string("program", std::nullopt, "the program: NAME.qasm (hetvp assembly), NAME.hex or NAME.bin (raw words)")
        .required();
    s->choice("format", {"auto", "qasm", "hex", "bin"}, std::string("auto"), "program format (auto: by extension)");
    s->string("uniforms", std::string(""),
              "uniforms, comma-separated (numbers, or @BUFFER / @BUFFER+OFFSET for a buffer's bus address); streams "
              "for successive QPUs separated by ';' (one stream: every QPU gets it)");
    s->boolean("index_uniform", false, "put the QPU's request number (0..N-1) before the uniforms");
    s->integer("bus_alias", 0,
               "alias bits ORed into every bus address handed to the QPUs (0, 0x40000000, "
               "0x80000000, 0xC0000000: the same SDRAM)")
        .range(0, 0xffffffffll);
    auto buf = std::make_shared<Schema>();
    buf->string("name", std::nullopt, "name used as @NAME in the uniforms").required();
    buf->string("file", std::string(""), "file loaded into the buffer before the run (raw bytes)");
    buf->size("size", std::string("0"), "buffer size (0: the input file's size); the rest is zero");
    buf->string("output", std::string(""), "file the buffer's contents are written to after the run");
    s->list("buffers", buf, "SDRAM buffers: inputs from files, outputs to files");
    s->boolean("list", false, "print the disassembly before running");
    s->time("timeout", std::string("1 s"), "how long the host waits for the programs");
    return s;
  }

  // The program is read (bounded: platform/file_input.h) and assembled or parsed with the
  // configuration's validation, so a missing, odd, empty or malformed program is a located
  // configuration error (exit status 2) before anything is simulated.
  static std::vector<uint64_t> load(const Params& a) {
    const std::string path = a.string("program");
    std::string fmt = a.string("format");
    if (fmt == "auto") fmt = ends_with(path, ".hex") ? "hex" : ends_with(path, ".bin") ? "bin" : "qasm";
    std::vector<uint64_t> code;
    try {
      const std::string text = read_file(path, input_kind::kQpuProgram, "");
      if (fmt == "qasm") {
        try {
          code = assemble(text, path);
        } catch (const AsmError& e) {
          throw HostError(std::string("qpu_run: ") + e.what());
        }
        if (code.empty()) throw HostError("qpu_run: " + path + " holds no instructions");
      } else if (fmt == "hex") {
        code = parse_hex_program(text, path);
      } else {
        if (text.empty() || text.size() % 8)
          throw HostError(
              format("qpu_run: %s: %zu bytes: a binary program is a non-empty multiple of 8 bytes "
                     "(64-bit little-endian instructions)",
                     path.c_str(), text.size()));
        code.resize(text.size() / 8);
        std::memcpy(code.data(), text.data(), text.size());
      }
    } catch (const HostError& e) {
      throw ConfigError(a.where("program") + ": " + e.what());
    }
    return code;
  }
  static void validate(const Params& a) { load(a); }

  int run(HostApi& api, const Params& a) override {
    V3dDriver::Options o;
    o.v3d_base = a.u64("v3d_base");
    o.wait = a.string("wait") == "interrupt" ? V3dDriver::Wait::Interrupt : V3dDriver::Wait::Poll;
    o.irq_vector = a.u32("irq_vector");
    o.timeout = a.time("timeout");
    V3dDriver drv(api, o);
    unsigned nq = 1;
    if (a.u32("qpus")) {
      const unsigned have = drv.num_qpus();
      nq = a.u32("qpus");
      if (nq > have) throw HostError(format("%u QPUs asked for, the V3D has %u (IDENT1)", nq, have));
    }
    const uint32_t alias = a.u32("bus_alias");
    std::vector<uint64_t> code;
    try {
      code = load(a);  // validated before the run; read again in case the file changed since
    } catch (const ConfigError& e) {
      throw HostError(e.what());
    }
    const size_t bytes = (code.size() * 8 + 8191) / 4096 * 4096;  // at least one zero page after the code
    code.resize(bytes / 8, 0);
    const uint32_t at = drv.alloc(bytes, 4096);
    drv.upload(at, code.data(), bytes);
    if (a.boolean("list"))
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
    for (const Params& b : a.list("buffers")) {
      Buffer buf{b.string("name"), b.string("output"), 0, b.size("size")};
      if (buffers.count(buf.name)) throw HostError("qpu_run: buffers: two buffers named '" + buf.name + "'");
      std::string data;
      if (!b.string("file").empty()) data = read_file(b.string("file"), input_kind::kQpuBuffer, "buffer " + buf.name + ": ");
      if (buf.size == 0) buf.size = data.size();
      if (buf.size == 0) throw HostError("qpu_run: buffers: buffer '" + buf.name + "' has neither a size nor a file");
      if (data.size() > buf.size)
        throw HostError(format("qpu_run: buffers: %s: file %s has %zu bytes, more than the size %llu", buf.name.c_str(),
                               b.string("file").c_str(), data.size(), static_cast<unsigned long long>(buf.size)));
      buf.addr = drv.alloc(buf.size, 4096);
      data.resize(buf.size, '\0');
      drv.upload(buf.addr, data.data(), buf.size);
      buffers[buf.name] = buf;
    }
    // Uniform streams.
    std::vector<std::vector<uint32_t>> streams;
    const std::string u = a.string("uniforms");
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
      if (a.boolean("index_uniform")) w.insert(w.begin(), q);
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

HETVP_REGISTER_PROGRAM("qpu_run", QpuRun,
                       "VideoCore IV: run a QPU program (.qasm, or Pi .hex/.bin words) with uniforms and file buffers");

}  // namespace hetvp::qpu
