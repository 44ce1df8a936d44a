// What a test looks for in a run's printed text.
#pragma once

#include <cstddef>
#include <string>

namespace hetvp::test {

inline bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// How many times `what` occurs (overlapping occurrences too).
inline size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace hetvp::test
