#include "platform/program.h"

#include <stdexcept>

namespace hetvp {

ProgramRegistry& ProgramRegistry::get() {
  static ProgramRegistry r;
  return r;
}
void ProgramRegistry::add(ProgramType t) {
  if (programs_.count(t.name)) throw std::logic_error("hetvp: program '" + t.name + "' registered twice");
  programs_.emplace(t.name, std::move(t));
}
const ProgramType* ProgramRegistry::find(const std::string& name) const {
  auto it = programs_.find(name);
  return it == programs_.end() ? nullptr : &it->second;
}
std::vector<std::string> ProgramRegistry::names() const {
  std::vector<std::string> v;
  for (auto& [n, p] : programs_) v.push_back(n);
  return v;
}

}  // namespace hetvp
