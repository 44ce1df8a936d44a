// hetvp — the commands that describe hetvp rather than run it: `list`, `schema`, `registers`,
// `stats-doc`, `--version`.
#include <iostream>
#include <string>
#include <vector>

#include "platform/cli/command.h"
#include "platform/config.h"
#include "platform/debug.h"
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

// --plugin LIB.so (repeatable) of `list` and `schema`: their types are listed with the built-in ones.
bool load_plugins(const std::vector<std::string>& plugins) {
  for (const std::string& p : plugins) {
    try {
      load_plugin(p, "--plugin");
    } catch (const ConfigError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

void add_plugin_option(CLI::App& app, std::vector<std::string>& plugins) {
  app.add_option("--plugin", plugins, "load a plugin library first; its types are listed too (repeatable)")
      ->type_name("LIB.so")
      ->allow_extra_args(false);
}

int list_command(std::vector<std::string> args) {
  auto app = make_parser("usage: hetvp list [TYPE] [--plugin LIB.so]...",
                         "  lists the component types and host programs (workloads); with TYPE, every parameter of\n"
                         "  that type or program: kind, default, range, description; `list debug-flags`: the debug\n"
                         "  categories of --debug-flags\n");
  std::string t;
  std::vector<std::string> plugins;
  app->add_option("TYPE", t, "a component type or host program")->type_name("");
  add_plugin_option(*app, plugins);
  if (int parsed = parse_args(*app, args); parsed >= 0) return parsed;
  if (!load_plugins(plugins)) return kExitUsage;
  if (t == "debug-flags") return list_debug_flags(std::cout);
  if (!t.empty()) {  // hetvp list TYPE: a component type's or a host program's parameters
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
    std::cerr << "error: no component type or host program '" << t << "'"
              << (near.empty() ? "" : " (did you mean '" + near + "'?)") << "; `hetvp list` names them\n";
    return kExitUsage;
  }
  std::cout << "component types:\n";
  auto from = [](const std::string& origin) { return origin.empty() ? std::string() : " [plugin " + origin + "]"; };
  for (auto& n : ComponentRegistry::get().names())
    std::cout << "  " << n << " — " << ComponentRegistry::get().find(n)->doc
              << from(ComponentRegistry::get().origin(n)) << "\n";
  // The experiments first; the programs that exist for the test suite apart, after them.
  for (bool tests : {false, true}) {
    std::cout << (tests ? "test programs (used by the test suite, not experiments):\n" : "host programs (workloads):\n");
    for (auto& n : ProgramRegistry::get().names()) {
      const ProgramType* p = ProgramRegistry::get().find(n);
      if (p->test_only == tests) std::cout << "  " << n << " — " << p->doc << from(ProgramRegistry::get().origin(n)) << "\n";
    }
  }
  return 0;
}

}  // namespace

// `hetvp list debug-flags`, `hetvp run --debug-flags help`: the categories of platform/debug.h.
int list_debug_flags(std::ostream& out) {
  out << "debug categories (hetvp run CONFIG --debug-flags A,B; `all` for every one; --set X.log=debug: every\n"
         "category of instance X; -vv: every category everywhere):\n";
  for (DebugFlag f : DebugLog::all()) out << "  " << DebugLog::name(f) << " — " << DebugLog::doc(f) << "\n";
  return 0;
}

namespace {

int version_command(std::vector<std::string> args) {
  auto app = make_parser("usage: hetvp --version", "  prints hetvp's version and the git commit it was built from\n");
  if (int parsed = parse_args(*app, args); parsed >= 0) return parsed;
  std::cout << "hetvp " << HETVP_VERSION << " (" << HETVP_GIT_DESCRIBE << ")\n";
  return 0;
}

int schema_command(std::vector<std::string> args) {  // hetvp schema [--plugin LIB.so]... > hetvp.schema.json
  auto app = make_parser("usage: hetvp schema [--plugin LIB.so]...",
                         "  prints a JSON Schema of the configuration format (every component type's and program's\n"
                         "  parameters) for editors: hetvp schema > hetvp.schema.json\n");
  std::vector<std::string> plugins;
  add_plugin_option(*app, plugins);
  if (int parsed = parse_args(*app, args); parsed >= 0) return parsed;
  if (!load_plugins(plugins)) return kExitUsage;
  std::cout << config_json_schema();
  return 0;
}

int registers_command(std::vector<std::string> args) {
  auto app = make_parser("usage: hetvp registers",
                         "  prints the register tables of every block as Markdown (docs/registers.md), from the C\n"
                         "  headers under firmware/include/hetvp\n");
  if (int parsed = parse_args(*app, args); parsed >= 0) return parsed;
  std::cout << registers_markdown();
  return 0;
}

int stats_doc_command(std::vector<std::string> args) {
  auto app = make_parser("usage: hetvp stats-doc [CONFIG]",
                         "  prints every declared statistic (path, kind, unit, description) of one instance of\n"
                         "  each component type in CONFIG (default configs/coherence.yaml): docs/stats.md's tables\n");
  std::string config = data_dir() + "/configs/coherence.yaml";
  app->add_option("CONFIG", config, "the configuration (default: the shipped coherence.yaml)")->type_name("");
  if (int parsed = parse_args(*app, args); parsed >= 0) return parsed;
  const std::string found = find_config(config);
  return stats_doc_platform(found.empty() ? config : found, std::cout, std::cerr);
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
