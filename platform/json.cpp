#include "platform/json.h"

#include <cmath>
#include <cstdio>

namespace hetvp {

std::string JsonWriter::escape(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

void JsonWriter::key(const std::string& k) {
  if (!first_.back()) out_ << ",";
  first_.back() = false;
  out_ << "\n" << std::string(2 * depth_, ' ');
  if (!k.empty()) out_ << escape(k) << ": ";
}

JsonWriter& JsonWriter::begin_object(const std::string& k) {
  if (depth_ > 0) key(k);
  out_ << "{";
  first_.push_back(true);
  ++depth_;
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  --depth_;
  first_.pop_back();
  out_ << "\n" << std::string(2 * depth_, ' ') << "}";
  if (depth_ == 0) out_ << "\n";
  return *this;
}
JsonWriter& JsonWriter::begin_array(const std::string& k) {
  key(k);
  out_ << "[";
  first_.push_back(true);
  ++depth_;
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  --depth_;
  first_.pop_back();
  out_ << "\n" << std::string(2 * depth_, ' ') << "]";
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& k, uint64_t v) {
  key(k);
  out_ << v;
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& k, int64_t v) {
  key(k);
  out_ << v;
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& k, double v) {
  key(k);
  if (!std::isfinite(v)) {
    out_ << "null";
    return *this;
  }
  char b[40];
  snprintf(b, sizeof b, "%.12g", v);
  out_ << b;
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& k, bool v) {
  key(k);
  out_ << (v ? "true" : "false");
  return *this;
}
JsonWriter& JsonWriter::value(const std::string& k, const std::string& v) {
  key(k);
  out_ << escape(v);
  return *this;
}

}  // namespace hetvp
