// Parameter schemas and validated parameter views.
//
// Every component type declares a Schema: the keys its YAML block may hold, their kinds
// (integer, size "4 KiB", time "250 ns", frequency "1.4 GHz", enum, nested group, list of
// groups), defaults, ranges and one line of documentation. The config loader validates a
// YAML block against the schema before anything is built, so a component constructor reads
// its parameters through a Params view that cannot fail.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <systemc>
#include <yaml-cpp/yaml.h>

namespace hetvp {

enum class ParamKind { Int, Double, Bool, String, Size, Time, Freq, Enum, Group, List, Any };

const char* to_string(ParamKind k);

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Int;
  std::string doc;
  std::optional<std::string> default_text;  // YAML scalar text used when the key is absent
  bool required = false;
  std::optional<double> min, max;           // numeric range (in base units: bytes, seconds, Hz)
  std::vector<std::string> choices;         // Enum: the allowed words; Int: the allowed numbers (allowed())
  std::shared_ptr<struct Schema> children;  // Group, List element
  bool resolve_default = true;              // false: the resolved tree (Config::resolved) leaves it out
};

// A schema is an ordered list of parameter specs. Built fluently:
//   Schema s; s.integer("lanes", 16, "link width").range(1, 32);
struct Schema {
  std::vector<ParamSpec> specs;
  bool open = false;  // accept keys not declared (used for free-form maps)
  // Keys that used to be here: key -> where it went. Using one is a located error saying so.
  std::vector<std::pair<std::string, std::string>> moved;
  void moved_to(const std::string& key, const std::string& where) { moved.emplace_back(key, where); }

  struct Ref {
    ParamSpec& spec;
    Ref& range(double lo, double hi) {
      spec.min = lo;
      spec.max = hi;
      return *this;
    }
    Ref& min(double lo) {
      spec.min = lo;
      return *this;
    }
    // An integer that takes only these values (a link width, a payload size): read with
    // Params::integer/u32 like any integer, never as text.
    Ref& allowed(std::initializer_list<int64_t> values) {
      spec.choices.clear();
      for (int64_t v : values) spec.choices.push_back(std::to_string(v));
      return *this;
    }
    // Giving this key means more than its default (a model checks Params::has): the resolved
    // configuration (Config::resolved, --dump-config) does not write the default in.
    Ref& only_when_given() {
      spec.resolve_default = false;
      return *this;
    }
    Ref& required() {
      spec.required = true;
      spec.default_text.reset();
      return *this;
    }
  };

  Ref add(const std::string& name, ParamKind kind, std::optional<std::string> def, const std::string& doc);
  Ref integer(const std::string& name, std::optional<int64_t> def, const std::string& doc);
  Ref real(const std::string& name, std::optional<double> def, const std::string& doc);
  Ref boolean(const std::string& name, bool def, const std::string& doc);
  Ref string(const std::string& name, std::optional<std::string> def, const std::string& doc);
  Ref size(const std::string& name, std::optional<std::string> def, const std::string& doc);
  Ref time(const std::string& name, std::optional<std::string> def, const std::string& doc);
  Ref freq(const std::string& name, std::optional<std::string> def, const std::string& doc);
  Ref choice(const std::string& name, const std::vector<std::string>& choices, std::optional<std::string> def,
             const std::string& doc);
  Ref group(const std::string& name, std::shared_ptr<Schema> children, const std::string& doc);
  Ref list(const std::string& name, std::shared_ptr<Schema> element, const std::string& doc);
  Ref any(const std::string& name, const std::string& doc);  // free-form (validated by the component)

  const ParamSpec* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

// Parsing of scalar values with units. Each throws std::invalid_argument with a short reason.
int64_t parse_int(const std::string& text);
double parse_double(const std::string& text);
bool parse_bool(const std::string& text);
uint64_t parse_size(const std::string& text);          // "4096", "4 KiB", "1.5 GiB", "64K"
sc_core::sc_time parse_time(const std::string& text);  // "250 ns", "1.7us", "0"
double parse_freq(const std::string& text);            // "1.4 GHz", "700MHz" -> Hz

// Where a configuration's values come from, for error locations: the file as the user named it
// and the dotted paths given with --set. The objects that read a configuration (Config, Params,
// the builder) carry it, so that a location is made from the node being read and its own file.
struct ConfigSource {
  std::string file = "<config>";
  std::set<std::string> overridden;  // dotted paths given with --set

  // PATH, or a parent of it, was given with --set.
  bool is_overridden(const std::string& path) const;
  // "file:line:col" of a node (1-based), or "file (--set)" for values given on the command line.
  std::string location(const YAML::Node& node) const;
  // The same, or "file (--set PATH)" when the dotted PATH (or a parent of it) was given with --set.
  std::string location(const YAML::Node& node, const std::string& path) const;
};

// A validated view onto one YAML block and its schema. Missing keys give their defaults.
//
// Its readers take a key as a string, so they are the parameter layer's own: the members of a
// ParamSet (platform/param_set.h) read through them, and so does the configuration's own checking
// (platform/config.cpp). A model reads its ParamSet's typed members and never a key: reading one
// by name anywhere else does not compile.
class Params {
 public:
  Params() = default;
  // `source`: the configuration the node comes from (locations in where()); none: "<config>".
  Params(YAML::Node node, std::shared_ptr<const Schema> schema, std::string path,
         std::shared_ptr<const ConfigSource> source = nullptr);

  YAML::Node node() const { return node_; }
  const std::string& path() const { return path_; }
  // "file:line:col (path)": where this block is.
  std::string where() const { return where(""); }
  const std::shared_ptr<const ConfigSource>& source() const { return source_; }

 private:
  friend class ParamBase;
  friend class ParamSet;
  template <class T>
  friend class Int;
  template <class E>
  friend class Enum;
  template <class T>
  friend class Group;
  template <class T>
  friend class List;
  friend class Real;
  friend class Bool;
  friend class Str;
  friend class Size;
  friend class Time;
  friend class Freq;
  friend class Any;
  friend struct Config;
  friend void validate_node(const YAML::Node&, const Schema&, const std::string&, const ConfigSource&,
                            class Diagnostics&);

  bool has(const std::string& key) const;  // present in YAML (not only defaulted)
  int64_t integer(const std::string& key) const;
  double real(const std::string& key) const;
  bool boolean(const std::string& key) const;
  std::string string(const std::string& key) const;
  uint64_t size(const std::string& key) const;
  sc_core::sc_time time(const std::string& key) const;
  double freq(const std::string& key) const;
  Params group(const std::string& key) const;
  std::vector<Params> list(const std::string& key) const;
  YAML::Node node(const std::string& key) const;  // raw access (Any)
  std::string where(const std::string& key) const;  // "file:line:col (path.key)"

  std::string text_of(const std::string& key) const;
  const ParamSpec& spec(const std::string& key) const;
  YAML::Node node_;
  std::shared_ptr<const Schema> schema_;
  std::string path_;
  std::shared_ptr<const ConfigSource> source_;
};

}  // namespace hetvp
