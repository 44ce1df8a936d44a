// hetvp — the Falcon assembler's input and output ends (assembler.h): the C preprocessor run, the
// envyas-style header and the symbols file.
#include <sys/wait.h>

#include <cstdio>
#include <memory>

#include "models/mcu/falcon/asm/assembler.h"

namespace hetvp::mcu::falcon::as {

namespace {
// One shell word (popen runs /bin/sh -c).
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

std::string preprocess(const std::string& source, const std::vector<std::string>& include_dirs,
                       const std::vector<std::string>& defines) {
  // -nostdinc: nouveau's sources include only their own files; -x c: whatever the file's suffix.
  std::string cmd = "cpp -nostdinc -x c";
  for (const std::string& d : include_dirs) cmd += " -I " + quote(d);
  for (const std::string& d : defines) cmd += " -D " + quote(d);
  cmd += " " + quote(source);
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) throw AsmError(source + ": cannot run the C preprocessor (cpp)");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int status = pclose(f);
  if (status != 0) {
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    throw AsmError(source + ": the C preprocessor failed" +
                   (code == 127 ? std::string(" (cpp not found: install the Debian package cpp)")
                                : " (exit status " + std::to_string(code) + ")"));
  }
  return out;
}

std::string to_header(const Program& p) {
  std::string out;
  char line[96];
  for (size_t s = 0; s < p.sections.size(); ++s) {
    const Section& sc = p.sections[s];
    out += "static uint32_t " + sc.name + "[] = {\n";
    for (size_t j = 0; j < sc.bytes.size(); j += 4) {
      // labels pointing into this word, in source order
      for (size_t k = 0; k < 4; ++k)
        for (const auto& [addr, name] : sc.labels)
          if (addr - sc.base == j + k) {
            std::snprintf(line, sizeof line, "/* 0x%04zx: ", j + k);
            out += line + name + " */\n";
          }
      uint32_t w = 0;
      for (size_t k = 0; k < 4 && j + k < sc.bytes.size(); ++k) w |= static_cast<uint32_t>(sc.bytes[j + k]) << (8 * k);
      std::snprintf(line, sizeof line, "\t0x%08x,\n", w);
      out += line;
    }
    out += "};\n";
    if (s + 1 != p.sections.size()) out += "\n";
  }
  return out;
}

std::string to_symbols(const Program& p) {
  std::string out = "# hetvp falcon-as symbols: ADDRESS SECTION LABEL (one line per label)\n";
  char line[32];
  for (const Section& sc : p.sections)
    for (const auto& [addr, name] : sc.labels) {
      std::snprintf(line, sizeof line, "0x%08x ", addr);
      out += line + sc.name + " " + name + "\n";
    }
  return out;
}

}  // namespace hetvp::mcu::falcon::as
