#include "platform/trace.h"

#include <fstream>
#include <stdexcept>

#include "platform/format.h"
#include "platform/json.h"

namespace hetvp {

void Tracer::open(const std::string& path) {
  std::ofstream probe(path);
  if (!probe) throw std::runtime_error("cannot write trace file " + path);
  path_ = path;
  enabled_ = true;
  any_selected_ = false;
  for (auto& [inst, on] : selected_) any_selected_ |= on;
}

bool Tracer::enabled_for(const std::string& track, bool by_default) const {
  if (!enabled_) return false;
  const std::string inst = track.substr(0, track.find('.'));
  auto it = selected_.find(inst);
  if (it != selected_.end()) return it->second;
  return !any_selected_ && by_default;
}

int Tracer::track_id(const std::string& track) {
  auto it = tracks_.find(track);
  if (it == tracks_.end()) {
    it = tracks_.emplace(track, static_cast<int>(tracks_.size()) + 1).first;
    events_ += first_ ? "\n" : ",\n";
    first_ = false;
    events_ += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(it->second) +
               ",\"args\":{\"name\":" + JsonWriter::escape(track) + "}}";
  }
  return it->second;
}

void Tracer::span(const std::string& track, const std::string& what, const sc_core::sc_time& start,
                  const sc_core::sc_time& duration, const std::string& args) {
  if (!enabled_ || !enabled_for(track)) return;
  const int tid = track_id(track);
  events_ += first_ ? "\n" : ",\n";
  first_ = false;
  events_ += "{\"name\":" + JsonWriter::escape(what) + ",\"tid\":" + std::to_string(tid) +
             format(",\"ph\":\"X\",\"pid\":1,\"ts\":%.6f,\"dur\":%.6f", start.to_seconds() * 1e6,
                    duration.to_seconds() * 1e6) +
             (args.empty() ? "" : ",\"args\":{" + args + "}") + "}";
}

void Tracer::instant(const std::string& track, const std::string& what, const sc_core::sc_time& at,
                     const std::string& args) {
  if (!enabled_ || !enabled_for(track)) return;
  const int tid = track_id(track);
  events_ += first_ ? "\n" : ",\n";
  first_ = false;
  events_ += "{\"name\":" + JsonWriter::escape(what) + ",\"tid\":" + std::to_string(tid) +
             format(",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"ts\":%.6f", at.to_seconds() * 1e6) +
             (args.empty() ? "" : ",\"args\":{" + args + "}") + "}";
}

void Tracer::counter(const std::string& track, const std::string& name, const sc_core::sc_time& at, double value) {
  if (!enabled_ || !enabled_for(track)) return;
  events_ += first_ ? "\n" : ",\n";
  first_ = false;
  // A counter is its own track in the viewers, named "track name".
  events_ += "{\"name\":" + JsonWriter::escape(track + " " + name) +
             format(",\"ph\":\"C\",\"pid\":1,\"ts\":%.6f,\"args\":{\"value\":%.17g}}", at.to_seconds() * 1e6, value);
}

void Tracer::counter_delta(const std::string& track, const std::string& name, const sc_core::sc_time& at,
                           double delta) {
  if (!enabled_ || !enabled_for(track)) return;
  deltas_[track + " " + name][at] += delta;
}

void Tracer::close() {
  if (!enabled_) return;
  for (const auto& [counter, steps] : deltas_) {
    double level = 0;
    for (const auto& [t, delta] : steps) {
      level += delta;
      events_ += first_ ? "\n" : ",\n";
      first_ = false;
      events_ += "{\"name\":" + JsonWriter::escape(counter) +
                 format(",\"ph\":\"C\",\"pid\":1,\"ts\":%.6f,\"args\":{\"value\":%.17g}}", t.to_seconds() * 1e6, level);
    }
  }
  deltas_.clear();
  std::ofstream out(path_);
  out << "{\"traceEvents\":[" << events_ << "\n],\"displayTimeUnit\":\"ns\"}\n";
  enabled_ = false;
}

}  // namespace hetvp
