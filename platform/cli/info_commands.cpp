// hetvp — the commands that describe hetvp rather than run it: `list`, `schema`, `registers`,
// `stats-doc`, `--version`.
#include <iostream>
#include <string>
#include <vector>

#include "platform/cli/command.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/paths.h"
#include "platform/plugin.h"
#include "platform/program.h"
#include "platform/register_table.h"
#include "platform/registry.h"
#include "platform/schema_json.h"
#include "platform/simulation.h"
#include "platform/stats_doc.h"

namespace hetvp::cli {
namespace {

// One line per parameter of `schema` (groups and list elements indented below their key): the
// same facts the config loader validates against, so this can never disagree with it.
void print_schema(const Schema& schema, const std::string& indent) {
  for (const auto& s : schema.specs) {
    std::string line = indent + s.name + " (" + to_string(s.kind);
    if (!s.choices.empty()) {
      line += ":";
      for (size_t i = 0; i < s.choices.size(); ++i) line += (i ? "|" : " ") + s.choices[i];
    }
    line += ")";
    if (s.required)
      line += " required";
    else if (s.default_text)
      line += " default " + (s.default_text->empty() ? std::string("\"\"") : *s.default_text);
    if (s.min || s.max)
      line += " range " + (s.min ? format("%g", *s.min) : std::string("")) + ".." +
              (s.max ? format("%g", *s.max) : std::string(""));
    std::cout << line << " — " << s.doc << "\n";
    if (s.children) print_schema(*s.children, indent + "  ");
  }
}

int list_command(std::vector<std::string> args) {
  // --plugin LIB.so (repeatable): its types are listed with the built-in ones.
  for (size_t i = 1; i < args.size();) {
    if (args[i] != "--plugin") {
      ++i;
      continue;
    }
    if (i + 1 >= args.size()) return usage_error("--plugin needs a plugin library", main_usage());
    try {
      load_plugin(args[i + 1], "--plugin");
    } catch (const ConfigError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return kExitUsage;
    }
    args.erase(args.begin() + i, args.begin() + i + 2);
  }
  if (args.size() == 2) {  // hetvp list TYPE: a component type's or a host program's parameters
    const std::string& t = args[1];
    if (auto* c = ComponentRegistry::get().find(t)) {
      std::cout << "component type " << t << " — " << c->doc << "\nparameters (ranges in base units: bytes, s, Hz):\n";
      print_schema(*c->schema(), "  ");
      return 0;
    }
    if (auto* p = ProgramRegistry::get().find(t)) {
      std::cout << "host program " << t << " — " << p->doc << "\narguments (workload.args; ranges in base units):\n";
      print_schema(*p->schema(), "  ");
      return 0;
    }
    std::vector<std::string> all = ComponentRegistry::get().names();
    for (auto& n : ProgramRegistry::get().names()) all.push_back(n);
    const std::string near = nearest_name(t, all);
    return usage_error("no component type or host program '" + t + "'" +
                           (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; `hetvp list` names them",
                       main_usage());
  }
  if (args.size() > 2) return usage_error("list takes at most one TYPE", main_usage());
  std::cout << "component types:\n";
  auto from = [](const std::string& origin) { return origin.empty() ? std::string() : " [plugin " + origin + "]"; };
  for (auto& n : ComponentRegistry::get().names())
    std::cout << "  " << n << " — " << ComponentRegistry::get().find(n)->doc
              << from(ComponentRegistry::get().origin(n)) << "\n";
  std::cout << "host programs (workloads):\n";
  for (auto& n : ProgramRegistry::get().names())
    std::cout << "  " << n << " — " << ProgramRegistry::get().find(n)->doc << from(ProgramRegistry::get().origin(n))
              << "\n";
  return 0;
}

int version_command(std::vector<std::string>) {
  std::cout << "hetvp " << HETVP_VERSION << " (" << HETVP_GIT_DESCRIBE << ")\n";
  return 0;
}

int schema_command(std::vector<std::string> args) {  // hetvp schema [--plugin LIB.so]... > hetvp.schema.json
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << "usage: hetvp schema [--plugin LIB.so]...\n  prints a JSON Schema of the configuration format "
                   "(every component type's and program's\n  parameters) for editors: hetvp schema > "
                   "hetvp.schema.json\n";
      return 0;
    }
    if (args[i] != "--plugin" || i + 1 >= args.size())
      return usage_error("schema takes only --plugin LIB.so", main_usage());
    try {
      load_plugin(args[++i], "--plugin");
    } catch (const ConfigError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  std::cout << config_json_schema();
  return 0;
}

int registers_command(std::vector<std::string>) {
  std::cout << registers_markdown();
  return 0;
}

int stats_doc_command(std::vector<std::string> args) {
  if (args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
    std::cout << "usage: hetvp stats-doc [CONFIG]\n  prints every declared statistic (path, kind, unit, description) "
                 "of one instance of\n"
                 "  each component type in CONFIG (default configs/coherence.yaml): docs/stats.md's tables\n";
    return 0;
  }
  if (args.size() > 2) return usage_error("stats-doc takes at most one CONFIG", main_usage());
  return stats_doc_platform(args.size() == 2 ? args[1] : data_dir() + "/configs/coherence.yaml", std::cout,
                            std::cerr);
}

}  // namespace

HETVP_REGISTER_COMMAND("list", 30,
                       "  list [TYPE] [--plugin LIB.so]  list component types and host programs (workloads); with "
                       "TYPE, every parameter\n"
                       "                 of that type or program: kind, default, range, description\n",
                       list_command);
HETVP_REGISTER_COMMAND("--version", 40, "  --version      print hetvp's version\n", version_command);
HETVP_REGISTER_COMMAND("version", 40, "", version_command);  // the same, not listed
HETVP_REGISTER_COMMAND("schema", 70,
                       "  schema         print a JSON Schema of the configuration format (for editors and checkers)\n",
                       schema_command);
HETVP_REGISTER_COMMAND("registers", 80,
                       "  registers      print the register tables of every block (docs/registers.md), from "
                       "firmware/include/hetvp\n",
                       registers_command);
HETVP_REGISTER_COMMAND("stats-doc", 90,
                       "  stats-doc [CONFIG]  print every declared statistic (unit, description) of each component "
                       "type in CONFIG\n"
                       "                 (default configs/coherence.yaml) as docs/stats.md's tables\n",
                       stats_doc_command);

}  // namespace hetvp::cli
