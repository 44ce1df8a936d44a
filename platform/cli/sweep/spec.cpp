// Sweep file: parsing, validation, expansion into points (sweep.h).
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>
#include <unistd.h>

#include "platform/config.h"
#include "platform/diagnostics.h"
#include "platform/file_input.h"
#include "platform/params.h"
#include "platform/paths.h"
#include "platform/cli/sweep/sweep.h"

namespace hetvp::sweep {

namespace {

// The sweep file being read: every located error names it and the node's line and column. It is
// passed to each helper (no file-wide state), so two sweep files can be read at once.
struct SweepFile {
  std::string name;
  std::string where(const YAML::Node& n) const {
    if (!n || n.Mark().is_null() || n.Mark().line < 0) return name;
    return name + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& what) const {
    throw ConfigError(where(n) + ": " + (path.empty() ? "" : path + ": ") + what);
  }
};

// The text a value takes on the `hetvp run --set PATH=VALUE` command line.
std::string value_text(const SweepFile& f, const YAML::Node& n, const std::string& path) {
  if (n.IsScalar()) {
    if (n.Scalar().find('\n') != std::string::npos) f.fail(n, path, "a value may not span lines");
    return n.Scalar();
  }
  if (n.IsNull()) f.fail(n, path, "a value may not be empty (null)");
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  std::string s = e.c_str();
  if (s.find('\n') != std::string::npos) f.fail(n, path, "a value may not span lines");
  return s;
}

std::string resolve_base(const std::string& base, const std::string& spec_file) {
  std::vector<std::string> tries;
  if (!base.empty() && base[0] == '/') {
    tries.push_back(base);
  } else {
    auto slash = spec_file.rfind('/');
    tries.push_back((slash == std::string::npos ? std::string(".") : spec_file.substr(0, slash)) + "/" + base);
    tries.push_back(base);
    tries.push_back(data_dir() + "/" + base);
  }
  for (auto& t : tries) {
    char buf[PATH_MAX];
    if (access(t.c_str(), R_OK) == 0 && realpath(t.c_str(), buf)) return buf;
  }
  // A shipped config by name, as `hetvp run default` takes it (#42).
  const std::string shipped = find_config(base);
  char buf[PATH_MAX];
  if (!shipped.empty() && realpath(shipped.c_str(), buf)) return buf;
  return "";
}

const std::vector<std::string> kKeys = {"base",  "workload", "set",     "axes",    "zip",
                                        "seeds", "outputs",  "columns", "timeout", "slurm"};

// A list of values for an axis at `path`; located errors for a non-list and an empty list.
std::vector<std::string> axis_values(const SweepFile& f, const YAML::Node& list, const std::string& path) {
  if (!list.IsSequence())
    f.fail(list, path, "an axis is a list of values, e.g. [1, 2, 4] (for one fixed value use `set`)");
  if (list.size() == 0) f.fail(list, path, "the axis is empty: give it at least one value");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) out.push_back(value_text(f, list[i], path + "[" + std::to_string(i) + "]"));
  return out;
}

void check_path(const SweepFile& f, const YAML::Node& key, const std::string& ctx) {
  const std::string p = key.Scalar();
  if (p.empty() || p.front() == '.' || p.back() == '.' || p.find("..") != std::string::npos ||
      p.find('=') != std::string::npos)
    f.fail(key, ctx, "'" + p + "' is not a dotted configuration path (e.g. pcie0.lanes)");
}

// Where each column of a point came from, so that a failing point names the value in the file.
struct Origin {
  std::string path;                     // "axes.pcie0.lanes"
  std::vector<YAML::Node> value_nodes;  // per value index
};

void load_outputs(const SweepFile& f, const YAML::Node& r, Spec& s);
void load_timeout(const SweepFile& f, const YAML::Node& r, Spec& s);
void load_slurm(const SweepFile& f, const YAML::Node& r, Spec& s);

}  // namespace

Spec load_spec(const std::string& path) {
  try {  // a regular file within the limit (platform/file_input.h): a FIFO would block the open
    check_input_file(path, input_kind::kSweepSpec);
  } catch (const InputFileError& e) {
    throw ConfigError(e.what());
  }
  Config c = Config::load_file(path);  // size/depth limits, duplicate keys, syntax: located
  const SweepFile f{path};
  Spec s;
  s.file = path;
  const YAML::Node& r = c.root;
  // Every error of the file at once (#42: one per invocation made four mistakes four rounds): each
  // key, each set entry and each axis is checked on its own; the first error of each is kept.
  Diagnostics diag;
  for (auto it = r.begin(); it != r.end(); ++it) diag.collect([&] {
    const std::string k = it->first.Scalar();
    if (std::find(kKeys.begin(), kKeys.end(), k) == kKeys.end()) {
      std::string near = nearest_name(k, kKeys);
      f.fail(it->first, "",
           "unknown key '" + k + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
               "; a sweep file has: base, workload, set, axes, zip, seeds, outputs, columns, "
               "timeout, slurm");
    }
  });
  diag.collect([&] {
    if (!r["base"]) f.fail(r, "", "missing required key 'base' (the configuration every point starts from)");
    if (!r["base"].IsScalar()) f.fail(r["base"], "base", "expected a file name");
    s.base = resolve_base(r["base"].Scalar(), path);
    if (s.base.empty())
      f.fail(r["base"], "base",
             "cannot read '" + r["base"].Scalar() + "' (looked next to the sweep file, in the current directory, in " +
                 data_dir() + " and among the shipped configs)");
  });
  diag.collect([&] {
    if (r["workload"]) {
      if (!r["workload"].IsScalar()) f.fail(r["workload"], "workload", "expected a workload name");
      s.workload = r["workload"].Scalar();
    }
  });
  diag.collect([&] {
    if (!r["set"]) return;
    if (!r["set"].IsMap()) f.fail(r["set"], "set", "expected a map PATH: VALUE");
    for (auto it = r["set"].begin(); it != r["set"].end(); ++it) diag.collect([&] {
        check_path(f, it->first, "set");
        const std::string p = it->first.Scalar();
        s.set.push_back(p + "=" + value_text(f, it->second, "set." + p));
      });
  });
  auto add_axes = [&]() {
    if (!r["axes"].IsMap()) f.fail(r["axes"], "axes", "expected a map PATH: [values]");
    for (auto it = r["axes"].begin(); it != r["axes"].end(); ++it) diag.collect([&] {
        check_path(f, it->first, "axes");
        Dimension d;
        d.paths.push_back(it->first.Scalar());
        d.values.push_back(axis_values(f, it->second, "axes." + it->first.Scalar()));
        s.dims.push_back(d);
      });
  };
  auto add_zip = [&]() {  // one group (a map) or several (a list of maps)
    std::vector<YAML::Node> groups;
    if (r["zip"].IsMap())
      groups.push_back(r["zip"]);
    else if (r["zip"].IsSequence())
      for (size_t i = 0; i < r["zip"].size(); ++i) groups.push_back(r["zip"][i]);
    else
      f.fail(r["zip"], "zip", "expected a map PATH: [values] (or a list of such maps)");
    for (auto& g : groups) {
      if (!g.IsMap() || g.size() == 0) f.fail(g, "zip", "a zip group is a non-empty map PATH: [values]");
      Dimension d;
      YAML::Node first;
      for (auto it = g.begin(); it != g.end(); ++it) {
        check_path(f, it->first, "zip");
        d.paths.push_back(it->first.Scalar());
        d.values.push_back(axis_values(f, it->second, "zip." + it->first.Scalar()));
        if (d.values.size() == 1) {
          first = it->first;
        } else if (d.values.back().size() != d.values[0].size()) {
          f.fail(it->second, "zip." + it->first.Scalar(),
               "has " + std::to_string(d.values.back().size()) + " values but '" + first.Scalar() + "' has " +
                   std::to_string(d.values[0].size()) + ": zipped axes advance together and need the same length");
        }
      }
      s.dims.push_back(d);
    }
  };
  auto add_seeds = [&]() {
    Dimension d;
    d.paths.push_back("simulation.seed");
    d.values.push_back(axis_values(f, r["seeds"], "seeds"));
    for (size_t i = 0; i < d.values[0].size(); ++i) {
      try {
        long long v = std::stoll(d.values[0][i], nullptr, 0);
        if (v < 0 || v > 4294967295LL) throw std::out_of_range("seed");
      } catch (const std::exception&) {
        f.fail(r["seeds"][i], "seeds[" + std::to_string(i) + "]", "a seed is an integer 0..4294967295");
      }
    }
    s.dims.push_back(d);
  };
  // Dimensions in the order the file gives them: the first varies slowest, the last fastest.
  for (auto it = r.begin(); it != r.end(); ++it) {
    const std::string k = it->first.Scalar();
    if (k == "axes") diag.collect(add_axes);
    if (k == "zip") diag.collect(add_zip);
    if (k == "seeds") diag.collect(add_seeds);
  }
  // Two dimensions on one path would override each other silently.
  std::set<std::string> seen;
  for (auto& d : s.dims)
    for (auto& p : d.paths)
      if (!seen.insert(p).second)
        diag.collect([&] {
          f.fail(r["zip"] ? r["zip"] : r["axes"], p, "'" + p + "' is swept twice (in axes, zip or seeds)");
        });
  diag.collect([&] { load_outputs(f, r, s); });
  diag.collect([&] { load_timeout(f, r, s); });
  diag.collect([&] { load_slurm(f, r, s); });
  diag.throw_if_any(path);
  return s;
}

namespace {

// outputs: and columns: (columns keep the stats)
void load_outputs(const SweepFile& f, const YAML::Node& r, Spec& s) {
  if (r["outputs"]) {
    const YAML::Node& o = r["outputs"];
    if (!o.IsSequence()) f.fail(o, "outputs", "expected a list, e.g. [stats, csv]");
    s.keep_stats = s.keep_csv = false;
    for (size_t i = 0; i < o.size(); ++i) {
      const std::string v = o[i].IsScalar() ? o[i].Scalar() : "";
      if (v == "stats")
        s.keep_stats = true;
      else if (v == "csv")
        s.keep_csv = true;
      else {
        std::string near = nearest_name(v, {"stats", "csv"});
        f.fail(o[i], "outputs[" + std::to_string(i) + "]",
             "'" + v + "' is not one of: stats, csv" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
      }
    }
  }
  if (r["columns"]) {
    const YAML::Node& o = r["columns"];
    if (!o.IsSequence()) f.fail(o, "columns", "expected a list of statistics, e.g. [directory.probes]");
    for (size_t i = 0; i < o.size(); ++i) {
      if (!o[i].IsScalar() || o[i].Scalar().find('.') == std::string::npos)
        f.fail(o[i], "columns[" + std::to_string(i) + "]", "expected INSTANCE.STAT, e.g. directory.probes");
      s.columns.push_back(o[i].Scalar());
    }
    if (!s.columns.empty()) s.keep_stats = true;
  }
}

void load_timeout(const SweepFile& f, const YAML::Node& r, Spec& s) {
  if (r["timeout"]) {
    try {
      if (!r["timeout"].IsScalar()) throw std::invalid_argument("not a scalar");
      s.timeout_s = parse_time(r["timeout"].Scalar()).to_seconds();
    } catch (const std::exception& e) {
      f.fail(r["timeout"], "timeout", std::string("expected a time, e.g. 600 s: ") + e.what());
    }
  }
}

void load_slurm(const SweepFile& f, const YAML::Node& r, Spec& s) {
  if (r["slurm"]) {
    const YAML::Node& sl = r["slurm"];
    if (!sl.IsMap()) f.fail(sl, "slurm", "expected a map");
    static const std::vector<std::string> keys = {"partition",     "time",         "mem",   "account",
                                                  "cpus_per_task", "max_parallel", "setup", "sbatch"};
    for (auto it = sl.begin(); it != sl.end(); ++it) {
      const std::string k = it->first.Scalar();
      const YAML::Node v = it->second;
      const std::string p = "slurm." + k;
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
        std::string near = nearest_name(k, keys);
        f.fail(it->first, p, "unknown key '" + k + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
      }
      if (k == "setup" || k == "sbatch") {
        if (!v.IsSequence()) f.fail(v, p, "expected a list of lines");
        for (size_t i = 0; i < v.size(); ++i) {
          if (!v[i].IsScalar()) f.fail(v[i], p, "expected a line of text");
          (k == "setup" ? s.slurm.setup : s.slurm.sbatch).push_back(v[i].Scalar());
        }
        continue;
      }
      if (!v.IsScalar()) f.fail(v, p, "expected a value");
      if (k == "cpus_per_task" || k == "max_parallel") {
        try {
          int n = std::stoi(v.Scalar());
          if (n < (k == "cpus_per_task" ? 1 : 0) || n > 100000) throw std::out_of_range(k);
          (k == "cpus_per_task" ? s.slurm.cpus_per_task : s.slurm.max_parallel) = n;
        } catch (const std::exception&) {
          f.fail(v, p, "expected a small non-negative integer");
        }
      } else {
        (k == "partition" ? s.slurm.partition
         : k == "time"    ? s.slurm.time
         : k == "mem"     ? s.slurm.mem
                          : s.slurm.account) = v.Scalar();
      }
    }
  }
}

}  // namespace

std::vector<std::string> run_args(const Spec& spec, const Point& p, const std::string& dir) {
  std::vector<std::string> a{"run", spec.base, "--quiet"};
  if (!p.workload.empty()) {
    a.push_back("--workload");
    a.push_back(p.workload);
  }
  for (auto& s : p.sets) {
    a.push_back("--set");
    a.push_back(s);
  }
  if (spec.keep_stats) {
    a.push_back("--stats");
    a.push_back(dir + "/stats.json");
  }
  if (spec.keep_csv) {
    a.push_back("--csv");
    a.push_back(dir + "/results.csv");
  }
  return a;
}

std::vector<Point> expand(const Spec& spec) {
  // Re-read the sweep file's nodes, to name the value behind an error.
  Config sf = Config::load_file(spec.file);
  const SweepFile f{spec.file};
  auto node_of = [&](const std::string& dpath, size_t i) -> YAML::Node {
    if (dpath == "simulation.seed" && sf.root["seeds"]) return sf.root["seeds"][i];
    for (const char* sec : {"axes", "zip"}) {
      YAML::Node s = sf.root[sec];
      if (!s) continue;
      std::vector<YAML::Node> groups;
      if (s.IsSequence())
        for (size_t g = 0; g < s.size(); ++g) groups.push_back(s[g]);
      else
        groups.push_back(s);
      for (auto& g : groups)
        if (g.IsMap() && g[dpath]) return g[dpath][i];
    }
    return sf.root;
  };
  size_t total = 1;
  for (auto& d : spec.dims) {
    if (d.size() == 0) throw ConfigError(spec.file + ": an axis is empty");
    if (total > 1000000 / d.size()) throw ConfigError(spec.file + ": the grid has more than 1,000,000 points");
    total *= d.size();
  }
  std::vector<Point> points;
  std::vector<size_t> idx(spec.dims.size(), 0);
  // Every point's error at once (#42), each distinct error once, with the first point it breaks.
  Diagnostics diag;
  std::set<std::string> reported;
  for (size_t n = 0; n < total; ++n) {
    // Mixed-radix index: the first dimension varies slowest.
    size_t rest = n;
    for (size_t k = spec.dims.size(); k-- > 0;) {
      idx[k] = rest % spec.dims[k].size();
      rest /= spec.dims[k].size();
    }
    Point p;
    p.index = n;
    p.workload = spec.workload;
    std::vector<std::pair<std::string, size_t>> origin;  // per set: (dim path, value index) or ("set", -)
    for (auto& s : spec.set) {
      p.sets.push_back(s);
      origin.emplace_back("", 0);
    }
    for (size_t k = 0; k < spec.dims.size(); ++k) {
      const Dimension& d = spec.dims[k];
      for (size_t j = 0; j < d.paths.size(); ++j) {
        const std::string& v = d.values[j][idx[k]];
        p.axis_values.emplace_back(d.paths[j] == "simulation.seed" ? "seed" : d.paths[j], v);
        if (d.paths[j] == "workload") {
          p.workload = v;
        } else {
          p.sets.push_back(d.paths[j] + "=" + v);
          origin.emplace_back(d.paths[j], idx[k]);
        }
      }
    }
    // Resolve exactly as `hetvp run` does (platform/simulation.cpp), then validate.
    Config c;
    std::string culprit;
    try {
      c = Config::load_file(spec.base);
      if (!p.workload.empty()) {
        const YAML::Node& w = c.root["workload"];
        bool same = w && w["name"] && w["name"].Scalar() == p.workload;
        if (!same && w && w["args"]) c.root["workload"].remove("args");
        c.apply_override("workload.name=" + p.workload);
      }
      for (size_t i = 0; i < p.sets.size(); ++i) {
        culprit = origin[i].first.empty() ? "" : p.sets[i];
        c.apply_override(p.sets[i]);
      }
      culprit.clear();
      c.validate();
    } catch (const ConfigError& e) {
      for (const std::string& msg : e.messages()) {  // each error of the point on its own
      // Name the sweep file's value: the override that failed, or every swept value of the point.
      std::string at;
      // A value the validation located on the command line names its override exactly: "(--set P)".
      for (size_t i = 0; i < p.sets.size() && at.empty() && culprit.empty(); ++i) {
        const std::string path = p.sets[i].substr(0, p.sets[i].find('='));
        if (msg.find("(--set " + path + ")") == std::string::npos) continue;
        if (origin[i].first.empty())
          at = f.where(sf.root["set"] ? sf.root["set"][path] : sf.root) + ": set." + path + ": ";
        else
          at = f.where(node_of(origin[i].first, origin[i].second)) + ": " + origin[i].first + "[" +
               std::to_string(origin[i].second) + "]: ";
      }
      if (!at.empty()) {
      } else if (!culprit.empty()) {
        for (size_t i = 0; i < p.sets.size(); ++i)
          if (p.sets[i] == culprit && !origin[i].first.empty()) {
            YAML::Node vn = node_of(origin[i].first, origin[i].second);
            at = f.where(vn) + ": " + origin[i].first + "[" + std::to_string(origin[i].second) + "]: ";
          }
      } else {
        // Which swept path does the message mention? Pick the longest match.
        size_t best = 0;
        for (size_t i = 0; i < p.sets.size(); ++i) {
          const std::string& path = origin[i].first;
          if (path.empty() || path.size() <= best) continue;
          if (msg.find(path) != std::string::npos) {
            best = path.size();
            at = f.where(node_of(path, origin[i].second)) + ": " + path + "[" + std::to_string(origin[i].second) + "]: ";
          }
        }
        if (at.empty()) {
          for (size_t i = 0; i < p.sets.size(); ++i)
            if (origin[i].first.empty() && msg.find(p.sets[i].substr(0, p.sets[i].find('='))) != std::string::npos)
              at = f.where(sf.root["set"]) + ": set: ";
        }
        if (at.empty()) at = spec.file + ": point " + std::to_string(n) + ": ";
      }
      std::string vals;
      for (auto& av : p.axis_values) vals += (vals.empty() ? "" : ", ") + av.first + "=" + av.second;
      if (reported.insert(at + msg).second)
        diag.error(at + msg + (vals.empty() ? "" : " (point " + std::to_string(n) + ": " + vals + ")"));
      }
      continue;
    }
    YAML::Emitter e;
    e << c.root;
    std::string text = std::string(e.c_str()) + "\n# workload " + p.workload;
    uint64_t h = 1469598103934665603ull;  // FNV-1a 64
    for (unsigned char ch : text) {
      h ^= ch;
      h *= 1099511628211ull;
    }
    char buf[17];
    snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    p.hash = buf;
    points.push_back(std::move(p));
  }
  diag.throw_if_any(spec.file);
  return points;
}

}  // namespace hetvp::sweep
