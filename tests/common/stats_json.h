// Numbers read out of a --stats JSON document as text (no JSON library in the tests' dependencies).
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace hetvp::test {

// The value after the first "key" of `path`, then the next key after it, and so on (a component's
// group, then its counter), without surrounding quotes; "" when a key is missing.
inline std::string stats_text(const std::string& json, const std::vector<std::string>& path) {
  size_t pos = 0;
  for (const auto& k : path) {
    pos = json.find("\"" + k + "\"", pos);
    if (pos == std::string::npos) return "";
    pos += k.size() + 2;
  }
  pos = json.find(':', pos);
  if (pos == std::string::npos) return "";
  const size_t end = json.find_first_of(",}\n", pos + 1);
  std::string v = json.substr(pos + 1, end - pos - 1);
  v.erase(0, v.find_first_not_of(" \""));
  v.erase(v.find_last_not_of(" \"") + 1);
  return v;
}

// The number at `path` (as stats_text); a missing key fails the test and gives -1.
inline double stats_number(const std::string& json, const std::vector<std::string>& path) {
  const std::string v = stats_text(json, path);
  EXPECT_FALSE(v.empty()) << "no stats value at " << (path.empty() ? "" : path.back());
  return v.empty() ? -1 : std::stod(v);
}

// The number after the first `"key": ` anywhere in the document; -1 when absent (not a failure: a
// test may expect a counter to be absent).
inline double first_stat(const std::string& json, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const size_t p = json.find(k);
  return p == std::string::npos ? -1 : std::stod(json.substr(p + k.size()));
}

}  // namespace hetvp::test
