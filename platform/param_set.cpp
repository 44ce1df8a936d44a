#include "platform/param_set.h"

#include <stdexcept>

#include "platform/format.h"

namespace hetvp {

namespace detail {
std::vector<std::string> split_enum_names(const char* text) {
  std::vector<std::string> out;
  std::string word;
  for (const char* c = text;; ++c) {
    if (*c == ',' || *c == '\0') {
      out.push_back(word);
      word.clear();
      if (*c == '\0') break;
    } else if (*c != ' ' && *c != '\n' && *c != '\t') {
      word += *c;
    }
  }
  return out;
}
}  // namespace detail

// ------------------------------------------------------------------ ParamBase
ParamBase::ParamBase(ParamSet* owner, const char* name, ParamKind kind, const char* doc) {
  spec_.name = name;
  spec_.kind = kind;
  spec_.doc = doc;
  offset_ = reinterpret_cast<char*>(this) - reinterpret_cast<char*>(owner);
  owner->members_.push_back(offset_);
}

const ParamSet& ParamBase::owner() const {
  return *reinterpret_cast<const ParamSet*>(reinterpret_cast<const char*>(this) - offset_);
}

std::string ParamBase::where() const { return owner().view().where(spec_.name); }
std::string ParamBase::path() const { return owner().yaml_path() + "." + spec_.name; }
YAML::Node ParamBase::value_node() const { return owner().view().node(spec_.name); }

void ParamBase::apply(const Allowed& a) {
  spec_.choices.clear();
  for (int64_t v : a.values) spec_.choices.push_back(std::to_string(v));
}

// ------------------------------------------------------------------ ParamSet
std::shared_ptr<Schema> ParamSet::schema() const {
  auto s = std::make_shared<Schema>();
  for (std::ptrdiff_t off : members_) member(off)->declare(*s);
  extend(*s);
  return s;
}

void ParamSet::load(const Params& view) {
  view_ = view;
  for (std::ptrdiff_t off : members_) {
    ParamBase* m = member(off);
    m->given_ = view.has(m->key());
    m->read(view);
  }
}

// ------------------------------------------------------------------ scalar kinds
void Real::init(double def) {
  spec_.default_text = format("%.17g", def);
  v_ = def;
}
void Real::set_default_text(const char* text) {
  spec_.default_text = text;
  v_ = parse_double(text);
  spec_.required = false;
}
void Real::read(const Params& p) {
  if (has_value()) v_ = p.real(key());
}
void Bool::read(const Params& p) {
  if (has_value()) v_ = p.boolean(key());
}
void Str::read(const Params& p) {
  if (has_value()) v_ = p.string(key());
}

// A default is text a user would write; it is parsed here, so a bad one fails when the set is
// first built (every schema is built by `hetvp list` and its test), not on some later run.
void Size::init(const char* def) {
  if (!def) return;
  spec_.default_text = def;
  v_ = parse_size(def);
}
void Size::read(const Params& p) {
  if (has_value()) v_ = p.size(key());
}
void Time::init(const char* def) {
  if (!def) return;
  spec_.default_text = def;
  v_ = parse_time(def);
}
void Time::read(const Params& p) {
  if (has_value()) v_ = p.time(key());
}
void Freq::init(const char* def) {
  if (!def) return;
  spec_.default_text = def;
  v_ = parse_freq(def);
}
void Freq::read(const Params& p) {
  if (has_value()) v_ = p.freq(key());
}
void Any::read(const Params& p) { n_ = p.node(key()); }

Moved::Moved(ParamSet* o, const char* old_key, const char* where) : ParamBase(o, old_key, ParamKind::Any, where) {}

}  // namespace hetvp
