#include "platform/stats_control.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "platform/component.h"
#include "platform/format.h"

namespace hetvp {

// A JSON value as JsonWriter writes it: objects keep their keys in order; a number keeps the
// text it was written as (so writing it again gives the same bytes).
struct StatsControl::Node {
  enum Kind { Object, Array, String, Number, Bool, Null } kind = Null;
  std::string text;               // String: the unescaped text; Number, Bool: as written
  std::vector<std::string> keys;  // Object: the members' keys (Array: none)
  std::vector<Node> items;        // Object: the members' values; Array: the elements

  const Node* member(const std::string& k) const {
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == k) return &items[i];
    return nullptr;
  }
};

namespace {

using Node = StatsControl::Node;

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  Node document() {
    Node n = value();
    ws();
    if (i_ != s_.size()) fail("text after the value");
    return n;
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw std::runtime_error(format("statistics JSON: %s at byte %zu", what, i_));
  }
  void ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  char peek() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    return s_[i_];
  }
  void expect(char c) {
    if (peek() != c) fail("unexpected character");
    ++i_;
  }
  Node value() {
    Node n;
    const char c = peek();
    if (c == '{' || c == '[') {
      const bool obj = c == '{';
      n.kind = obj ? Node::Object : Node::Array;
      ++i_;
      if (peek() == (obj ? '}' : ']')) {
        ++i_;
        return n;
      }
      for (;;) {
        if (obj) {
          n.keys.push_back(string());
          expect(':');
        }
        n.items.push_back(value());
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect(obj ? '}' : ']');
        return n;
      }
    }
    if (c == '"') {
      n.kind = Node::String;
      n.text = string();
      return n;
    }
    for (const char* lit : {"true", "false", "null"}) {
      if (s_.compare(i_, std::char_traits<char>::length(lit), lit) == 0) {
        n.kind = lit[0] == 'n' ? Node::Null : Node::Bool;
        n.text = lit;
        i_ += n.text.size();
        return n;
      }
    }
    const size_t b = i_;
    while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_]) && s_[i_]) ++i_;
    if (i_ == b) fail("not a JSON value");
    n.kind = Node::Number;
    n.text = s_.substr(b, i_ - b);
    return n;
  }
  std::string string() {
    expect('"');
    std::string o;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return o;
      if (c != '\\') {
        o += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      const char e = s_[i_++];
      switch (e) {
        case 'n':
          o += '\n';
          break;
        case 't':
          o += '\t';
          break;
        case 'r':
          o += '\r';
          break;
        case 'b':
          o += '\b';
          break;
        case 'f':
          o += '\f';
          break;
        case 'u': {  // JsonWriter writes \u00XX for control characters only
          if (i_ + 4 > s_.size()) fail("short \\u escape");
          const unsigned long cp = std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16);
          i_ += 4;
          if (cp > 0x7f) fail("\\u escape beyond ASCII");
          o += static_cast<char>(cp);
          break;
        }
        default:  // \" \\ \/
          o += e;
      }
    }
  }
  const std::string& s_;
  size_t i_ = 0;
};

// A number as JsonWriter wrote it, written again the same way: an unsigned or signed integer, or
// a double (%.12g, which reads back to the same text).
void write_number(JsonWriter& w, const std::string& key, const std::string& t) {
  if (t.find_first_of(".eE") != std::string::npos)
    w.value(key, std::strtod(t.c_str(), nullptr));
  else if (!t.empty() && t[0] == '-')
    w.value(key, static_cast<int64_t>(std::strtoll(t.c_str(), nullptr, 10)));
  else
    w.value(key, static_cast<uint64_t>(std::strtoull(t.c_str(), nullptr, 10)));
}

void write_node(JsonWriter& w, const std::string& key, const Node& n) {
  switch (n.kind) {
    case Node::Object:
      w.begin_object(key);
      for (size_t i = 0; i < n.items.size(); ++i) write_node(w, n.keys[i], n.items[i]);
      w.end_object();
      break;
    case Node::Array:
      w.begin_array(key);
      for (const Node& e : n.items) write_node(w, "", e);
      w.end_array();
      break;
    case Node::String:
      w.value(key, n.text);
      break;
    case Node::Bool:
      w.value(key, n.text == "true");
      break;
    case Node::Null:
      w.value(key, std::numeric_limits<double>::quiet_NaN());  // JsonWriter's null
      break;
    case Node::Number:
      write_number(w, key, n.text);
      break;
  }
}

// "gpc3" -> "gpcN": the name StatGroup::list() gives one of several alike groups (platform/stats.cpp).
std::string doc_name(const std::string& n) {
  std::string o;
  for (size_t i = 0; i < n.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(n[i]));
    if (!digit)
      o += n[i];
    else if (i == 0 || !std::isdigit(static_cast<unsigned char>(n[i - 1])))
      o += 'N';
  }
  return o;
}

// Subtracts the baseline from the counter and time stats of `cur` (a component's statistics or a
// group of them); `prefix` is the group's path as StatGroup::list() spells it ("hub.", "gpcN.").
void subtract(Node& cur, const Node* base, const std::string& prefix, const std::map<std::string, std::string>& kinds) {
  for (size_t i = 0; i < cur.items.size(); ++i) {
    Node& c = cur.items[i];
    const std::string& k = cur.keys[i];
    const Node* b = base ? base->member(k) : nullptr;
    if (c.kind == Node::Object) {
      subtract(c, b && b->kind == Node::Object ? b : nullptr, prefix + doc_name(k) + ".", kinds);
      continue;
    }
    if (c.kind != Node::Number) continue;
    auto it = kinds.find(prefix + k);
    if (it == kinds.end()) continue;
    const bool had = b && b->kind == Node::Number;
    if (it->second == "counter") {
      const uint64_t now = std::strtoull(c.text.c_str(), nullptr, 10);
      const uint64_t then = had ? std::strtoull(b->text.c_str(), nullptr, 10) : 0;
      c.text = std::to_string(now >= then ? now - then : 0);  // a counter that went down: 0
    } else if (it->second == "time") {
      const double now = std::strtod(c.text.c_str(), nullptr);
      const double then = had ? std::strtod(b->text.c_str(), nullptr) : 0.0;
      char t[40];
      std::snprintf(t, sizeof t, "%.12g", now >= then ? now - then : 0.0);
      c.text = t;
    }
  }
}

// A component's statistics, parsed.
Node parsed_stats(const Component& c) {
  std::ostringstream os;
  JsonWriter w(os);
  w.begin_object();
  c.dump_stats(w);
  w.end_object();
  return Parser(os.str()).document();
}

}  // namespace

StatsControl::StatsControl(RunContext&) {}
StatsControl::~StatsControl() = default;

void rewrite_json(JsonWriter& w, const std::string& key, const std::string& text) {
  write_node(w, key, Parser(text).document());
}

void StatsControl::write_components(JsonWriter& w) const {
  for (const Component* c : components_) {
    auto it = baseline_.find(c->instance_name());
    if (it == baseline_.end()) {  // no reset: the component's own dump, as --stats always wrote it
      w.begin_object(c->instance_name());
      c->dump_stats(w);
      w.end_object();
      continue;
    }
    std::map<std::string, std::string> kinds;  // "hub.cycles" -> "counter"
    for (const StatInfo& s : c->stats().list()) kinds[s.path] = s.kind;
    Node cur = parsed_stats(*c);
    subtract(cur, it->second.get(), "", kinds);
    write_node(w, c->instance_name(), cur);
  }
}

std::string StatsControl::document() const {
  std::ostringstream os;
  JsonWriter w(os);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  w.begin_object();
  w.begin_object("run");
  if (header_) header_(w);
  w.value("simulated_ns", now.to_seconds() * 1e9);
  w.value("simulated_seconds", now.to_seconds());
  w.value("stats_since_ns", since_.to_seconds() * 1e9);
  w.value("status", "running");
  w.end_object();
  w.begin_object("components");
  write_components(w);
  w.end_object();
  w.end_object();
  return os.str();
}

void StatsControl::reset() {
  for (const Component* c : components_) baseline_[c->instance_name()] = std::make_unique<Node>(parsed_stats(*c));
  since_ = sc_core::sc_time_stamp();
  ++resets_;
}

}  // namespace hetvp
