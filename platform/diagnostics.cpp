#include "platform/diagnostics.h"

#include <algorithm>

#include "platform/config.h"

namespace hetvp {

void Diagnostics::error(const std::string& m) {
  if (std::find(messages_.begin(), messages_.end(), m) != messages_.end()) return;
  if (messages_.size() < kMaxErrors)
    messages_.push_back(m);
  else
    ++dropped_;
}

bool Diagnostics::add_config_error(const std::exception& e) {
  const auto* ce = dynamic_cast<const ConfigError*>(&e);
  if (!ce) return false;
  for (const auto& m : ce->messages()) error(m);
  return true;
}

void Diagnostics::throw_if_any(const std::string& file) const {
  if (empty()) return;
  std::vector<std::string> all = messages_;
  if (dropped_)
    all.push_back(file + ": " + std::to_string(dropped_) + " more error(s) not shown (the first " +
                  std::to_string(kMaxErrors) + " are)");
  if (all.size() == 1) throw ConfigError(all.front());
  throw ConfigError(all);
}

}  // namespace hetvp
