#include "platform/debug.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <stdexcept>

#include <systemc>

namespace hetvp {

namespace {
struct Entry {
  const char* name;
  const char* doc;
};
const Entry kFlags[] = {
#define HETVP_DEBUG_ENTRY(name, doc) {#name, doc},
    HETVP_DEBUG_FLAG_TABLE(HETVP_DEBUG_ENTRY)
#undef HETVP_DEBUG_ENTRY
};
static_assert(sizeof kFlags / sizeof kFlags[0] == static_cast<size_t>(DebugFlag::kCount));
static_assert(static_cast<unsigned>(DebugFlag::kCount) <= 32, "one bit per category in a uint32_t");

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

const char* DebugLog::name(DebugFlag f) { return kFlags[static_cast<unsigned>(f)].name; }
const char* DebugLog::doc(DebugFlag f) { return kFlags[static_cast<unsigned>(f)].doc; }

std::vector<DebugFlag> DebugLog::all() {
  std::vector<DebugFlag> v;
  for (unsigned i = 0; i < static_cast<unsigned>(DebugFlag::kCount); ++i) v.push_back(static_cast<DebugFlag>(i));
  return v;
}

void DebugLog::enable(const std::string& list) {
  size_t b = 0;
  while (b <= list.size()) {
    size_t e = list.find(',', b);
    if (e == std::string::npos) e = list.size();
    std::string n = list.substr(b, e - b);
    n.erase(0, n.find_first_not_of(' '));
    n.erase(n.find_last_not_of(' ') + 1);
    b = e + 1;
    if (n.empty()) continue;
    if (lower(n) == "all") {
      for (DebugFlag f : all()) enable(f);
      continue;
    }
    bool found = false;
    for (DebugFlag f : all())
      if (lower(name(f)) == lower(n)) {
        enable(f);
        found = true;
      }
    if (!found) {
      std::string known;
      for (DebugFlag f : all()) known += (known.empty() ? "" : ", ") + std::string(name(f));
      throw std::invalid_argument("--debug-flags: unknown category '" + n + "' (known: " + known +
                                  ", all; `hetvp list debug-flags` says what each prints)");
    }
  }
}

bool DebugLog::on(DebugFlag f, const sc_core::sc_object* who) const {
  if (!instances_.empty() && who) {
    const std::string n = who->name();
    auto it = instances_.find(n.substr(0, n.find('.')));
    if (it != instances_.end()) return it->second;
  }
  return (mask_ & bit(f)) != 0;
}

void DebugLog::print(DebugFlag f, const sc_core::sc_object* who, const std::string& text) const {
  ++lines_;
  std::ostream& o = out_ ? *out_ : std::cerr;
  o << "debug: " << (who ? who->name() : "?") << ": " << name(f) << ": " << text << " ["
    << sc_core::sc_time_stamp() << "]\n";
}

}  // namespace hetvp
