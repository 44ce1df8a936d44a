// hetvp — one vocabulary for which implementation of a block runs, shared by the coherence
// directory's invalidation engine (`directory.engine`) and user RTL blocks (`rtl.<name>.mode`):
//   tlm       the C++ transaction-level model
//   rtl       the Verilated RTL behind its bridge
//   lockstep  both on the same inputs, compared output by output
// The RTL implementations live in rtl/ and register themselves (a registry, not an #if): a build
// without Verilator simply has none registered.
#pragma once

#include <string>
#include <vector>

#include "platform/param_set.h"

namespace hetvp {

// The choice as a parameter (`Enum<Implementation>`), in the order `hetvp list` and the JSON
// Schema show it.
HETVP_ENUM(Implementation, tlm, rtl, lockstep);

// The allowed values, in that order.
inline const std::vector<std::string>& implementation_names() { return enum_names(Implementation{}); }

// "tlm, rtl or lockstep", for messages.
inline std::string implementation_names_text() {
  const auto& n = implementation_names();
  std::string s;
  for (size_t i = 0; i < n.size(); ++i) s += (i == 0 ? "" : i + 1 == n.size() ? " or " : ", ") + n[i];
  return s;
}

}  // namespace hetvp
