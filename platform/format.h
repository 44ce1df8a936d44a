// Text helpers for messages: one hex() and a printf-style format() that return std::string, so no
// message is cut short by a fixed buffer (a long instance name, a long path).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

namespace hetvp {

// "0x1f"; with `digits`, zero-padded to that many hex digits ("0x0000001f" for 8).
inline std::string hex(uint64_t v, int digits = 0) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return b;
}

// printf into a std::string of whatever length the text needs.
__attribute__((format(printf, 1, 2))) inline std::string format(const char* fmt, ...) {
  va_list a, b;
  va_start(a, fmt);
  va_copy(b, a);
  const int n = std::vsnprintf(nullptr, 0, fmt, a);
  va_end(a);
  std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, b);
  va_end(b);
  return s;
}

}  // namespace hetvp
