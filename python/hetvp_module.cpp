// The compiled half of the Python package `hetvp` (python/hetvp/__init__.py is the API users call):
//   _hetvp.run(config: str, workload, overrides: dict, seed, plugins, stats, csv, trace)
//       -> {'status': exit status, 'stats': the --stats document (dict), 'columns', 'rows' (the
//           result table, cells as text), 'summary', 'errors': [{file, line, col, message}]}
//   _hetvp.check(config, overrides, plugins) -> {'status', 'instances', 'errors'}
//   _hetvp.list_types(plugins), _hetvp.schema(), _hetvp.load_plugin(path) -> errors list,
//   _hetvp.version(), _hetvp.__version__ (the project version, e.g. "0.2.0")
// Errors come as data: each ConfigError message split by platform/config.h's diagnose() into
// file, line and col (no pattern matching here or in Python); the Python layer raises ConfigError.
// Each run builds its platform in a fresh SystemC context (platform/simulation.h), so runs can
// follow one another in one process.
#include <cstdlib>
#include <sstream>

#include <pybind11/pybind11.h>
#include <pybind11/eval.h>
#include <pybind11/stl.h>

#include "platform/config.h"
#include "platform/paths.h"
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
  // A shipped config by name, as `hetvp run default` takes it (#42); else the path as given.
  const std::string found = hetvp::find_config(config);
  o.config = found.empty() ? config : found;
  o.plugins = plugins;
  o.version = version();
  if (!seed.is_none()) o.overrides.push_back("simulation.seed=" + set_value(seed));
  if (!overrides.is_none())
    for (auto kv : overrides.cast<py::dict>())
      o.overrides.push_back(py::str(kv.first).cast<std::string>() + "=" + set_value(kv.second));
  return o;
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

py::list errors_list(const std::vector<std::string>& messages) {
  py::list l;
  for (const auto& m : messages) {
    const hetvp::ConfigDiagnostic d = hetvp::diagnose(m);
    py::dict e;
    e["file"] = d.file;
    e["line"] = d.line;
    e["col"] = d.col;
    e["message"] = d.message;
    l.append(e);
  }
  return l;
}

py::dict run(const std::string& config, const py::object& workload, const py::object& overrides, const py::object& seed,
             const std::vector<std::string>& plugins, const std::string& stats, const std::string& csv,
             const std::string& trace) {
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
  py::dict d;
  d["status"] = status;
  d["errors"] = errors_list(outputs.errors);
  d["stderr"] = err.str();
  d["summary"] = outputs.summary;
  if (status == hetvp::kExitUsage) return d;
  d["stats"] = json_loads(outputs.stats_json);
  d["columns"] = outputs.results.columns();
  d["rows"] = outputs.results.rows();
  return d;
}

py::dict check(const std::string& config, const py::object& overrides, const std::vector<std::string>& plugins) {
  hetvp::RunOptions o = options(config, overrides, py::none(), plugins);
  hetvp::RunOutputs outputs;
  o.outputs = &outputs;
  o.quiet = true;
  std::ostringstream out, err;
  py::dict d;
  d["status"] = hetvp::check_platform(o, out, err);
  d["errors"] = errors_list(outputs.errors);
  d["instances"] = outputs.instances;
  return d;
}

py::list load_plugins(const std::vector<std::string>& plugins) {
  try {
    for (auto& p : plugins) hetvp::load_plugin(p, "load_plugin");
  } catch (const hetvp::ConfigError& e) {
    return errors_list(e.messages());
  }
  return py::list();
}

}  // namespace

PYBIND11_MODULE(_hetvp, m) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  m.doc() = "hetvp's compiled core (use the package `hetvp`)";
  m.attr("__version__") = HETVP_VERSION;
  m.def("version", &version, "hetvp's version and git description");
  m.def("run", &run, py::arg("config"), py::arg("workload") = py::none(), py::arg("overrides") = py::none(),
        py::arg("seed") = py::none(), py::arg("plugins") = std::vector<std::string>{}, py::arg("stats") = "",
        py::arg("csv") = "", py::arg("trace") = "");
  m.def("check", &check, py::arg("config"), py::arg("overrides") = py::none(),
        py::arg("plugins") = std::vector<std::string>{});
  m.def(
      "list_types",
      [](const std::vector<std::string>& plugins) -> py::object {
        py::list errors = load_plugins(plugins);
        if (!errors.empty()) return std::move(errors);
        return json_loads(hetvp::types_json());
      },
      py::arg("plugins") = std::vector<std::string>{});
  m.def("schema", [] { return json_loads(hetvp::config_json_schema()); });
  m.def("load_plugin", [](const std::string& p) { return load_plugins({p}); }, py::arg("path"));
}
