// `hetvp stats-doc [CONFIG]`: every declared statistic (path, kind, unit, description) of every
// component type in CONFIG (default configs/coherence.yaml, which has every type), as
// docs/stats.md's tables. tests/platform/test_stats_docs.cpp checks that the file is current.
#include <map>
#include <set>
#include <sstream>

#include "platform/builder.h"
#include "platform/config.h"
#include "platform/simulation.h"
#include "platform/stats_doc.h"

namespace hetvp {

namespace {
std::string cell(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

// The component type of instance `name` (an array element "x_3" is an instance of "x").
std::string type_of(const Config& cfg, const std::string& name) {
  YAML::Node n = cfg.root[name];
  if (!n) {
    const size_t u = name.rfind('_');
    if (u != std::string::npos) n = cfg.root[name.substr(0, u)];
  }
  return n && n["type"] ? n["type"].as<std::string>() : std::string("?");
}
}  // namespace

std::string stats_markdown(const Builder& b) {
  std::map<std::string, const Component*> first;  // one instance per type, sorted by type
  for (const Component* c : b.components()) first.emplace(type_of(b.config(), c->instance_name()), c);
  std::ostringstream o;
  for (auto& [type, c] : first) {
    o << "### `" << type << "` (e.g. `" << c->instance_name() << "`)\n\n";
    const std::vector<StatInfo> stats = c->stats().list();
    if (stats.empty()) {
      o << "no statistics\n\n";
      continue;
    }
    o << "| stat | kind | unit | what |\n|---|---|---|---|\n";
    for (const StatInfo& s : stats)
      o << "| `" << s.path << "` | " << s.kind << " | " << (s.unit.empty() ? "–" : cell(s.unit)) << " | "
        << cell(s.desc) << " |\n";
    o << "\n";
  }
  return o.str();
}

int stats_doc_platform(const std::string& config, std::ostream& out, std::ostream& err) {
  try {
    Config cfg = Config::load_file(config);
    cfg.validate();
    RunContext run;  // built, never run
    Builder b(cfg, run);
    b.build();
    out << stats_markdown(b);
    return kExitOk;
  } catch (const ConfigError& e) {
    err << "error: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace hetvp
