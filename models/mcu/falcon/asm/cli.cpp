// hetvp — `hetvp falcon-as` (cli.h).
#include "models/mcu/falcon/asm/cli.h"

#include <fstream>
#include <iostream>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/mcu/falcon/asm/assembler.h"
#include "models/mcu/falcon/asm/isa_forms.h"

namespace hetvp::mcu::falcon::as {

const char* const kUsage =
    "usage: hetvp falcon-as SRC [-I DIR]... [-D NAME[=VALUE]]... [--isa fuc0|fuc3|fuc4|fuc5]\n"
    "                       [--format header|bin] [-o OUT] [--symbols FILE] [--code-size N] [--data-size N]\n"
    "                       [--chip CHIP [--unit hub|gpc]]";
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
  app.add_option("--chip", a.chip,
                 "limit *_code / *_data sections to that chip's context-controller memories (gf100 gf117 "
                 "gk104 gk110 gk208; --code-size / --data-size override); its Falcon version unless --isa "
                 "or the suffix says")
      ->type_name("CHIP");
  app.add_option("--unit", a.unit, "with --chip: whose memories (default: the source's name, hub* or gpc*)")
      ->check(CLI::IsMember({"hub", "gpc"}))
      ->type_name("hub|gpc");
}

namespace {
std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
// --chip: the row of gpu_chips.h (nullptr without --chip); an unknown name is an error naming the known.
const GpuChip* chip_for(const CliArgs& a) {
  if (a.chip.empty()) return nullptr;
  if (const GpuChip* c = find_gpu_chip(a.chip)) return c;
  std::string known;
  for (unsigned i = 0; i < gpu_chip_count(); ++i) known += std::string(i ? ", " : "") + gpu_chips_begin()[i].name;
  throw AsmError("--chip " + a.chip + ": not a chip hetvp knows (" + known + ")");
}
uint8_t version_for(const CliArgs& a, const GpuChip* chip) {
  if (!a.isa.empty()) return isa::version_from_name(a.isa.c_str());
  const size_t dot = a.source.rfind('.');
  const uint8_t v = dot == std::string::npos ? 0 : isa::version_from_name(a.source.substr(dot + 1).c_str());
  if (v) return v;
  if (chip) return isa::version_from_name(("fuc" + std::to_string(chip->fuc)).c_str());
  return static_cast<uint8_t>(isa::V3);
}
// --chip's limits: the HUB's or a GPC's code and data memories (gpu_chips.h's columns, from envytools
// docs/hw/graph/fermi/ctxctl/intro.rst; GF100's agree with Fujii 2013 Table II: HUB 16 KiB / 4 KiB,
// GPC 8 KiB / 2 KiB), unless --code-size / --data-size give one.
void chip_limits(const CliArgs& a, const GpuChip& chip, Options& o) {
  std::string unit = a.unit;
  if (unit.empty()) {
    const std::string b = base_name(a.source);
    unit = b.compare(0, 3, "hub") == 0 ? "hub" : b.compare(0, 3, "gpc") == 0 ? "gpc" : "";
    if (unit.empty())
      throw AsmError("--chip " + a.chip + ": say whose memories with --unit hub|gpc (the source's name '" + b +
                     "' starts with neither 'hub' nor 'gpc')");
  }
  const bool hub = unit == "hub";
  const std::string who = std::string(chip.name) + (hub ? " HUB" : " GPC");
  if (!o.code_size) {
    o.code_size = hub ? chip.hub_code : chip.gpc_code;
    o.code_size_from = who + " code memory, --chip " + a.chip;
  }
  if (!o.data_size) {
    o.data_size = hub ? chip.hub_data : chip.gpc_data;
    o.data_size_from = who + " data memory, --chip " + a.chip;
  }
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
    const GpuChip* chip = chip_for(a);
    if (!a.unit.empty() && !chip) throw AsmError("--unit " + a.unit + " needs --chip CHIP");
    o.version = version_for(a, chip);
    if (!a.code_size.empty()) o.code_size = size_arg(a.code_size, "--code-size");
    if (!a.data_size.empty()) o.data_size = size_arg(a.data_size, "--data-size");
    if (chip) chip_limits(a, *chip, o);
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
