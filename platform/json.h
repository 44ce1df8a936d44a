// A tiny deterministic JSON writer for stats (keys in insertion order, fixed number format).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace hetvp {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  JsonWriter& begin_object(const std::string& key = "");
  JsonWriter& end_object();
  JsonWriter& begin_array(const std::string& key = "");
  JsonWriter& end_array();
  JsonWriter& value(const std::string& key, uint64_t v);
  JsonWriter& value(const std::string& key, int64_t v);
  JsonWriter& value(const std::string& key, unsigned v) { return value(key, static_cast<uint64_t>(v)); }
  JsonWriter& value(const std::string& key, int v) { return value(key, static_cast<int64_t>(v)); }
  JsonWriter& value(const std::string& key, double v);
  JsonWriter& value(const std::string& key, bool v);
  JsonWriter& value(const std::string& key, const std::string& v);
  JsonWriter& value(const std::string& key, const char* v) { return value(key, std::string(v)); }
  static std::string escape(const std::string& s);

 private:
  void key(const std::string& k);
  std::ostream& out_;
  std::vector<bool> first_{true};
  int depth_ = 0;
};

}  // namespace hetvp
