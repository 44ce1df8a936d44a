// One declaration per parameter.
//
// A model, GPU block, host program or option struct declares its parameters as the members of a
// ParamSet: name, C++ type, default, range and doc in one line each. From that one declaration
// come the schema (`hetvp list TYPE`, `hetvp schema`, docs/parameters.md), the validation of the
// YAML and the typed values the model reads. A misspelt parameter is a compile error, because
// the model reads a member, never a key.
//
//   HETVP_ENUM(WritePolicy, write_back, write_through);
//   struct CacheConfig : ParamSet {
//     Size size{this, "size", "32 KiB", "capacity in bytes", Min{64}};
//     Int<unsigned> ways{this, "ways", 8, "associativity", Range{1, 64}};
//     Enum<WritePolicy> write_policy{this, "write_policy", WritePolicy::write_back, "what a write hit does"};
//     Freq clock{this, "clock", "2 GHz", "cache clock"};
//     void validate(Diagnostics& d) const override;   // cross-field rules, if any
//   };
//   Cache(sc_module_name n, const CacheConfig& c) : array_(c.size, c.ways, 64), tag_time_(c.clock.period()) ...
//
// Sizes, times and frequencies take their default as the text a user would write ("32 KiB",
// "250 ns"): that is what `hetvp list` shows, and it is parsed once, when the set is built.
// Enumerations are declared with HETVP_ENUM, so a choice is an enum from the YAML to the trace
// (to_name() gives the word back). Groups (`Group<T>`, T another ParamSet) read as the T itself:
// `c.to_cpu.latency`. Lists of groups are `List<T>`.
//
// How members are found without naming them twice: each member's constructor records its offset
// inside the set (`this` is the set being built). Offsets hold for every copy of the same type,
// so a set can be copied and its copy still knows its members.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/diagnostics.h"
#include "platform/params.h"

namespace hetvp {

// ------------------------------------------------------------------ enumerations
namespace detail {
std::vector<std::string> split_enum_names(const char* text);  // "a, b, c" -> {a, b, c}
}
// Declares `enum class NAME { words... }` and the words' names, once. Enumerators take no
// explicit values (they index the names).
#define HETVP_ENUM(NAME, ...)                                                                        \
  enum class NAME { __VA_ARGS__ };                                                                   \
  inline const std::vector<std::string>& enum_names(NAME) {                                          \
    static const std::vector<std::string> names = ::hetvp::detail::split_enum_names(#__VA_ARGS__); \
    return names;                                                                                    \
  }

// The word of an enumerator declared with HETVP_ENUM ("write_back").
template <class E>
const std::string& to_name(E e) {
  return enum_names(E{})[static_cast<size_t>(e)];
}

// ------------------------------------------------------------------ options of a declaration
struct Range {  // numeric range, in base units (bytes, seconds, Hz)
  double lo, hi;
};
struct Min {
  double lo;
};
struct Allowed {  // an integer that takes only these values
  std::initializer_list<int64_t> values;
};
struct Required {};       // no default: the YAML must give it
struct OnlyWhenGiven {};  // the resolved config (--dump-config) leaves the default out
struct NoDefault {};      // optional, no default: read given() before the value

class ParamSet;

// ------------------------------------------------------------------ one parameter
class ParamBase {
 public:
  // Named so as not to clash with a group's own members (Group<T> is also a T).
  const std::string& key() const { return spec_.name; }
  const ParamSpec& param_spec() const { return spec_; }
  // Present in the YAML (not only defaulted).
  bool given() const { return given_; }
  // "file:line:col (path.name)": where the value (or, for a default, its block) is.
  std::string where() const;
  // The dotted YAML path ("gpu0.compute.bar0").
  std::string path() const;
  // where() for a given value, "path (default)" for a default: what placed a value.
  std::string origin() const { return given_ ? where() : path() + " (default)"; }
  // The given value's YAML node (null for a default): for a location another layer makes from a
  // node (Builder::resolve_target, a router's map entry).
  YAML::Node value_node() const;

 protected:
  ParamBase(ParamSet* owner, const char* name, ParamKind kind, const char* doc);
  ParamBase(const ParamBase&) = default;
  ParamBase& operator=(const ParamBase&) = default;
  virtual ~ParamBase() = default;

  void apply(const Range& r) { spec_.min = r.lo, spec_.max = r.hi; }
  void apply(const Min& m) { spec_.min = m.lo; }
  void apply(const Allowed& a);
  void apply(const Required&) { spec_.required = true, spec_.default_text.reset(); }
  void apply(const OnlyWhenGiven&) { spec_.resolve_default = false; }
  void apply(const NoDefault&) { spec_.default_text.reset(); }
  template <class... Opts>
  void apply_all(const Opts&... o) {
    (apply(o), ...);
  }
  const ParamSet& owner() const;
  // Reads the value from `view` (the set's validated YAML block); the value is there or has a
  // default (has_value()).
  virtual void read(const Params& view) = 0;
  // Adds this parameter to `s` (a Moved key adds itself to s.moved instead).
  virtual void declare(Schema& s) const { s.specs.push_back(spec_); }
  bool has_value() const { return given_ || spec_.default_text.has_value(); }

  ParamSpec spec_;

 private:
  friend class ParamSet;
  bool given_ = false;
  std::ptrdiff_t offset_;  // from the owning set's start
};

// ------------------------------------------------------------------ a set of parameters
class ParamSet {
 public:
  virtual ~ParamSet() = default;
  // The schema the members declare, in declaration order.
  std::shared_ptr<Schema> schema() const;
  // Fills every member from `view`, a YAML block already validated against schema().
  void load(const Params& view);
  // Cross-field rules: each broken one is reported into `d` at the member's where().
  virtual void validate(Diagnostics& /*d*/) const {}
  // The block the set was loaded from ("" before load()): for messages and, in the parameter
  // layer only, dynamic keys.
  const Params& view() const { return view_; }
  const std::string& yaml_path() const { return view_.path(); }

 protected:
  ParamSet() = default;
  ParamSet(const ParamSet&) = default;
  ParamSet& operator=(const ParamSet&) = default;
  // Adds what no member declares (keys that moved, an open map) to the schema.
  virtual void extend(Schema& /*s*/) const {}

 private:
  friend class ParamBase;
  template <class T>
  friend class Group;
  std::vector<std::ptrdiff_t> members_;
  Params view_;
  ParamBase* member(std::ptrdiff_t off) const {
    return reinterpret_cast<ParamBase*>(reinterpret_cast<char*>(const_cast<ParamSet*>(this)) + off);
  }
};

// A set loaded from a view: `auto a = load<TransferArgs>(args);`.
template <class T>
T load(const Params& view) {
  T t;
  t.load(view);
  return t;
}

// ------------------------------------------------------------------ the typed parameters
// A value of type T read as `kind`. The value converts implicitly to T; `()` gives it too.
template <class T, ParamKind K>
class Value : public ParamBase {
 public:
  operator const T&() const { return v_; }
  const T& operator()() const { return v_; }

 protected:
  Value(ParamSet* o, const char* name, const char* doc) : ParamBase(o, name, K, doc) {}
  T v_{};
};

// An integer of type T (int, unsigned, uint64_t, ...).
template <class T>
class Int : public Value<T, ParamKind::Int> {
  static_assert(std::is_integral_v<T>, "Int<T> takes an integer type");

 public:
  template <class... Opts>
  Int(ParamSet* o, const char* name, T def, const char* doc, const Opts&... opts)
      : Value<T, ParamKind::Int>(o, name, doc) {
    this->spec_.default_text = std::to_string(def);
    this->v_ = def;
    this->apply_all(opts...);
  }
  void set_default(T def) {
    this->spec_.default_text = std::to_string(def);
    this->v_ = def;
    this->spec_.required = false;
  }

 private:
  void read(const Params& p) override {
    if (this->has_value()) this->v_ = static_cast<T>(p.integer(this->key()));
  }
};

class Real : public Value<double, ParamKind::Double> {
 public:
  template <class... Opts>
  Real(ParamSet* o, const char* name, double def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    init(def);
    apply_all(opts...);
  }
  void set_default(double def) { init(def), spec_.required = false; }
  // The default as the text a user would write ("177.4e9"), which `hetvp list` shows as written
  // (set_default(double) writes "%.17g").
  void set_default_text(const char* text);

 private:
  void init(double def);
  void read(const Params& p) override;
};

class Bool : public Value<bool, ParamKind::Bool> {
 public:
  template <class... Opts>
  Bool(ParamSet* o, const char* name, bool def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    set_default(def);
    apply_all(opts...);
  }
  void set_default(bool def) {
    spec_.default_text = def ? "true" : "false";
    v_ = def;
    spec_.required = false;
  }

 private:
  void read(const Params& p) override;
};

class Str : public Value<std::string, ParamKind::String> {
 public:
  template <class... Opts>
  Str(ParamSet* o, const char* name, const char* def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    if (def) spec_.default_text = v_ = def;
    apply_all(opts...);
  }
  void set_default(const char* def) { spec_.default_text = v_ = def, spec_.required = false; }
  bool empty() const { return v_.empty(); }
  const char* c_str() const { return v_.c_str(); }

 private:
  void read(const Params& p) override;
};

// A size in bytes ("4 KiB", "1.5 GiB", "4096"); the default as such text (nullptr: none).
class Size : public Value<uint64_t, ParamKind::Size> {
 public:
  template <class... Opts>
  Size(ParamSet* o, const char* name, const char* def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    init(def);
    apply_all(opts...);
  }
  void set_default(const char* def) { init(def), spec_.required = false; }

 private:
  void init(const char* def);
  void read(const Params& p) override;
};

// A simulated time ("250 ns", "1.7 us").
class Time : public Value<sc_core::sc_time, ParamKind::Time> {
 public:
  template <class... Opts>
  Time(ParamSet* o, const char* name, const char* def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    init(def);
    apply_all(opts...);
  }
  void set_default(const char* def) { init(def), spec_.required = false; }
  double to_seconds() const { return v_.to_seconds(); }

 private:
  void init(const char* def);
  void read(const Params& p) override;
};

// A frequency in Hz ("1.4 GHz"); period() is one cycle.
class Freq : public Value<double, ParamKind::Freq> {
 public:
  template <class... Opts>
  Freq(ParamSet* o, const char* name, const char* def, const char* doc, const Opts&... opts) : Value(o, name, doc) {
    init(def);
    apply_all(opts...);
  }
  void set_default(const char* def) { init(def), spec_.required = false; }
  sc_core::sc_time period() const { return sc_core::sc_time(1.0 / v_, sc_core::SC_SEC); }

 private:
  void init(const char* def);
  void read(const Params& p) override;
};

// One of the words of an enumeration declared with HETVP_ENUM.
template <class E>
class Enum : public Value<E, ParamKind::Enum> {
 public:
  template <class... Opts>
  Enum(ParamSet* o, const char* name, E def, const char* doc, const Opts&... opts)
      : Value<E, ParamKind::Enum>(o, name, doc) {
    this->spec_.choices = enum_names(E{});
    set_default(def);
    this->apply_all(opts...);
  }
  void set_default(E def) {
    this->spec_.default_text = to_name(def);
    this->v_ = def;
    this->spec_.required = false;
  }
  const std::string& word() const { return to_name(this->v_); }

 private:
  void read(const Params& p) override {
    if (!this->has_value()) return;
    const std::string w = p.string(this->key());
    const auto& names = enum_names(E{});
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == w) this->v_ = static_cast<E>(i);
  }
};

// Free-form YAML the owner checks itself (a map of bindings, a list of words).
class Any : public ParamBase {
 public:
  Any(ParamSet* o, const char* name, const char* doc) : ParamBase(o, name, ParamKind::Any, doc) {}
  const YAML::Node& node() const { return n_; }
  explicit operator bool() const { return given(); }

 private:
  void read(const Params& p) override;
  YAML::Node n_;
};

// A nested group of parameters, read as the T it holds: `c.to_cpu.latency`. A T used in several
// places with other defaults takes them from a function of the T, by member (set_default also
// makes a Required member optional: the owner's default stands in):
//   Group<CacheConfig> tcp{this, "tcp", "the L1", [](CacheConfig& c) { c.size.set_default("16 KiB"); }};
template <class T>
class Group : public ParamBase, public T {
  static_assert(std::is_base_of_v<ParamSet, T>, "Group<T> takes a ParamSet");

 public:
  template <class... Opts>
  Group(ParamSet* o, const char* name, const char* doc, const Opts&... opts) : ParamBase(o, name, ParamKind::Group, doc) {
    (option(opts), ...);
    spec_.children = T::schema();
  }
  const T& operator()() const { return *this; }

 private:
  template <class Opt>
  void option(const Opt& o) {
    if constexpr (std::is_invocable_v<Opt, T&>)
      o(static_cast<T&>(*this));
    else
      apply(o);
  }
  void read(const Params& p) override { T::load(p.group(key())); }
};

// A list of groups: `for (const MapEntry& e : c.map)`.
template <class T>
class List : public ParamBase {
  static_assert(std::is_base_of_v<ParamSet, T>, "List<T> takes a ParamSet");

 public:
  List(ParamSet* o, const char* name, const char* doc) : ParamBase(o, name, ParamKind::List, doc) {
    spec_.children = T{}.schema();
  }
  const std::vector<T>& operator()() const { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const T& operator[](size_t i) const { return items_[i]; }
  typename std::vector<T>::const_iterator begin() const { return items_.begin(); }
  typename std::vector<T>::const_iterator end() const { return items_.end(); }

 private:
  void read(const Params& p) override {
    items_.clear();
    for (const Params& e : p.list(key())) items_.push_back(hetvp::load<T>(e));
  }
  std::vector<T> items_;
};

// A key that used to be here: giving it is a located error saying where it went.
class Moved : public ParamBase {
 public:
  Moved(ParamSet* o, const char* old_key, const char* where);

 private:
  void read(const Params&) override {}
  void declare(Schema& s) const override { s.moved_to(spec_.name, spec_.doc); }
};

}  // namespace hetvp
