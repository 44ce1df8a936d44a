// The registry of component types. A model registers itself with one line in its .cpp:
//   HETVP_REGISTER_COMPONENT("pcie_link", PcieLink, "PCIe link: two directions, TLP timing");
// The class provides `static std::shared_ptr<Schema> schema()` and a constructor
// `Class(sc_core::sc_module_name, const Params&)`. YAML's `type:` names the registered type.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "platform/params.h"

namespace hetvp {

class Component;

struct ComponentType {
  std::string name;
  std::string doc;
  std::function<std::shared_ptr<Schema>()> schema;
  std::function<Component*(const char* instance_name, const Params&)> create;
};

class Registry {
 public:
  static Registry& get();
  void add(ComponentType t);
  const ComponentType* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, ComponentType> types_;
};

namespace detail {
struct Registrar {
  explicit Registrar(ComponentType t) { Registry::get().add(std::move(t)); }
};
}  // namespace detail

}  // namespace hetvp

#define HETVP_CONCAT2(a, b) a##b
#define HETVP_CONCAT(a, b) HETVP_CONCAT2(a, b)
#define HETVP_REGISTER_COMPONENT(TYPE_NAME, CLASS, DOC)                                                  \
  static ::hetvp::detail::Registrar HETVP_CONCAT(hetvp_registrar_, __LINE__)(::hetvp::ComponentType{    \
      TYPE_NAME, DOC, [] { return CLASS::schema(); },                                                   \
      [](const char* n, const ::hetvp::Params& p) -> ::hetvp::Component* { return new CLASS(n, p); }})
