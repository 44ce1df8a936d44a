#include "platform/config.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "platform/plugin.h"
#include "platform/program.h"
#include "platform/registry.h"
#include "platform/format.h"

namespace hetvp {

namespace {
[[noreturn]] void fail(const ConfigSource& src, const YAML::Node& at, const std::string& path, const std::string& what) {
  throw ConfigError(src.location(at, path) + ": " + (path.empty() ? "" : path + ": ") + what);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// yaml-cpp accepts duplicate keys silently; a user who writes an instance twice must hear of it.
void reject_duplicate_keys(const ConfigSource& src, const YAML::Node& node, const std::string& path) {
  if (node.IsMap()) {
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string key = it->first.Scalar();
      if (!seen.insert(key).second)
        fail(src, it->first, path, "duplicate key '" + key + "'" + (path.empty() ? " (duplicate instance name)" : ""));
      reject_duplicate_keys(src, it->second, path.empty() ? key : path + "." + key);
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) reject_duplicate_keys(src, node[i], path + "[" + std::to_string(i) + "]");
  }
}

std::string fmt_num(double v) {
  std::string buf = format("%g", v);
  return buf;
}

void check_range(const ConfigSource& src, const YAML::Node& n, const ParamSpec& s, const std::string& path, double v,
                 const std::string& shown) {
  if ((s.min && v < *s.min) || (s.max && v > *s.max)) {
    std::string range = "[" + (s.min ? fmt_num(*s.min) : std::string("-inf")) + ", " +
                        (s.max ? fmt_num(*s.max) : std::string("inf")) + "]";
    fail(src, n, path, "value " + shown + " is out of range " + range);
  }
}

// "line:col" (1-based) of a mark; yaml-cpp gives some errors no mark: those are put at 1:1.
std::string mark_text(const YAML::Mark& m) {
  if (m.line < 0 || m.column < 0) return "1:1";
  return std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// A pre-pass over the parse events of a YAML text, before yaml-cpp builds a node tree. yaml-cpp
// resolves an alias by sharing the anchored node, so `&a [*a]` becomes a node that contains itself
// (any recursive walk overflows the stack) and nine levels of eight aliases are 8^9 nodes to any
// walk (a "billion laughs" hang). Here every anchor's size is counted with its aliases expanded; an
// alias to an anchor that is still open is a cycle. Depth and expanded node count are bounded, so
// every later walk of the tree is too. Errors name where: `where(mark)` gives "file:line:col".
class ExpansionGuard : public YAML::EventHandler {
 public:
  explicit ExpansionGuard(std::function<std::string(const YAML::Mark&)> where) : where_(std::move(where)) {}

  void OnDocumentStart(const YAML::Mark&) override {
    anchors_.clear();  // anchors are per document
    stack_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { node(m, a, 1, 0); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t a, const std::string&) override {
    node(m, a, 1, 0);
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override {
    auto it = anchors_.find(a);
    if (it == anchors_.end()) fail(m, "alias to an unknown anchor");  // yaml-cpp rejects these first
    const Anchor& an = it->second;
    if (an.open)
      fail(m, "alias '*" + an.name + "' refers to a node that contains it (anchor '&" + an.name + "' at " +
                  mark_text(an.mark) + "): a recursive alias has no end");
    node(m, 0, an.nodes, an.height, &an);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    open(m, a);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    open(m, a);
  }
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark& m, const std::string& name) override {
    pending_name_ = name;
    pending_mark_ = m;
  }

 private:
  struct Anchor {
    std::string name;
    YAML::Mark mark;
    bool open = true;
    uint64_t nodes = 0;  // expanded size of the anchored node
    int height = 0;      // levels of maps/lists inside it, expanded
  };
  struct Frame {
    YAML::anchor_t anchor;
    uint64_t nodes;
    int height;
  };

  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
    throw ConfigError(where_(m) + ": " + what);
  }

  void name_anchor(const YAML::Mark& m, YAML::anchor_t a) {
    if (!a) return;
    Anchor& an = anchors_[a];  // a redefined name gets a new id from yaml-cpp
    an.name = pending_name_.empty() ? std::to_string(a) : pending_name_;
    an.mark = pending_name_.empty() ? m : pending_mark_;
    pending_name_.clear();
  }
  // A node of `nodes` nodes and `height` levels below it; `alias` when it is an alias expansion.
  void node(const YAML::Mark& m, YAML::anchor_t a, uint64_t nodes, int height, const Anchor* alias = nullptr) {
    name_anchor(m, a);
    const int depth = int(stack_.size()) + height;
    if (depth > ConfigLimits::kMaxDepth)
      fail(m, alias ? "alias '*" + alias->name + "' expands to maps and lists nested deeper than " +
                          std::to_string(ConfigLimits::kMaxDepth) + " levels"
                    : "maps and lists nested deeper than " + std::to_string(ConfigLimits::kMaxDepth) + " levels");
    total_ += nodes;
    if (total_ > ConfigLimits::kMaxNodes)
      fail(m, alias ? "alias '*" + alias->name + "' (anchor at " + mark_text(alias->mark) + ") expands to " +
                          std::to_string(nodes) + " nodes: with aliases expanded the document has more than " +
                          std::to_string(ConfigLimits::kMaxNodes) + " (nested aliases multiply)"
                    : "the document has more than " + std::to_string(ConfigLimits::kMaxNodes) + " nodes");
    if (a) {
      Anchor& an = anchors_[a];
      an.open = false;
      an.nodes = nodes;
      an.height = height;
    }
    if (!stack_.empty()) {
      stack_.back().nodes += nodes;
      stack_.back().height = std::max(stack_.back().height, height + 1);
    }
  }
  void open(const YAML::Mark& m, YAML::anchor_t a) {
    name_anchor(m, a);
    if (int(stack_.size()) >= ConfigLimits::kMaxDepth)
      fail(m, "maps and lists nested deeper than " + std::to_string(ConfigLimits::kMaxDepth) + " levels");
    if (++total_ > ConfigLimits::kMaxNodes)
      fail(m, "the document has more than " + std::to_string(ConfigLimits::kMaxNodes) + " nodes");
    stack_.push_back({a, 1, 1});
  }
  void close() {
    Frame f = stack_.back();
    stack_.pop_back();
    if (f.anchor) {
      Anchor& an = anchors_[f.anchor];
      an.open = false;
      an.nodes = f.nodes;
      an.height = f.height;
    }
    if (!stack_.empty()) {
      stack_.back().nodes += f.nodes;
      stack_.back().height = std::max(stack_.back().height, f.height + 1);
    }
  }

  std::function<std::string(const YAML::Mark&)> where_;
  std::map<YAML::anchor_t, Anchor> anchors_;
  std::vector<Frame> stack_;
  uint64_t total_ = 0;
  std::string pending_name_;
  YAML::Mark pending_mark_;
};

// Runs the guard over every document of `text`; syntax errors come out as ConfigErrors too.
void guard_expansion(const std::string& text, const std::function<std::string(const YAML::Mark&)>& where) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  ExpansionGuard guard(where);
  try {
    while (parser.HandleNextDocument(guard)) {
    }
  } catch (const YAML::Exception& e) {
    throw ConfigError(where(e.mark) + ": YAML syntax error: " + e.msg);
  }
}

// yaml-cpp 0.7's LoadAll never returns when a document starts with a token it cannot begin a
// node with (a stray ',' at block level: ",\n" or a line ",# ..." after a comment block): the
// parser reports a document without consuming the token, again and again, and memory grows
// without bound (found by tests/fuzz/fuzz_yaml.cpp). This pass walks the documents with events
// only and stops, naming the place, when a document starts where the previous one did.
struct DocumentProgress : YAML::EventHandler {
  std::optional<YAML::Mark> last, stuck;
  void OnDocumentStart(const YAML::Mark& m) override {
    if (last && last->pos == m.pos) stuck = m;
    last = m;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

[[noreturn]] void fail_stuck(const std::string& text, const std::string& name, const YAML::Mark& at) {
  throw ConfigError(name + ":" + std::to_string(at.line + 1) + ":" + std::to_string(at.column + 1) +
                    ": YAML syntax error: unexpected '" + text.substr(std::min<size_t>(at.pos, text.size()), 1) +
                    "' where a value should start");
}

void check_documents_end(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentProgress p;
  try {
    while (!p.stuck && parser.HandleNextDocument(p)) {
    }
  } catch (const YAML::Exception&) {
    return;  // a syntax error before any stuck document: the later passes report it, located
  }
  if (p.stuck) fail_stuck(text, name, *p.stuck);
}

// Every event to two handlers, in order.
struct BothHandlers : YAML::EventHandler {
  BothHandlers(YAML::EventHandler& a, YAML::EventHandler& b) : a(a), b(b) {}
  // Every event goes to both handlers, in order.
  template <class... P, class... A>
  void both(void (YAML::EventHandler::*event)(P...), const A&... args) {
    (a.*event)(args...);
    (b.*event)(args...);
  }
  using H = YAML::EventHandler;
  void OnDocumentStart(const YAML::Mark& m) override { both(&H::OnDocumentStart, m); }
  void OnDocumentEnd() override { both(&H::OnDocumentEnd); }
  void OnNull(const YAML::Mark& m, YAML::anchor_t an) override { both(&H::OnNull, m, an); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t an) override { both(&H::OnAlias, m, an); }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t an, const std::string& v) override {
    both(&H::OnScalar, m, tag, an, v);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t an,
                       YAML::EmitterStyle::value st) override {
    both(&H::OnSequenceStart, m, tag, an, st);
  }
  void OnSequenceEnd() override { both(&H::OnSequenceEnd); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t an,
                  YAML::EmitterStyle::value st) override {
    both(&H::OnMapStart, m, tag, an, st);
  }
  void OnMapEnd() override { both(&H::OnMapEnd); }
  void OnAnchor(const YAML::Mark& m, const std::string& n) override { both(&H::OnAnchor, m, n); }
  YAML::EventHandler& a;
  YAML::EventHandler& b;
};

// check_documents_end and then guard_expansion, in one parse of the text (#31: yaml-cpp's scanner
// is the cost of a pass, ~2 % of a short run) with the same results: a stuck document is reported
// first, wherever the guard stops, and a syntax error as guard_expansion reports it.
void check_events(const std::string& text, const std::string& name,
                  const std::function<std::string(const YAML::Mark&)>& where) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentProgress progress;
  ExpansionGuard guard(where);
  BothHandlers both(progress, guard);
  try {
    while (!progress.stuck && parser.HandleNextDocument(both)) {
    }
  } catch (const ConfigError&) {
    check_documents_end(text, name);  // a stuck document after the guard's stop still comes first
    throw;
  } catch (const YAML::Exception& e) {
    throw ConfigError(where(e.mark) + ": YAML syntax error: " + e.msg);
  }
  if (progress.stuck) fail_stuck(text, name, *progress.stuck);
}

Config parse(const std::string& text, const std::string& name) {
  Config c;
  c.file = name;
  c.source->file = name;
  if (text.size() > ConfigLimits::kMaxBytes)
    throw ConfigError(name + ":1:1: the file is larger than " + std::to_string(ConfigLimits::kMaxBytes >> 10) +
                      " KiB, the most a configuration may be");
  // The stuck-document check first (the other passes would loop on such a document), then the guard.
  check_events(text, name, [&](const YAML::Mark& m) { return name + ":" + mark_text(m); });
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": YAML syntax error: " + e.msg);
  }
  // yaml-cpp ends the document at a line indented less than the first key and starts another:
  // reading only the first would silently drop the rest of the file.
  for (size_t i = 1; i < docs.size(); ++i)
    if (docs[i] && !docs[i].IsNull())
      fail(*c.source, docs[i], "",
           "a second YAML document starts here; a configuration is one document "
           "(is this line indented less than the first key of the file?)");
  if (!docs.empty()) c.root = docs[0];
  if (!c.root || c.root.IsNull()) {
    const bool at_node = c.root && !c.root.Mark().is_null() && c.root.Mark().line >= 0;
    throw ConfigError(name + ":" + (at_node ? mark_text(c.root.Mark()) : std::string("1:1")) +
                      ": the configuration is empty (no instances)");
  }
  if (!c.root.IsMap()) fail(*c.source, c.root, "", "the top level must be a map of instances");
  reject_duplicate_keys(*c.source, c.root, "");
  return c;
}
}  // namespace

std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  std::string best;
  size_t best_d = std::string::npos;
  for (auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (!best.empty() && best_d <= std::max<size_t>(2, word.size() / 3)) return best;
  // A word that starts with a candidate ("memory" for "mem") is a likely slip too.
  for (auto& c : candidates)
    if (c.size() >= 3 && (word.rfind(c, 0) == 0 || c.rfind(word, 0) == 0)) return c;
  return "";
}

Config Config::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open the configuration file");
  // At most one byte more than the limit: a huge file, a device or a pipe is never read whole.
  // Read in pieces rather than into a zero-filled buffer of the limit: a 5 KiB file would cost a
  // 1 MiB allocation and its page faults on every run (#31).
  const size_t limit = ConfigLimits::kMaxBytes + 1;
  std::string text;
  char piece[16384];
  while (text.size() < limit && in) {
    in.read(piece, std::streamsize(std::min(sizeof piece, limit - text.size())));
    text.append(piece, size_t(in.gcount()));
  }
  if (in.bad()) throw ConfigError(path + ": cannot read the configuration file");
  // YAML text holds no NUL byte (YAML 1.2, 5.1): one means a binary file (an ELF, an image) was given.
  const size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw ConfigError(path + ": is a binary file (a NUL byte at offset " + std::to_string(nul) +
                      "), not a YAML configuration file");
  return parse(text, path);
}

Config Config::load_string(const std::string& text, const std::string& name) {
  return parse(text, name);
}

void Config::apply_override(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + assignment + ": expected PATH=VALUE (e.g. --set pcie.lanes=8)");
  std::string path = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  source->overridden.insert(path);
  // The path's steps: map keys, and list indexes written `[i]` after a key (#42: host_bus.map[0].size).
  struct Step {
    std::string key;  // empty for an index
    size_t index = 0;
  };
  std::vector<Step> steps;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) {
    const size_t bracket = k.find('[');
    if (bracket == 0 || k.empty()) throw ConfigError("--set " + assignment + ": empty path component");
    steps.push_back({k.substr(0, bracket), 0});
    for (size_t b = bracket; b != std::string::npos; b = k.find('[', b)) {
      const size_t close = k.find(']', b);
      const std::string digits = close == std::string::npos ? "" : k.substr(b + 1, close - b - 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9 ||
          (close + 1 < k.size() && k[close + 1] != '['))
        throw ConfigError("--set " + assignment + ": '" + k + "': a list index is written [N], N a number");
      steps.push_back({"", static_cast<size_t>(std::stoul(digits))});
      b = close + 1;
    }
  }
  YAML::Node parsed;
  guard_expansion(value, [&](const YAML::Mark&) { return file + " (--set " + path + ")"; });
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + assignment + ": value is not valid YAML: " + e.msg);
  }
  // Walk down, creating maps where a key is absent (never list entries). yaml-cpp nodes are references.
  YAML::Node cur = root;
  std::string walked;  // the path so far, for the messages
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& st = steps[i];
    const bool last = i + 1 == steps.size();
    if (st.key.empty()) {
      if (!cur.IsSequence())
        throw ConfigError("--set " + assignment + ": '" + walked + "' is not a list");
      if (st.index >= cur.size())
        throw ConfigError("--set " + assignment + ": '" + walked + "' has " + std::to_string(cur.size()) +
                          " entries" + (cur.size() ? " (0.." + std::to_string(cur.size() - 1) + ")" : ""));
      walked += "[" + std::to_string(st.index) + "]";
      if (last) {
        cur[st.index] = parsed;
        return;
      }
      YAML::Node next = cur[st.index];
      cur.reset(next);
      continue;
    }
    if (!cur.IsMap())
      throw ConfigError("--set " + assignment + ": " +
                        (i ? "the parent of '" + st.key + "' ('" + walked + "')" : std::string("<root>")) +
                        " is not a map");
    walked += (walked.empty() ? "" : ".") + st.key;
    if (last) {
      cur[st.key] = parsed;
      return;
    }
    YAML::Node next = cur[st.key];
    if (!next || next.IsNull()) {
      if (i == 0 && st.key != "simulation" && st.key != "workload") {  // the sections are optional
        std::string near = nearest_name(st.key, instance_names());
        throw ConfigError("--set " + assignment + ": no instance or section named '" + st.key + "'" +
                          (near.empty() ? "" : " (did you mean '" + near + "'?)"));
      }
      if (!steps[i + 1].key.empty()) {
        cur[st.key] = YAML::Node(YAML::NodeType::Map);
        next = cur[st.key];
      }
    }
    cur.reset(next);
  }
}

std::vector<std::string> Config::instance_names() const {
  std::vector<std::string> names;
  for (auto it = root.begin(); it != root.end(); ++it) {
    std::string k = it->first.Scalar();
    if (k != "simulation" && k != "workload" && k != "plugins") names.push_back(k);
  }
  return names;
}

std::shared_ptr<const Schema> Config::simulation_schema() {
  static const std::shared_ptr<const Schema> s = SimulationConfig{}.schema();
  return s;
}

std::shared_ptr<const Schema> Config::workload_schema() {
  static const std::shared_ptr<const Schema> s = WorkloadConfig{}.schema();
  return s;
}

SimulationConfig Config::simulation() const {
  const YAML::Node& r = root;
  return load<SimulationConfig>(Params(r["simulation"] ? r["simulation"] : YAML::Node(YAML::NodeType::Map),
                                       simulation_schema(), "simulation", source));
}
WorkloadConfig Config::workload() const {
  const YAML::Node& r = root;
  return load<WorkloadConfig>(
      Params(r["workload"] ? r["workload"] : YAML::Node(YAML::NodeType::Map), workload_schema(), "workload", source));
}

Schema instance_schema(const Schema& own) {
  Schema full = own;
  if (own.find("log") || own.find("trace") || own.find("count") || own.find("connect") || own.find("type"))
    throw std::logic_error(
        "hetvp: a component schema declares a key every instance has (type, count, connect, "
        "doc, log, trace)");
  full.string("type", std::nullopt, "component type");
  full.integer("count", 1, "number of instances (an array named name_0 .. name_{count-1})").range(1, 4096);
  auto connect = std::make_shared<Schema>();
  connect->open = true;
  full.group("connect", connect, "port bindings: port: instance[.port]");
  full.string("doc", std::string(""), "free text");
  full.choice("log", {"error", "warning", "info", "debug"}, std::nullopt,
              "this instance's log level (default: the run's --log-level)");
  full.boolean("trace", false, "trace this instance with --trace (when any instance sets it, only those are traced)");
  return full;
}

ConfigError::ConfigError(const std::vector<std::string>& all)
    : std::runtime_error([&] {
        std::string s;
        for (const auto& m : all) s += (s.empty() ? "" : "\nerror: ") + m;
        return s;
      }()),
      all_(all) {}

ConfigDiagnostic diagnose(const std::string& message) {
  ConfigDiagnostic d;
  d.message = message;
  // "FILE (--set PATH): ..." (a value given on the command line)
  size_t set = message.find(" (--set");
  size_t colon = message.find(": ");
  if (set != std::string::npos && (colon == std::string::npos || set < colon)) {
    d.file = message.substr(0, set);
    return d;
  }
  if (colon == std::string::npos) return d;
  // "FILE:LINE:COL: ..." — the last two ':'-separated fields before ": " are numbers.
  const std::string head = message.substr(0, colon);
  size_t c2 = head.rfind(':');
  size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : head.rfind(':', c2 - 1);
  auto digits = [](const std::string& t) { return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos; };
  if (c1 != std::string::npos && digits(head.substr(c1 + 1, c2 - c1 - 1)) && digits(head.substr(c2 + 1))) {
    d.file = head.substr(0, c1);
    auto num = [](const std::string& t) {  // digits only; clamped (a file name may hold any)
      const unsigned long long v = std::strtoull(t.c_str(), nullptr, 10);
      return v > unsigned(INT_MAX) ? INT_MAX : int(v);
    };
    d.line = num(head.substr(c1 + 1, c2 - c1 - 1));
    d.col = num(head.substr(c2 + 1));
  } else if (head.find(' ') == std::string::npos) {
    d.file = head;  // "FILE: ..." (a file that cannot be read, a plugin)
  }
  return d;
}

void validate_node(const YAML::Node& node, const Schema& schema, const std::string& path, const ConfigSource& src,
                   Diagnostics& diags) {
  if (!node.IsMap()) fail(src, node, path, "expected a map of parameters");
  for (auto it = node.begin(); it != node.end(); ++it) diags.collect([&] {
    std::string key = it->first.Scalar();
    const ParamSpec* s = schema.find(key);
    if (!s) {
      for (const auto& [old_key, where] : schema.moved)
        if (old_key == key) fail(src, it->first, path + "." + key, "'" + key + "' is no longer set here: " + where);
      if (schema.open) return;
      std::string near = nearest_name(key, schema.names());
      fail(src, it->first, path + "." + key,
           "unknown key '" + key + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    const YAML::Node v = it->second;  // a copy: it-> yields a temporary proxy
    std::string p = path + "." + key;
    if (s->kind == ParamKind::Any) return;
    if (s->kind == ParamKind::Group) {
      validate_node(v, *s->children, p, src, diags);
      return;
    }
    if (s->kind == ParamKind::List) {
      if (!v.IsSequence()) fail(src, v, p, std::string("expected a list"));
      for (size_t i = 0; i < v.size(); ++i) validate_node(v[i], *s->children, p + "[" + std::to_string(i) + "]", src, diags);
      return;
    }
    if (!v.IsScalar())
      fail(src, v, p,
           std::string("expected a ") + to_string(s->kind) + ", got a " +
               (v.IsMap()        ? "map"
                : v.IsSequence() ? "list"
                                 : "null value"));
    const std::string& t = v.Scalar();
    try {
      switch (s->kind) {
        case ParamKind::Int: {
          const int64_t n = parse_int(t);
          check_range(src, v, *s, p, static_cast<double>(n), t);
          if (!s->choices.empty() && std::none_of(s->choices.begin(), s->choices.end(),
                                                  [&](const std::string& c) { return parse_int(c) == n; })) {
            std::string list;
            for (auto& c : s->choices) list += (list.empty() ? "" : ", ") + c;
            fail(src, v, p, "'" + t + "' is not one of: " + list);
          }
          break;
        }
        case ParamKind::Double:
          check_range(src, v, *s, p, parse_double(t), t);
          break;
        case ParamKind::Bool:
          parse_bool(t);
          break;
        case ParamKind::String:
          break;
        case ParamKind::Size:
          check_range(src, v, *s, p, static_cast<double>(parse_size(t)), t);
          break;
        case ParamKind::Time:
          check_range(src, v, *s, p, parse_time(t).to_seconds(), t);
          break;
        case ParamKind::Freq:
          check_range(src, v, *s, p, parse_freq(t), t);
          break;
        case ParamKind::Enum:
          if (std::find(s->choices.begin(), s->choices.end(), t) == s->choices.end()) {
            std::string list;
            for (auto& c : s->choices) list += (list.empty() ? "" : ", ") + c;
            std::string near = nearest_name(t, s->choices);
            fail(src, v, p, "'" + t + "' is not one of: " + list + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
          }
          break;
        default:
          break;
      }
    } catch (const std::invalid_argument& e) {
      fail(src, v, p, std::string("expected a ") + to_string(s->kind) + ": " + e.what());
    } catch (const std::out_of_range&) {
      fail(src, v, p, "'" + t + "' is too large");
    }
  });
  for (auto& s : schema.specs) {
    const YAML::Node& c = node;
    if (s.required && !c[s.name])
      diags.collect([&] { fail(src, node, path, "missing required key '" + s.name + "' (" + s.doc + ")"); });
  }
}

namespace {
// A copy of `node` (a map) with every default of `schema` filled in, recursively.
YAML::Node fill_defaults(const YAML::Node& node, const Schema& schema) {
  YAML::Node out(YAML::NodeType::Map);
  if (node && node.IsMap())
    for (auto it = node.begin(); it != node.end(); ++it) out[it->first.Scalar()] = YAML::Clone(it->second);
  for (const auto& s : schema.specs) {
    const YAML::Node& view = out;  // const: looking does not insert the key
    YAML::Node given = view[s.name];
    const bool present = given && !given.IsNull();
    if (s.kind == ParamKind::Group) {
      if (present || s.resolve_default) out[s.name] = fill_defaults(present ? given : YAML::Node(), *s.children);
    } else if (s.kind == ParamKind::List) {
      if (present && given.IsSequence()) {
        YAML::Node l(YAML::NodeType::Sequence);
        for (size_t i = 0; i < given.size(); ++i) l.push_back(fill_defaults(given[i], *s.children));
        out[s.name] = l;
      }
    } else if (!present && s.default_text && s.resolve_default) {
      out[s.name] = *s.default_text;
    }
  }
  return out;
}
}  // namespace

YAML::Node Config::resolved() const {
  YAML::Node out(YAML::NodeType::Map);
  const YAML::Node& r = root;
  if (r["plugins"] && r["plugins"].IsSequence()) {  // absolute: the resolved file may live elsewhere
    const auto slash = file.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
    YAML::Node l(YAML::NodeType::Sequence);
    for (size_t i = 0; i < r["plugins"].size(); ++i) {
      const std::string f = r["plugins"][i].Scalar();
      char buf[PATH_MAX];
      const std::string rel = f.empty() || f[0] == '/' ? f : dir + f;
      l.push_back(realpath(rel.c_str(), buf) ? std::string(buf) : rel);
    }
    out["plugins"] = l;
  }
  out["simulation"] = fill_defaults(r["simulation"], *simulation_schema());
  YAML::Node w = fill_defaults(r["workload"], *workload_schema());
  if (const ProgramType* prog = ProgramRegistry::get().find(w["name"].Scalar()))
    w["args"] = fill_defaults(w["args"], *prog->schema());
  out["workload"] = w;
  for (const auto& name : instance_names()) {
    const YAML::Node inst = r[name];
    const ComponentType* ct = ComponentRegistry::get().find(inst["type"].Scalar());
    out[name] = ct ? fill_defaults(inst, *ct->schema()) : YAML::Clone(inst);
  }
  return out;
}

void Config::load_plugins() const {
  const YAML::Node& r = root;
  const YAML::Node& list = r["plugins"];
  if (!list) return;
  if (!list.IsSequence())
    fail(*source, list, "plugins", "expected a list of plugin libraries, e.g. [build/libmine.so] (paths relative to this file)");
  const auto slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node& item = list[i];
    const std::string path = "plugins[" + std::to_string(i) + "]";
    if (!item.IsScalar() || item.Scalar().empty()) fail(*source, item, path, "expected the file name of a plugin library");
    const std::string f = item.Scalar();
    load_plugin(f[0] == '/' ? f : dir + f, location(item, "plugins") + ": " + path);
  }
}

// Appended to "unknown workload" and "unknown component type": a name that is none of hetvp's
// own may come from a plugin that was not loaded.
constexpr const char* kPluginHint = "; did you load the plugin? (--plugin FILE or plugins: in the YAML)";

void Config::validate() const {
  load_plugins();
  check_registrations();
  // Every independent part is checked even after an error: `hetvp check` lists them all (up to
  // Diagnostics::kMaxErrors), not only the first.
  Diagnostics diags;
  const YAML::Node& r = root;
  if (r["simulation"])
    diags.collect([&] { validate_node(r["simulation"], *simulation_schema(), "simulation", *source, diags); });
  if (r["workload"]) diags.collect([&] { validate_node(r["workload"], *workload_schema(), "workload", *source, diags); });
  std::string cpu;
  diags.collect([&] {
    // The workload must exist and its arguments must fit its schema.
    const WorkloadConfig w = workload();
    cpu = w.cpu();
    const ProgramType* prog = ProgramRegistry::get().find(w.name());
    if (!prog) {
      std::string near = nearest_name(w.name(), ProgramRegistry::get().names());
      fail(*source, w.name.given() ? w.name.value_node() : root, "workload.name",
           "unknown workload '" + w.name() + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
               "; known: " + [] {
                 std::string l;
                 for (auto& n : ProgramRegistry::get().names()) l += (l.empty() ? "" : ", ") + n;
                 return l;
               }() + kPluginHint);
    }
    // validate_node collects the arguments' errors and goes on; the program's own check reads
    // the values, so it runs only on arguments that passed (an unparsable size would throw there).
    const size_t errors_before = diags.count();
    if (w.args) validate_node(w.args.node(), *prog->schema(), "workload.args", *source, diags);
    if (diags.count() != errors_before) return;
    if (prog->validate)
      prog->validate(Params(w.args ? w.args.node() : YAML::Node(YAML::NodeType::Map), prog->schema(),
                            "workload.args", source),
                     diags);
  });

  bool cpu_found = false;
  for (auto it = r.begin(); it != r.end(); ++it) {
    std::string name = it->first.Scalar();
    if (name == "simulation" || name == "workload" || name == "plugins") continue;
    if (name == cpu) cpu_found = true;
    diags.collect([&] {
      if (name.empty()) fail(*source, it->first, "", "an instance needs a name (this key is empty)");
      const YAML::Node inst = it->second;  // a copy: it-> yields a temporary proxy
      if (!inst.IsMap()) fail(*source, inst, name, "an instance must be a map with at least 'type'");
      if (!inst["type"]) {
        std::string near = nearest_name(name, ComponentRegistry::get().names());
        fail(*source, it->first, name,
             "missing required key 'type'" + (near.empty() ? "" : " (is this meant to be a '" + near + "'?)"));
      }
      std::string type = inst["type"].Scalar();
      const ComponentType* ct = ComponentRegistry::get().find(type);
      if (!ct) {
        std::string near = nearest_name(type, ComponentRegistry::get().names());
        std::string built;  // an RTL block that was not built: say which are (docs/rtl_blocks.md)
        for (auto& n : ComponentRegistry::get().names())
          if (n.rfind("rtl.", 0) == 0) built += (built.empty() ? "" : ", ") + n;
        fail(*source, inst["type"], name + ".type",
             "unknown component type '" + type + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                 (type.rfind("rtl.", 0) == 0 ? "; RTL blocks built into this hetvp (hetvp_add_rtl_block): " +
                                                   (built.empty() ? std::string("none") : built) + kPluginHint
                                             : std::string(kPluginHint)));
      }
      // Generic keys every instance may carry, then the type's own schema; the type's
      // cross-field rules read the values, so they run only on a block that passed.
      const size_t errors_before = diags.count();
      const auto schema = std::make_shared<Schema>(instance_schema(*ct->schema()));
      validate_node(inst, *schema, name, *source, diags);
      if (ct->validate && diags.count() == errors_before) ct->validate(Params(inst, schema, name, source), diags);
      if (inst["connect"] && !inst["connect"].IsMap())
        fail(*source, inst["connect"], name + ".connect", "expected a map port: target");
    });
  }
  if (!cpu_found && !cpu.empty())
    diags.collect([&] {
      const WorkloadConfig w = workload();
      fail(*source, w.cpu.given() ? w.cpu.value_node() : root, "workload.cpu", "no instance named '" + cpu + "' runs the workload");
    });
  diags.throw_if_any(source->file);
}

}  // namespace hetvp
