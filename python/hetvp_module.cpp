// The Python module `hetvp`:
//   hetvp.run(config, workload=None, overrides={}, seed=1, plugins=[], stats=None, csv=None,
//             trace=None) -> dict   the stats document ({'run': ..., 'components': ...}) plus
//                                   'csv' (the result table as a list of dicts, one per row) and
//                                   'summary' (the human summary); raises hetvp.ConfigError
//   hetvp.check(config, overrides={}, plugins=[]) -> int (instances); raises hetvp.ConfigError
//                                   with .file, .line, .col (0 when not located) and .message
//   hetvp.list_types(plugins=[]) -> dict   every component type's and host program's parameters
//   hetvp.load_plugin(path), hetvp.version(), hetvp.schema() (the config JSON Schema as a dict)
// Each run builds its platform in a fresh SystemC context (platform/simulation.h), so runs can
// follow one another in one process.
#include <cstdlib>
#include <regex>
#include <sstream>

#include <pybind11/pybind11.h>
#include <pybind11/eval.h>
#include <pybind11/stl.h>

#include "platform/config.h"
#include "platform/plugin.h"
#include "platform/schema_json.h"
#include "platform/simulation.h"

namespace py = pybind11;

// libsystemc references sc_main; the module never calls sc_elab_and_sim.
__attribute__((visibility("default"))) int sc_main(int, char**) { return 0; }

namespace {

std::string version() { return std::string(HETVP_VERSION) + " (" + HETVP_GIT_DESCRIBE + ")"; }

// A Python value as the text `--set path=value` takes.
std::string set_value(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::string s = "[";
    bool first = true;
    for (auto item : v) {
      s += (first ? "" : ", ") + set_value(item);
      first = false;
    }
    return s + "]";
  }
  return py::str(v).cast<std::string>();
}

hetvp::RunOptions options(const std::string& config, const py::object& overrides, const py::object& seed,
                          const std::vector<std::string>& plugins) {
  hetvp::RunOptions o;
  o.config = config;
  o.plugins = plugins;
  o.version = version();
  if (!seed.is_none()) o.overrides.push_back("simulation.seed=" + set_value(seed));
  if (!overrides.is_none())
    for (auto kv : overrides.cast<py::dict>())
      o.overrides.push_back(py::str(kv.first).cast<std::string>() + "=" + set_value(kv.second));
  return o;
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// Raises hetvp.ConfigError from the "error: file:line:col: what" lines a check or run printed.
[[noreturn]] void raise_config_error(const std::string& err_text) {
  std::string msg = err_text;
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  if (msg.rfind("error: ", 0) == 0) msg = msg.substr(7);
  std::string file, line = "0", col = "0";
  std::smatch m;
  static const std::regex located(R"(^([^:\n]+):(\d+):(\d+): )");
  static const std::regex file_only(R"(^([^:\n ]+)[: ])");
  if (std::regex_search(msg, m, located)) {
    file = m[1], line = m[2], col = m[3];
  } else if (std::regex_search(msg, m, file_only)) {
    file = m[1];
  }
  py::object cls = py::module_::import("hetvp").attr("ConfigError");
  py::object e = cls(msg);
  e.attr("file") = file;
  e.attr("line") = std::stoi(line);
  e.attr("col") = std::stoi(col);
  e.attr("message") = msg;
  PyErr_SetObject(cls.ptr(), e.ptr());
  throw py::error_already_set();
}

py::dict run(const std::string& config, const py::object& workload, const py::object& overrides, const py::object& seed,
             const std::vector<std::string>& plugins, const std::string& stats, const std::string& csv,
             const std::string& trace, bool quiet) {
  hetvp::RunOptions o = options(config, overrides, seed, plugins);
  if (!workload.is_none()) o.workload = workload.cast<std::string>();
  o.stats_path = stats;
  o.csv_path = csv;
  o.trace_path = trace;
  hetvp::RunOutputs outputs;
  o.outputs = &outputs;
  std::ostringstream out, err;
  int status;
  {
    py::gil_scoped_release release;
    status = hetvp::run_platform(o, out, err);
  }
  if (!quiet) py::print(out.str(), py::arg("end") = "");
  if (status == hetvp::kExitUsage) raise_config_error(err.str());
  py::dict d = json_loads(outputs.stats_json);
  py::list rows;
  const auto& cols = outputs.results.columns();
  for (const auto& r : outputs.results.rows()) {
    py::dict row;
    for (size_t i = 0; i < cols.size() && i < r.size(); ++i) row[py::str(cols[i])] = r[i];
    rows.append(row);
  }
  d["csv"] = rows;
  d["summary"] = outputs.summary;
  d["errors"] = err.str();
  return d;
}

int check(const std::string& config, const py::object& overrides, const std::vector<std::string>& plugins) {
  hetvp::RunOptions o = options(config, overrides, py::none(), plugins);
  o.quiet = false;
  std::ostringstream out, err;
  if (hetvp::check_platform(o, out, err) != hetvp::kExitOk) raise_config_error(err.str());
  // "CONFIG: OK (N instances)"
  std::smatch m;
  const std::string text = out.str();
  static const std::regex n(R"(\((\d+) instances\))");
  return std::regex_search(text, m, n) ? std::stoi(m[1]) : 0;
}

void load_plugins(const std::vector<std::string>& plugins) {
  try {
    for (auto& p : plugins) hetvp::load_plugin(p, "load_plugin");
  } catch (const hetvp::ConfigError& e) {
    raise_config_error(e.what());
  }
}

}  // namespace

PYBIND11_MODULE(hetvp, m) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  m.doc() = "hetvp: a SystemC/TLM-2.0 virtual platform of a CPU-GPU system";
  py::exec(R"(
class ConfigError(ValueError):
    """A configuration or usage error (hetvp's exit status 2): .file, .line, .col, .message."""
    file = ""
    line = 0
    col = 0
    message = ""
)",
           m.attr("__dict__"));
  m.def("version", &version, "hetvp's version and git description");
  m.def("run", &run, py::arg("config"), py::arg("workload") = py::none(), py::arg("overrides") = py::none(),
        py::arg("seed") = 1, py::arg("plugins") = std::vector<std::string>{}, py::arg("stats") = "",
        py::arg("csv") = "", py::arg("trace") = "", py::arg("quiet") = true,
        "Builds, boots and runs CONFIG; returns the stats dict plus 'csv' (rows as dicts) and 'summary'. "
        "overrides: {dotted.path: value} as --set; seed: simulation.seed (None: the config's). "
        "Raises ConfigError for a configuration error; a failed simulation has run['status'] == 'fail'.");
  m.def("check", &check, py::arg("config"), py::arg("overrides") = py::none(),
        py::arg("plugins") = std::vector<std::string>{},
        "Validates CONFIG and builds it without simulating; returns the number of instances or raises ConfigError "
        "(with .file, .line, .col)");
  m.def(
      "list_types",
      [](const std::vector<std::string>& plugins) {
        load_plugins(plugins);
        return json_loads(hetvp::types_json());
      },
      py::arg("plugins") = std::vector<std::string>{},
      "Every component type and host program with its parameters: kind, unit, default, range, choices, doc");
  m.def(
      "schema", [] { return json_loads(hetvp::config_json_schema()); },
      "The JSON Schema of the configuration format (what `hetvp schema` prints)");
  m.def(
      "load_plugin", [](const std::string& p) { load_plugins({p}); }, py::arg("path"),
      "Loads a plugin library (platform/plugin.h)");
}
