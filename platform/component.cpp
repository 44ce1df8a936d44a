#include "platform/component.h"

namespace hetvp {

namespace {
template <class M>
std::vector<std::string> keys(const M& m) {
  std::vector<std::string> v;
  for (auto& kv : m) v.push_back(kv.first);
  return v;
}
}  // namespace

std::vector<std::string> Component::initiator_ports() const { return keys(initiators_); }
std::vector<std::string> Component::target_ports() const { return keys(targets_); }
std::vector<std::string> Component::irq_out_ports() const { return keys(irq_outs_); }
std::vector<std::string> Component::irq_in_ports() const { return keys(irq_ins_); }

TargetSocketBase* Component::target(const std::string& port) const {
  auto it = targets_.find(port);
  return it == targets_.end() ? nullptr : it->second;
}
IrqExport* Component::irq_in(const std::string& port) const {
  auto it = irq_ins_.find(port);
  return it == irq_ins_.end() ? nullptr : it->second;
}
bool Component::bind_initiator(const std::string& port, TargetSocketBase& t) {
  auto it = initiators_.find(port);
  if (it == initiators_.end()) return false;
  it->second(t);
  return true;
}
bool Component::bind_irq_out(const std::string& port, IrqExport& e) {
  auto it = irq_outs_.find(port);
  if (it == irq_outs_.end()) return false;
  it->second->bind(e);
  return true;
}

}  // namespace hetvp
