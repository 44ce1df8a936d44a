// hetvp — `hetvp falcon-as` (cli.h).
#include "models/mcu/falcon/asm/cli.h"

#include <fstream>
#include <iostream>

#include "models/mcu/falcon/asm/assembler.h"
#include "models/mcu/falcon/asm/isa_forms.h"

namespace hetvp::mcu::falcon::as {

const char* const kUsage =
    "usage: hetvp falcon-as SRC [-I DIR]... [-D NAME[=VALUE]]... [--isa fuc0|fuc3|fuc4|fuc5]\n"
    "                       [--format header|bin] [-o OUT] [--symbols FILE] [--code-size N] [--data-size N]";
const char* const kAbout =
    "  assembles a Falcon source in envyas' syntax (nouveau's gr/ce/pmu .fuc* files) after running the C\n"
    "  preprocessor (cpp) on it; header: envyas -a style C arrays (what the image keys read); bin: the raw\n"
    "  bytes of each section (one section: OUT; several: OUT.<section>); errors are FILE:LINE: ... (exit 1)\n";

void declare_options(CLI::App& app, CliArgs& a) {
  app.add_option("SRC", a.source, "the source file")->required()->type_name("");
  app.add_option("-I", a.include_dirs, "an include directory for the preprocessor")->type_name("DIR");
  app.add_option("-D", a.defines, "a preprocessor definition")->type_name("NAME[=VALUE]");
  app.add_option("--isa", a.isa, "the Falcon version (default: the source's suffix, else fuc3)")
      ->check(CLI::IsMember({"fuc0", "fuc3", "fuc4", "fuc5"}))
      ->type_name("VERSION");
  app.add_option("--format", a.format, "header (C arrays) or bin (raw bytes)")
      ->check(CLI::IsMember({"header", "bin"}))
      ->type_name("FORMAT");
  app.add_option("-o", a.output, "the output file (default: standard output, header only)")->type_name("OUT");
  app.add_option("--symbols", a.symbols, "write every label as '0x%08x SECTION LABEL' to FILE")->type_name("FILE");
  app.add_option("--code-size", a.code_size, "refuse a *_code section larger than N bytes")->type_name("N");
  app.add_option("--data-size", a.data_size, "refuse a *_data section larger than N bytes")->type_name("N");
}

namespace {
uint8_t version_for(const CliArgs& a) {
  if (!a.isa.empty()) return isa::version_from_name(a.isa.c_str());
  const size_t dot = a.source.rfind('.');
  const uint8_t v = dot == std::string::npos ? 0 : isa::version_from_name(a.source.substr(dot + 1).c_str());
  return v ? v : static_cast<uint8_t>(isa::V3);
}
uint32_t size_arg(const std::string& v, const char* opt) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    if (!v.empty() && v[0] != '-') n = std::stoull(v, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || n > 0xffffffffull)
    throw AsmError(std::string(opt) + ": expected a byte count, not '" + v + "'");
  return static_cast<uint32_t>(n);
}
void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  f.close();
  if (!f) throw AsmError(path + ": cannot write");
}
}  // namespace

int run(const CliArgs& a) {
  try {
    Options o;
    o.version = version_for(a);
    if (!a.code_size.empty()) o.code_size = size_arg(a.code_size, "--code-size");
    if (!a.data_size.empty()) o.data_size = size_arg(a.data_size, "--data-size");
    const Program p = assemble(preprocess(a.source, a.include_dirs, a.defines), a.source, o);
    if (a.format == "header") {
      const std::string h = to_header(p);
      if (a.output.empty())
        std::cout << h;
      else
        write_file(a.output, h);
    } else {
      if (a.output.empty()) throw AsmError("--format bin needs -o OUT");
      for (const Section& s : p.sections)
        write_file(p.sections.size() == 1 ? a.output : a.output + "." + s.name,
                   std::string(s.bytes.begin(), s.bytes.end()));
    }
    if (!a.symbols.empty()) write_file(a.symbols, to_symbols(p));
    return 0;
  } catch (const AsmError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}

}  // namespace hetvp::mcu::falcon::as
