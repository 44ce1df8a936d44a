#include "platform/registry.h"

#include <stdexcept>

namespace hetvp {

Registry& Registry::get() {
  static Registry r;
  return r;
}

void Registry::add(ComponentType t) {
  if (types_.count(t.name)) throw std::logic_error("hetvp: component type '" + t.name + "' registered twice");
  types_.emplace(t.name, std::move(t));
}

const ComponentType* Registry::find(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> v;
  for (auto& [n, t] : types_) v.push_back(n);
  return v;
}

}  // namespace hetvp
