#include "platform/stats.h"

#include <cctype>
#include <set>
#include <stdexcept>

namespace hetvp {

namespace {
// "gpc3" -> "gpcN", "copy10" -> "copyN": the documentation name of one of several alike groups.
std::string doc_name(const std::string& n) {
  std::string o;
  for (size_t i = 0; i < n.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(n[i]))) {
      if (i == 0 || !std::isdigit(static_cast<unsigned char>(n[i - 1]))) o += 'N';
    } else {
      o += n[i];
    }
  }
  return o;
}
}  // namespace

StatGroup& StatGroup::declare(const std::string& name, const char* kind, const std::string& unit,
                              const std::string& desc, std::function<void(JsonWriter&, const std::string&)> f) {
  for (const Entry& e : entries_)
    if (e.name == name) throw std::logic_error("stat '" + name + "' declared twice in group '" + name_ + "'");
  Entry e;
  e.name = name;
  e.kind = kind;
  e.unit = unit;
  e.desc = desc;
  e.dump = std::move(f);
  entries_.push_back(std::move(e));
  return *this;
}

StatGroup& StatGroup::time(const std::string& name, const std::string& desc, const sc_core::sc_time& raw) {
  const sc_core::sc_time* p = &raw;
  return declare(name, "time", "ns", desc,
                 [p](JsonWriter& w, const std::string& k) { w.value(k, p->to_seconds() * 1e9); });
}

StatGroup& StatGroup::record(const std::string& name, const std::string& unit, const std::string& desc,
                             std::function<void(JsonWriter&, const std::string&)> f) {
  return declare(name, "record", unit, desc, std::move(f));
}

StatGroup& StatGroup::when(std::function<bool()> cond) {
  if (entries_.empty()) throw std::logic_error("StatGroup::when before any declaration");
  entries_.back().when = std::move(cond);
  return *this;
}

StatGroup& StatGroup::group(const std::string& name) {
  auto g = std::make_unique<StatGroup>(name);
  StatGroup& ref = *g;
  add(ref);
  entries_.back().owned = std::move(g);
  return ref;
}

StatGroup& StatGroup::add(StatGroup& child) {
  for (const Entry& e : entries_)
    if (e.name == child.name()) throw std::logic_error("group '" + child.name() + "' added twice to '" + name_ + "'");
  if (child.parent_) throw std::logic_error("group '" + child.name() + "' already has a parent");
  child.parent_ = this;
  Entry e;
  e.name = child.name();
  e.kind = "group";
  e.child = &child;
  entries_.push_back(std::move(e));
  return *this;
}

StatGroup& StatGroup::add(const std::string& name, StatGroup& child) {
  child.set_name(name);
  return add(child);
}

StatGroup& StatGroup::add_undeclared(const std::string& name, std::function<void(JsonWriter&)> body) {
  return declare(name, "undeclared", "", "(statistics written by hand, not declared)",
                 [body](JsonWriter& w, const std::string& k) {
                   w.begin_object(k);
                   body(w);
                   w.end_object();
                 });
}

void StatGroup::dump(JsonWriter& w) const {
  for (const Entry& e : entries_) {
    if (e.when && !e.when()) continue;
    if (e.child) {
      w.begin_object(e.name);
      e.child->dump(w);
      w.end_object();
    } else {
      e.dump(w, e.name);
    }
  }
}

std::vector<StatInfo> StatGroup::list() const {
  std::vector<StatInfo> out;
  list_into("", out);
  return out;
}

void StatGroup::list_into(const std::string& prefix, std::vector<StatInfo>& out) const {
  std::set<std::string> groups_seen;
  for (const Entry& e : entries_) {
    if (e.child) {
      const std::string dn = doc_name(e.name);
      if (!groups_seen.insert(dn).second) continue;
      e.child->list_into(prefix + dn + ".", out);
    } else {
      out.push_back({prefix + e.name, e.kind, e.unit, e.desc});
    }
  }
}

}  // namespace hetvp
