#include "platform/trace.h"

#include <fstream>
#include <stdexcept>

#include "platform/json.h"
#include "platform/format.h"

namespace hetvp {

Tracer& Tracer::get() {
  static Tracer t;
  return t;
}

void Tracer::open(const std::string& path) {
  std::ofstream probe(path);
  if (!probe) throw std::runtime_error("cannot write trace file " + path);
  path_ = path;
  enabled_ = true;
}

void Tracer::span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
                  const sc_core::sc_time& duration) {
  if (!enabled_) return;
  std::string buf = format(",\"ph\":\"X\",\"pid\":1,\"ts\":%.6f,\"dur\":%.6f}", start.to_seconds() * 1e6,
                           duration.to_seconds() * 1e6);
  events_ += first_ ? "\n" : ",\n";
  first_ = false;
  auto it = tracks_.find(track);
  if (it == tracks_.end()) {
    it = tracks_.emplace(track, static_cast<int>(tracks_.size()) + 1).first;
    events_ += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(it->second) +
               ",\"args\":{\"name\":" + JsonWriter::escape(track) + "}},\n";
  }
  events_ += "{\"name\":" + JsonWriter::escape(what) + ",\"tid\":" + std::to_string(it->second) + buf;
}

void Tracer::close() {
  if (!enabled_) return;
  std::ofstream out(path_);
  out << "{\"traceEvents\":[" << events_ << "\n],\"displayTimeUnit\":\"ns\"}\n";
  enabled_ = false;
}

}  // namespace hetvp
