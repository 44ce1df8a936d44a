#include "platform/params.h"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "platform/config.h"
#include "platform/format.h"

namespace hetvp {

const char* to_string(ParamKind k) {
  switch (k) {
    case ParamKind::Int:
      return "integer";
    case ParamKind::Double:
      return "number";
    case ParamKind::Bool:
      return "boolean";
    case ParamKind::String:
      return "string";
    case ParamKind::Size:
      return "size (e.g. 4 KiB)";
    case ParamKind::Time:
      return "time (e.g. 250 ns)";
    case ParamKind::Freq:
      return "frequency (e.g. 1.4 GHz)";
    case ParamKind::Enum:
      return "choice";
    case ParamKind::Group:
      return "map";
    case ParamKind::List:
      return "list";
    case ParamKind::Any:
      return "value";
  }
  return "?";
}

// ---------------------------------------------------------------- schema building
Schema::Ref Schema::add(const std::string& name, ParamKind kind, std::optional<std::string> def,
                        const std::string& doc) {
  ParamSpec s;
  s.name = name;
  s.kind = kind;
  s.doc = doc;
  s.default_text = std::move(def);
  specs.push_back(std::move(s));
  return Ref{specs.back()};
}
Schema::Ref Schema::integer(const std::string& n, std::optional<int64_t> d, const std::string& doc) {
  return add(n, ParamKind::Int, d ? std::optional<std::string>(std::to_string(*d)) : std::nullopt, doc);
}
Schema::Ref Schema::real(const std::string& n, std::optional<double> d, const std::string& doc) {
  std::optional<std::string> t;
  if (d) {
    std::string buf = format("%.17g", *d);
    t = buf;
  }
  return add(n, ParamKind::Double, t, doc);
}
Schema::Ref Schema::boolean(const std::string& n, bool d, const std::string& doc) {
  return add(n, ParamKind::Bool, std::string(d ? "true" : "false"), doc);
}
Schema::Ref Schema::string(const std::string& n, std::optional<std::string> d, const std::string& doc) {
  return add(n, ParamKind::String, d, doc);
}
Schema::Ref Schema::size(const std::string& n, std::optional<std::string> d, const std::string& doc) {
  return add(n, ParamKind::Size, d, doc);
}
Schema::Ref Schema::time(const std::string& n, std::optional<std::string> d, const std::string& doc) {
  return add(n, ParamKind::Time, d, doc);
}
Schema::Ref Schema::freq(const std::string& n, std::optional<std::string> d, const std::string& doc) {
  return add(n, ParamKind::Freq, d, doc);
}
Schema::Ref Schema::choice(const std::string& n, const std::vector<std::string>& c, std::optional<std::string> d,
                           const std::string& doc) {
  auto r = add(n, ParamKind::Enum, d, doc);
  r.spec.choices = c;
  return r;
}
Schema::Ref Schema::group(const std::string& n, std::shared_ptr<Schema> c, const std::string& doc) {
  auto r = add(n, ParamKind::Group, std::nullopt, doc);
  r.spec.children = std::move(c);
  return r;
}
Schema::Ref Schema::list(const std::string& n, std::shared_ptr<Schema> e, const std::string& doc) {
  auto r = add(n, ParamKind::List, std::nullopt, doc);
  r.spec.children = std::move(e);
  return r;
}
Schema::Ref Schema::any(const std::string& n, const std::string& doc) {
  return add(n, ParamKind::Any, std::nullopt, doc);
}
const ParamSpec* Schema::find(const std::string& name) const {
  for (auto& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}
std::vector<std::string> Schema::names() const {
  std::vector<std::string> v;
  for (auto& s : specs) v.push_back(s.name);
  return v;
}

// ---------------------------------------------------------------- scalar parsing
namespace {
std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}
// Splits "1.5 GiB" into number 1.5 and unit "GiB".
void split_number(const std::string& text, double& number, std::string& unit, bool& is_integer_text,
                  int64_t& integer_value) {
  std::string t = trim(text);
  if (t.empty()) throw std::invalid_argument("empty value");
  size_t pos = 0;
  is_integer_text = false;
  // hexadecimal integers
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    size_t end = 2;
    while (end < t.size() && (std::isxdigit(static_cast<unsigned char>(t[end])) || t[end] == '_')) ++end;
    std::string digits;
    for (size_t i = 2; i < end; ++i)
      if (t[i] != '_') digits += t[i];
    if (digits.empty()) throw std::invalid_argument("'" + text + "' is not a number");
    integer_value = static_cast<int64_t>(std::stoull(digits, nullptr, 16));
    number = static_cast<double>(integer_value);
    is_integer_text = true;
    pos = end;
  } else {
    const char* begin = t.c_str();
    char* endp = nullptr;
    number = std::strtod(begin, &endp);
    if (endp == begin) throw std::invalid_argument("'" + text + "' is not a number");
    if (!std::isfinite(number)) throw std::invalid_argument("'" + text + "' is not a finite number");
    pos = static_cast<size_t>(endp - begin);
    std::string num = t.substr(0, pos);
    if (num.find_first_of(".eE") == std::string::npos) {
      is_integer_text = true;
      integer_value = std::stoll(num);
    }
  }
  unit = trim(t.substr(pos));
}
}  // namespace

int64_t parse_int(const std::string& text) {
  double n;
  std::string unit;
  bool is_int;
  int64_t iv = 0;
  split_number(text, n, unit, is_int, iv);
  if (!unit.empty() || !is_int) throw std::invalid_argument("'" + text + "' is not an integer");
  return iv;
}

double parse_double(const std::string& text) {
  double n;
  std::string unit;
  bool is_int;
  int64_t iv = 0;
  split_number(text, n, unit, is_int, iv);
  if (!unit.empty()) throw std::invalid_argument("'" + text + "' is not a number");
  return n;
}

bool parse_bool(const std::string& text) {
  std::string t = trim(text);
  if (t == "true" || t == "yes" || t == "on" || t == "1") return true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return false;
  throw std::invalid_argument("'" + text + "' is not a boolean (true/false)");
}

uint64_t parse_size(const std::string& text) {
  double n;
  std::string unit;
  bool is_int;
  int64_t iv = 0;
  split_number(text, n, unit, is_int, iv);
  if (n < 0) throw std::invalid_argument("size '" + text + "' is negative");
  // SI prefixes are powers of ten (kB and KB alike), IEC ones powers of two; a bare K/M/G/T is binary,
  // as in most memory sizes people write (64K = 65,536). The message lists every spelling (#42).
  static const std::map<std::string, double> units = {
      {"", 1},          {"B", 1},
      {"kB", 1e3},      {"KB", 1e3},        {"MB", 1e6},       {"GB", 1e9},     {"TB", 1e12},
      {"KiB", 1024.0},  {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
      {"K", 1024.0},    {"M", 1048576.0},   {"G", 1073741824.0},   {"T", 1099511627776.0}};
  auto it = units.find(unit);
  if (it == units.end())
    throw std::invalid_argument("unknown size unit '" + unit +
                                "' (use B; SI kB/KB, MB, GB, TB = 10^3, 10^6, 10^9, 10^12; binary KiB, MiB, GiB, TiB = "
                                "2^10 ... 2^40; a bare K, M, G, T is binary too)");
  if (unit.empty() && is_int) return static_cast<uint64_t>(iv);
  double v = n * it->second;
  if (v != std::floor(v)) throw std::invalid_argument("size '" + text + "' is not a whole number of bytes");
  if (v >= 18446744073709551616.0)
    throw std::invalid_argument("size '" + text + "' is too large (at most 2^64 - 1 bytes)");
  return static_cast<uint64_t>(v);
}

sc_core::sc_time parse_time(const std::string& text) {
  double n;
  std::string unit;
  bool is_int;
  int64_t iv = 0;
  split_number(text, n, unit, is_int, iv);
  if (n < 0) throw std::invalid_argument("time '" + text + "' is negative");
  if (unit.empty()) {
    if (n == 0) return sc_core::SC_ZERO_TIME;
    throw std::invalid_argument("time '" + text + "' needs a unit (ps, ns, us, ms, s)");
  }
  static const std::map<std::string, sc_core::sc_time_unit> units = {{"fs", sc_core::SC_FS}, {"ps", sc_core::SC_PS},
                                                                     {"ns", sc_core::SC_NS}, {"us", sc_core::SC_US},
                                                                     {"ms", sc_core::SC_MS}, {"s", sc_core::SC_SEC}};
  // "µs" with the micro sign (U+00B5) or the Greek mu (U+03BC), as people type it.
  if (unit == "\u00b5s" || unit == "\u03bcs") unit = "us";
  auto it = units.find(unit);
  if (it == units.end()) throw std::invalid_argument("unknown time unit '" + unit + "' (use fs, ps, ns, us or µs, ms, s)");
  const double max_s = sc_core::sc_max_time().to_seconds();
  if (sc_core::sc_time(1, it->second).to_seconds() * n > max_s) {
    std::string max = format("%.4g s", max_s);
    throw std::invalid_argument("time '" + text + "' is too large (the largest simulated time is " + max + ")");
  }
  return sc_core::sc_time(n, it->second);
}

double parse_freq(const std::string& text) {
  double n;
  std::string unit;
  bool is_int;
  int64_t iv = 0;
  split_number(text, n, unit, is_int, iv);
  // A bare number is in Hz (1.4e9); below 1 kHz it is far more likely a forgotten unit ("3" for 3 GHz).
  static const std::map<std::string, double> units = {{"", 1}, {"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  auto it = units.find(unit);
  if (it == units.end())
    throw std::invalid_argument("unknown frequency unit '" + unit + "' in '" + text + "' (use Hz, kHz, MHz, GHz)");
  if (unit.empty() && n < 1e3)
    throw std::invalid_argument("frequency '" + text +
                                "' needs a unit (Hz, kHz, MHz, GHz): a bare number is in Hz and at least 1000, e.g. 1.4e9");
  double v = n * it->second;
  if (v <= 0) throw std::invalid_argument("frequency '" + text + "' must be positive");
  // Its period is a simulated time: one shorter than SystemC's time resolution would be 0 (a clock
  // that never advances time).
  const double res = sc_core::sc_get_time_resolution().to_seconds();
  if (1.0 / v < res)
    throw std::invalid_argument("frequency '" + text + "' is too high: its period is below the " +
                                sc_core::sc_get_time_resolution().to_string() + " time resolution (at most " +
                                format("%g", 1.0 / res / 1e9) + " GHz)");
  return v;
}

// ---------------------------------------------------------------- Params view
bool ConfigSource::is_overridden(const std::string& path) const {
  for (auto& o : overridden)
    if (path == o || path.rfind(o + ".", 0) == 0 || path.rfind(o + "[", 0) == 0) return true;
  return false;
}

std::string ConfigSource::location(const YAML::Node& node) const {
  if (!node || node.Mark().is_null() || node.Mark().line < 0) return file + " (--set)";
  return file + ":" + std::to_string(node.Mark().line + 1) + ":" + std::to_string(node.Mark().column + 1);
}

std::string ConfigSource::location(const YAML::Node& node, const std::string& path) const {
  return is_overridden(path) ? file + " (--set " + path + ")" : location(node);
}

Params::Params(YAML::Node node, std::shared_ptr<const Schema> schema, std::string path,
               std::shared_ptr<const ConfigSource> source)
    : node_(std::move(node)), schema_(std::move(schema)), path_(std::move(path)), source_(std::move(source)) {}

const ParamSpec& Params::spec(const std::string& key) const {
  const ParamSpec* s = schema_ ? schema_->find(key) : nullptr;
  if (!s) throw std::logic_error("hetvp: parameter '" + key + "' is not in the schema of " + path_);
  return *s;
}

bool Params::has(const std::string& key) const {
  const YAML::Node& n = node_;  // const access: never inserts keys
  return n && n.IsMap() && n[key];
}

std::string Params::text_of(const std::string& key) const {
  const YAML::Node& n = node_;
  if (has(key)) return n[key].Scalar();
  const ParamSpec& s = spec(key);
  if (!s.default_text) throw std::logic_error("hetvp: parameter '" + path_ + "." + key + "' has no value");
  return *s.default_text;
}

int64_t Params::integer(const std::string& key) const { return parse_int(text_of(key)); }
double Params::real(const std::string& key) const { return parse_double(text_of(key)); }
bool Params::boolean(const std::string& key) const { return parse_bool(text_of(key)); }
std::string Params::string(const std::string& key) const { return text_of(key); }
uint64_t Params::size(const std::string& key) const { return parse_size(text_of(key)); }
sc_core::sc_time Params::time(const std::string& key) const { return parse_time(text_of(key)); }
double Params::freq(const std::string& key) const { return parse_freq(text_of(key)); }

Params Params::group(const std::string& key) const {
  const ParamSpec& s = spec(key);
  const YAML::Node& c = node_;
  YAML::Node n = has(key) ? c[key] : YAML::Node(YAML::NodeType::Map);
  return Params(n, s.children, path_ + "." + key, source_);
}

std::vector<Params> Params::list(const std::string& key) const {
  const ParamSpec& s = spec(key);
  std::vector<Params> out;
  if (!has(key)) return out;
  const YAML::Node& c = node_;
  YAML::Node n = c[key];
  for (size_t i = 0; i < n.size(); ++i)
    out.emplace_back(n[i], s.children, path_ + "." + key + "[" + std::to_string(i) + "]", source_);
  return out;
}

YAML::Node Params::node(const std::string& key) const {
  const YAML::Node& c = node_;
  return has(key) ? c[key] : YAML::Node();
}

std::string Params::where(const std::string& key) const {
  const YAML::Node& c = node_;
  YAML::Node n = has(key) ? c[key] : node_;
  const std::string p = path_ + (key.empty() ? "" : "." + key);
  static const ConfigSource kNone;  // a view made by hand (a test): no file
  const ConfigSource& src = source_ ? *source_ : kNone;
  const std::string loc = src.location(n, p);  // "file (--set P)" for a value from the command line
  return loc == src.location(n) ? loc + " (" + p + ")" : loc;
}

}  // namespace hetvp
