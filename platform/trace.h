// A transaction timeline in the Chrome trace-event format (open it in chrome://tracing or
// Perfetto). Off unless `hetvp run --trace FILE`; when off, a call costs one branch.
#pragma once

#include <map>
#include <string>

#include <systemc>

namespace hetvp {

class Tracer {
 public:
  static Tracer& get();
  void open(const std::string& path);
  void close();
  bool enabled() const { return enabled_; }
  // One completed span on `track` (a component name), from `start` lasting `duration`.
  void span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
            const sc_core::sc_time& duration);

 private:
  bool enabled_ = false;
  std::string path_;
  std::string events_;
  bool first_ = true;
  std::map<std::string, int> tracks_;
};

}  // namespace hetvp
