// `--stats-every`: periodic snapshots of the statistics (stats_periodic.h).
#include "platform/stats_periodic.h"

#include <sstream>
#include <stdexcept>

#include "platform/component.h"
#include "platform/json.h"
#include "platform/run_stop.h"

namespace hetvp {

std::string PeriodicStats::path_for(const std::string& stats_path) {
  const std::string ext = ".json";
  const bool json = stats_path.size() > ext.size() && stats_path.compare(stats_path.size() - ext.size(), ext.size(), ext) == 0;
  return (json ? stats_path.substr(0, stats_path.size() - ext.size()) : stats_path) + ".periodic.jsonl";
}

PeriodicStats::PeriodicStats(const std::string& path, const std::vector<Component*>& components)
    : path_(path), out_(path, std::ios::trunc), components_(components) {
  if (!out_) throw std::runtime_error("cannot write the periodic statistics to " + path);
}

// JsonWriter writes indented lines; a line of JSON Lines is the same text without the line breaks
// and indentation (a string value never holds a raw line break: JsonWriter escapes it).
void PeriodicStats::dump(const sc_core::sc_time& at) {
  std::ostringstream text;
  JsonWriter w(text);
  w.begin_object();
  w.value("sim_time_ns", at.to_seconds() * 1e9);
  w.begin_object("components");
  for (auto* c : components_) {
    w.begin_object(c->instance_name());
    c->dump_stats(w);
    w.end_object();
  }
  w.end_object();
  w.end_object();
  const std::string s = text.str();
  std::string line;
  line.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n') {
      line += s[i];
      continue;
    }
    while (i + 1 < s.size() && s[i + 1] == ' ') ++i;
  }
  out_ << line << "\n" << std::flush;  // a line at a time: a reader (tail -f) sees whole lines
  ++lines_;
}

void PeriodicStats::run(const sc_core::sc_time& limit, const sc_core::sc_time& every,
                        const std::function<void(const sc_core::sc_time&)>& simulate_to) {
  for (sc_core::sc_time next = every;; next += every) {
    const sc_core::sc_time until = next < limit ? next : limit;
    simulate_to(until);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    // The run ended before `until`: the workload finished or failed (RunState pauses the
    // simulation), sc_stop, or an interrupt / --wall-limit at a safe point.
    const bool ended = sc_core::sc_get_status() == sc_core::SC_STOPPED || now < until || run_stop_requested();
    if (ended || until >= limit) return;  // the caller writes the last line, once the models have ended the run
    dump(now);
  }
}

}  // namespace hetvp
