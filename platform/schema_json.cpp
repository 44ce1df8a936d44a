#include "platform/schema_json.h"

#include <sstream>

#include "platform/config.h"
#include "platform/json.h"
#include "platform/program.h"
#include "platform/registry.h"

namespace hetvp {

namespace {

const char* unit_of(ParamKind k) {
  switch (k) {
    case ParamKind::Size:
      return "bytes";
    case ParamKind::Time:
      return "s";
    case ParamKind::Freq:
      return "Hz";
    default:
      return "";
  }
}

void spec_list(JsonWriter& w, const std::string& key, const Schema& s) {
  w.begin_array(key);
  for (const auto& p : s.specs) {
    w.begin_object();
    w.value("name", p.name);
    w.value("kind", to_string(p.kind));
    if (*unit_of(p.kind)) w.value("unit", unit_of(p.kind));
    w.value("required", p.required);
    if (p.default_text) w.value("default", *p.default_text);
    if (p.min) w.value("min", *p.min);
    if (p.max) w.value("max", *p.max);
    if (!p.choices.empty()) {
      w.begin_array("choices");
      for (auto& c : p.choices) w.value("", c);
      w.end_array();
    }
    w.value("doc", p.doc);
    if (p.children) spec_list(w, p.kind == ParamKind::List ? "element" : "params", *p.children);
    w.end_object();
  }
  w.end_array();
}

// --- JSON Schema ---------------------------------------------------------------------------
const char* kNumber = R"(^\s*[-+]?(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?)\s*$)";
const char* kWithUnit = R"(^\s*[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?\s*[A-Za-z]*\s*$)";

void string_types(JsonWriter& w, const char* pattern) {
  w.begin_array("anyOf");
  w.begin_object().value("type", "number").end_object();
  w.begin_object().value("type", "string").value("pattern", pattern).end_object();
  w.end_array();
}

void object_schema(JsonWriter& w, const Schema& s);

void value_schema(JsonWriter& w, const ParamSpec& p) {
  w.value("description", p.doc);
  switch (p.kind) {
    case ParamKind::Int:
      if (!p.choices.empty()) {  // an integer with allowed values: the numbers, or their text
        w.begin_array("enum");
        for (auto& c : p.choices) w.value("", c).value("", int64_t(std::strtoll(c.c_str(), nullptr, 10)));
        w.end_array();
        break;
      }
      [[fallthrough]];
    case ParamKind::Double:
      w.begin_array("anyOf");
      w.begin_object().value("type", p.kind == ParamKind::Int ? "integer" : "number");
      if (p.min) w.value("minimum", *p.min);
      if (p.max) w.value("maximum", *p.max);
      w.end_object();
      w.begin_object().value("type", "string").value("pattern", kNumber).end_object();
      w.end_array();
      break;
    case ParamKind::Bool:
      w.value("type", "boolean");
      break;
    case ParamKind::String:
      w.begin_array("type").value("", "string").value("", "number").value("", "boolean").end_array();
      break;
    case ParamKind::Size:
    case ParamKind::Time:
    case ParamKind::Freq:
      string_types(w, kWithUnit);
      break;
    case ParamKind::Enum: {
      // YAML reads `width: 4` as a number and `x: true` as a boolean: accept those spellings too.
      w.begin_array("enum");
      for (auto& c : p.choices) {
        w.value("", c);
        char* end = nullptr;
        long long n = std::strtoll(c.c_str(), &end, 10);
        if (!c.empty() && end && *end == '\0') w.value("", int64_t(n));
        if (c == "true" || c == "false") w.value("", c == "true");
      }
      w.end_array();
      break;
    }
    case ParamKind::Group:
      object_schema(w, *p.children);
      break;
    case ParamKind::List:
      w.value("type", "array");
      w.begin_object("items");
      object_schema(w, *p.children);
      w.end_object();
      break;
    case ParamKind::Any:
      break;
  }
}

void object_schema(JsonWriter& w, const Schema& s) {
  w.value("type", "object");
  w.begin_object("properties");
  for (const auto& p : s.specs) {
    w.begin_object(p.name);
    value_schema(w, p);
    w.end_object();
  }
  w.end_object();
  bool any_required = false;
  for (const auto& p : s.specs) any_required |= p.required;
  if (any_required) {
    w.begin_array("required");
    for (const auto& p : s.specs)
      if (p.required) w.value("", p.name);
    w.end_array();
  }
  if (!s.open) w.value("additionalProperties", false);
}

}  // namespace

std::string types_json() {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_object();
  w.begin_object("components");
  for (const auto& [name, t] : ComponentRegistry::get().entries()) {
    w.begin_object(name);
    w.value("doc", t.doc);
    if (!ComponentRegistry::get().origin(name).empty()) w.value("plugin", ComponentRegistry::get().origin(name));
    spec_list(w, "params", instance_schema(*t.schema()));
    w.end_object();
  }
  w.end_object();
  w.begin_object("programs");
  for (const auto& [name, t] : ProgramRegistry::get().entries()) {
    w.begin_object(name);
    w.value("doc", t.doc);
    if (!ProgramRegistry::get().origin(name).empty()) w.value("plugin", ProgramRegistry::get().origin(name));
    spec_list(w, "params", *t.schema());
    w.end_object();
  }
  w.end_object();
  w.begin_object("sections");
  spec_list(w, "simulation", *Config::simulation_schema());
  spec_list(w, "workload", *Config::workload_schema());
  w.end_object();
  w.end_object();
  return out.str();
}

std::string config_json_schema() {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_object();
  w.value("$schema", "http://json-schema.org/draft-07/schema#");
  w.value("title", "hetvp configuration");
  w.value("description",
          "A hetvp platform: reserved sections simulation, workload and plugins; every other key is a component "
          "instance {type: T, ...parameters of T}. Generated by `hetvp schema` from the component and program "
          "schemas.");
  w.value("type", "object");
  w.begin_object("properties");
  w.begin_object("simulation");
  w.value("description", "seed, quantum, limits");
  object_schema(w, *Config::simulation_schema());
  w.end_object();
  // workload: name picks the program; args are validated against that program's schema.
  w.begin_object("workload");
  w.value("description", "the host program run after boot and its arguments");
  w.value("type", "object");
  w.begin_object("properties");
  w.begin_object("name").value("description", "host program (hetvp list)");
  w.begin_array("enum");
  for (auto& n : ProgramRegistry::get().names()) w.value("", n);
  w.end_array();
  w.end_object();
  w.begin_object("cpu").value("type", "string").value("description", "host CPU instance that runs it").end_object();
  w.begin_object("args").value("type", "object").value("description", "arguments of the program").end_object();
  w.end_object();
  w.value("additionalProperties", false);
  w.begin_array("allOf");
  const std::string default_program = *Config::workload_schema()->find("name")->default_text;
  for (const auto& [name, t] : ProgramRegistry::get().entries()) {
    w.begin_object();
    w.begin_object("if");
    if (name == default_program) {  // `name` absent means the default program
      w.begin_array("anyOf");
      w.begin_object()
          .begin_object("not")
          .begin_array("required")
          .value("", "name")
          .end_array()
          .end_object()
          .end_object();
      w.begin_object().begin_object("properties").begin_object("name").value("const", name).end_object().end_object();
      w.begin_array("required").value("", "name").end_array().end_object();
      w.end_array();
    } else {
      w.begin_object("properties").begin_object("name").value("const", name).end_object().end_object();
      w.begin_array("required").value("", "name").end_array();
    }
    w.end_object();
    w.begin_object("then").begin_object("properties").begin_object("args");
    object_schema(w, *t.schema());
    w.end_object().end_object().end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.begin_object("plugins");
  w.value("description", "plugin libraries to load (paths relative to the configuration file)");
  w.value("type", "array");
  w.begin_object("items").value("type", "string").end_object();
  w.end_object();
  w.end_object();  // properties
  w.begin_object("additionalProperties").value("$ref", "#/definitions/instance").end_object();
  w.begin_object("definitions");
  w.begin_object("instance");
  w.value("description", "a component instance: {type: T, ...parameters of T}");
  w.value("type", "object");
  w.begin_array("required").value("", "type").end_array();
  w.begin_object("properties").begin_object("type");
  w.begin_array("enum");
  for (auto& n : ComponentRegistry::get().names()) w.value("", n);
  w.end_array();
  w.end_object().end_object();
  w.begin_array("allOf");
  for (const auto& [name, t] : ComponentRegistry::get().entries()) {
    w.begin_object();
    w.begin_object("if").begin_object("properties").begin_object("type").value("const", name).end_object().end_object();
    w.end_object();
    w.begin_object("then").value("$ref", "#/definitions/" + name).end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  for (const auto& [name, t] : ComponentRegistry::get().entries()) {
    w.begin_object(name);
    w.value("description", t.doc);
    object_schema(w, instance_schema(*t.schema()));
    w.end_object();
  }
  w.end_object();
  w.end_object();
  return out.str();
}

}  // namespace hetvp
