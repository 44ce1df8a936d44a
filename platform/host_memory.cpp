#include "platform/host_memory.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "platform/config.h"

namespace hetvp {

namespace {
void collect(sc_core::sc_object* o, std::map<std::string, HostMemoryShare>& by_origin) {
  if (auto* u = dynamic_cast<const HostMemoryUser*>(o)) {
    const uint64_t b = u->up_front_host_bytes();
    HostMemoryShare& s = by_origin[u->host_bytes_origin()];
    s.origin = u->host_bytes_origin();
    s.modules.push_back(o->name());
    s.bytes += b;
  }
  for (sc_core::sc_object* c : o->get_child_objects()) collect(c, by_origin);
}
}  // namespace

std::string byte_text(uint64_t b) {
  static const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (b < 1024) return std::to_string(b) + " bytes";
  double v = double(b) / 1024;
  int u = 0;
  while (v >= 1024 && u < 3) v /= 1024, ++u;
  char s[32];
  std::snprintf(s, sizeof s, v == double(uint64_t(v)) ? "%.0f %s" : "%.1f %s", v, units[u]);
  return s;
}

std::vector<HostMemoryShare> host_memory_shares(const std::vector<sc_core::sc_object*>& tops) {
  std::map<std::string, HostMemoryShare> by_origin;
  for (sc_core::sc_object* t : tops) collect(t, by_origin);
  std::vector<HostMemoryShare> v;
  for (auto& [origin, s] : by_origin) v.push_back(std::move(s));
  std::stable_sort(v.begin(), v.end(), [](const HostMemoryShare& a, const HostMemoryShare& b) { return a.bytes > b.bytes; });
  return v;
}

void check_host_memory_budget(const std::vector<HostMemoryShare>& shares, uint64_t budget,
                              const std::string& budget_origin) {
  uint64_t total = 0;
  for (const HostMemoryShare& s : shares) total += s.bytes;
  if (total <= budget || shares.empty()) return;
  std::string largest;
  for (size_t i = 0; i < shares.size() && i < 3; ++i) {
    const HostMemoryShare& s = shares[i];
    std::string who = s.modules.front();
    if (s.modules.size() > 1) who = std::to_string(s.modules.size()) + " modules (" + who + ", ...)";
    largest += (i ? "; " : "") + byte_text(s.bytes) + " for " + who + ", sized by " + s.origin;
  }
  throw ConfigError(shares.front().origin + ": the platform would allocate " + byte_text(total) +
                    " of host memory before simulating, more than simulation.memory_budget (" + byte_text(budget) +
                    ", " + budget_origin + "); largest: " + largest +
                    ". Make them smaller, or raise simulation.memory_budget if the host has the memory");
}

}  // namespace hetvp
