// Registries of named entries filled by static registration: component types (YAML `type:`),
// host programs (`workload.name`) and GPU blocks (models/gpu/gpu_block.h) all use the one template
// below. (GPU kernels are PTX modules the driver loads, not registered entries.)
//
// An Entry is a plain struct with a `std::string name` and a `static constexpr const char* kKind`
// (what it is, for the "registered twice" message). A model registers an entry with one line in
// its .cpp, through a thin macro over HETVP_REGISTER_ENTRY, e.g.
//   HETVP_REGISTER_COMPONENT("pcie_link", PcieLink, "PCIe link: two directions, TLP timing");
// For components the class names its parameters `using Config = ...;` (a ParamSet,
// platform/param_set.h) and has a constructor `Class(sc_core::sc_module_name, const Config&)`.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/param_set.h"

namespace hetvp {

// A name registered twice. A static registration cannot throw (a plugin's run inside dlopen), so
// it is recorded here with the library it came from: load_plugin() reports its plugin's own, and
// check_registrations() (Config::validate) any other as a logic error.
struct RegistrationError {
  std::string library;  // the registering object's library (library_of)
  std::string message;
};
std::vector<RegistrationError>& registration_errors();
// The shared object (or program) that holds `address`, as the dynamic loader names it; "" unknown.
std::string library_of(const void* address);
// The plugin that `library` is ("" when it is no plugin: built in).
std::string plugin_origin(const std::string& library);
// Throws std::logic_error naming the first name a built-in registered twice.
void check_registrations();

// Entries by name; iteration (entries(), names()) is in name order, so nothing depends on the
// order in which static registrations ran (link order).
template <class Entry>
class Registry {
 public:
  // One registry per Entry type. hetvp_lib is a shared library with default visibility: the
  // function-local static has vague linkage and is unified across the library, the program and
  // the tests by the dynamic linker.
  static Registry& get() {
    static Registry r;
    return r;
  }
  // `registrar`: the static object that registers (its library is the entry's origin); nullptr
  // for a call at run time, which throws std::logic_error on a name registered twice.
  void add(Entry e, const void* registrar = nullptr) {
    const std::string library = registrar ? library_of(registrar) : std::string();
    if (entries_.count(e.name)) {
      std::string msg = std::string(Entry::kKind) + " '" + e.name + "' is already registered" +
                        (origin(e.name).empty() ? " (built in)" : " by " + origin(e.name));
      if (!registrar) throw std::logic_error("hetvp: " + msg);
      registration_errors().push_back({library, msg});
      return;
    }
    libraries_[e.name] = library;
    std::string key = e.name;
    entries_.emplace(std::move(key), std::move(e));
  }
  // The plugin that registered `name`, "" for a built-in entry.
  std::string origin(const std::string& name) const {
    auto it = libraries_.find(name);
    return it == libraries_.end() ? std::string() : plugin_origin(it->second);
  }
  const Entry* find(const std::string& name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (auto& [n, e] : entries_) v.push_back(n);
    return v;
  }
  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  std::map<std::string, Entry> entries_;
  std::map<std::string, std::string> libraries_;  // name -> library_of(its registrar)
};

// A static object whose construction registers one entry.
template <class Entry>
struct Registrar {
  explicit Registrar(Entry e) { Registry<Entry>::get().add(std::move(e), this); }
};

class Component;

struct ComponentType {
  static constexpr const char* kKind = "component type";
  std::string name;
  std::string doc;
  std::function<std::shared_ptr<Schema>()> schema;
  std::function<Component*(const char* instance_name, const Params&)> create;
  // The parameter set's cross-field rules (ParamSet::validate), run by Config::validate on a
  // block that fits the schema; nullptr: none.
  std::function<void(const Params&, Diagnostics&)> validate = nullptr;
};
using ComponentRegistry = Registry<ComponentType>;

namespace detail {
// A type whose parameters are a ParamSet names it `Config` (platform/param_set.h): the schema,
// the cross-field rules and the constructor's argument all come from that one declaration.
template <class C>
std::shared_ptr<Schema> schema_of() {
  return typename C::Config{}.schema();
}
template <class C, class Made>
Made* create_from(const char* n, const Params& p) {
  return new C(n, load<typename C::Config>(p));
}
template <class C>
std::function<void(const Params&, Diagnostics&)> validator_of() {
  return [](const Params& p, Diagnostics& d) { d.collect([&] { load<typename C::Config>(p).validate(d); }); };
}
}  // namespace detail

}  // namespace hetvp

#define HETVP_CONCAT2(a, b) a##b
#define HETVP_CONCAT(a, b) HETVP_CONCAT2(a, b)
// The one helper: registers ENTRY_TYPE{...} at static-initialisation time.
#define HETVP_REGISTER_ENTRY(ENTRY_TYPE, ...) \
  static const ::hetvp::Registrar<ENTRY_TYPE> HETVP_CONCAT(hetvp_registrar_, __COUNTER__)(ENTRY_TYPE{__VA_ARGS__})

// CLASS declares its parameters as `using Config = ...;` (a ParamSet) and is constructed from
// `(sc_core::sc_module_name, const Config&)`.
#define HETVP_REGISTER_COMPONENT(TYPE_NAME, CLASS, DOC)                                                    \
  HETVP_REGISTER_ENTRY(                                                                                    \
      ::hetvp::ComponentType, TYPE_NAME, DOC, ::hetvp::detail::schema_of<CLASS>,                           \
      [](const char* n, const ::hetvp::Params& p) -> ::hetvp::Component* {                                 \
        return ::hetvp::detail::create_from<CLASS, ::hetvp::Component>(n, p);                              \
      },                                                                                                   \
      ::hetvp::detail::validator_of<CLASS>())
