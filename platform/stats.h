// Statistics declared once: a StatGroup per component (or sub-block) holds, in declaration
// order, its stats and child groups. A declaration names the stat, its unit and what it counts;
// the same declaration is what `--stats` writes (JsonWriter, declaration order) and what
// `hetvp stats-doc` lists (docs/stats.md). Nesting follows the component tree: a composite adds
// its sub-blocks' groups as children.
//
// Hot paths are untouched: a model keeps its raw counters (uint64_t, sc_time members) and
// increments them as before; a declaration only records where the value lives (or a function
// computing it at dump time). Nothing is looked up or called per increment.
//
//   stats_.counter("reads", "count", "read transactions", reads_);
//   stats_.time("busy_ns", "time spent transferring", busy_);              // sc_time, dumped in ns
//   stats_.value("valid_lines", "lines", "valid lines at the end", [this] { return array_.valid_count(); });
//   stats_.value("exit_code", "", "...", [this] { return uint64_t(code_); }).when([this] { return halted_; });
//   stats_.add(child.stats());                                               // a nested group
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <systemc>

#include "platform/json.h"

namespace hetvp {

// One line of the stats documentation: the dotted path inside its top-level group.
struct StatInfo {
  std::string path, kind, unit, desc;
};

class StatGroup {
 public:
  explicit StatGroup(std::string name = "") : name_(std::move(name)) {}
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& name() const { return name_; }
  void set_name(const std::string& n) { name_ = n; }
  const StatGroup* parent() const { return parent_; }

  // ---- declarations (each returns this group; `when` applies to the last declaration) ----
  // An event count kept in a raw integer member; dumped as an unsigned integer.
  template <class T>
  StatGroup& counter(const std::string& name, const std::string& unit, const std::string& desc, const T& raw) {
    static_assert(std::is_integral<T>::value && !std::is_same<T, bool>::value, "counter needs an integer member");
    const T* p = &raw;
    return declare(name, "counter", unit, desc, [p](JsonWriter& w, const std::string& k) { w.value(k, uint64_t(*p)); });
  }
  // Accumulated simulated time kept in an sc_time member; dumped in ns as a double.
  StatGroup& time(const std::string& name, const std::string& desc, const sc_core::sc_time& raw);
  // A value computed at dump time (a derived number, a state name, a flag); dumped as f()'s type.
  template <class F>
  StatGroup& value(const std::string& name, const std::string& unit, const std::string& desc, F f) {
    return declare(name, "value", unit, desc, [f](JsonWriter& w, const std::string& k) { w.value(k, f()); });
  }
  // A structured value (an array of records, a map of dynamic keys) written by `f` under key
  // `name`; the description says what it holds.
  StatGroup& record(const std::string& name, const std::string& unit, const std::string& desc,
                    std::function<void(JsonWriter&, const std::string& key)> f);
  // Only dump the last declared stat (or child group) when `cond()` holds.
  StatGroup& when(std::function<bool()> cond);

  // A child group owned by this one (a sub-object without a group of its own).
  StatGroup& group(const std::string& name);
  // Nests another object's group (not owned; it must outlive this one). `name` renames it.
  StatGroup& add(StatGroup& child);
  StatGroup& add(const std::string& name, StatGroup& child);
  // Nests something that writes its own members (a block not ported to declared stats).
  StatGroup& add_undeclared(const std::string& name, std::function<void(JsonWriter&)> body);

  // Writes every stat and child (as a nested object) into `w`'s current object, in order.
  void dump(JsonWriter& w) const;
  // Every declared stat below this group, paths relative to it ("hub.cycles"). Sibling groups
  // that differ only in digits ("gpc0", "gpc1") are listed once, with the digits as "N".
  std::vector<StatInfo> list() const;
  // The number of declarations (stats and children) in this group.
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name, kind, unit, desc;
    std::function<void(JsonWriter&, const std::string&)> dump;  // a stat
    StatGroup* child = nullptr;                                 // or a nested group
    std::unique_ptr<StatGroup> owned;
    std::function<bool()> when;
  };
  StatGroup& declare(const std::string& name, const char* kind, const std::string& unit, const std::string& desc,
                     std::function<void(JsonWriter&, const std::string&)> f);
  void list_into(const std::string& prefix, std::vector<StatInfo>& out) const;

  std::string name_;
  StatGroup* parent_ = nullptr;
  std::vector<Entry> entries_;
};

// Implemented by objects that own a StatGroup but are not Components (GPU blocks), so that a
// composite can nest their declared group.
class HasStats {
 public:
  virtual ~HasStats() = default;
  virtual StatGroup& stat_group() = 0;
};

}  // namespace hetvp
