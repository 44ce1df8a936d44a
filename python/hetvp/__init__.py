"""hetvp: a SystemC/TLM-2.0 virtual platform of a CPU-GPU system, from Python.

    import hetvp
    r = hetvp.run("configs/default.yaml", workload="boot")      # a path (str or pathlib.Path) ...
    r = hetvp.run({"simulation": {...}, "cpu": {...}, ...})      # ... or the configuration as a dict
    r["run"]["status"], r["components"]["pcie0"]["bytes"], r["csv"][0]["bandwidth_MBps"]
    r.table                                                      # pandas.DataFrame when pandas is installed

`run` returns the stats document (numbers are numbers) plus 'csv' (the workload's result table,
one dict per row, cells as int/float/str), 'summary' (the human summary) and 'errors' (stderr).
A configuration error raises ConfigError with .file, .line, .col, .message and .errors (every
error the check found); a failed simulation is r["run"]["status"] == "fail", not an exception.
docs/library.md, "Python".
"""
import json
import os
import tempfile

try:
    from . import _hetvp
except ImportError as e:  # built for another interpreter (the file name says which), or not built
    import glob as _glob
    import sys as _sys
    _built = [os.path.basename(f) for f in _glob.glob(os.path.join(os.path.dirname(__file__), "_hetvp*.so"))]
    raise ImportError("hetvp: cannot load its extension for Python %d.%d (%s); found: %s. Build it for this "
                      "interpreter (pip install --no-build-isolation ., or cmake -DPython3_EXECUTABLE=%s)"
                      % (_sys.version_info[0], _sys.version_info[1], e, ", ".join(_built) or "none",
                         _sys.executable)) from e

__version__ = _hetvp.__version__
__all__ = ["run", "check", "list_types", "schema", "load_plugin", "version", "ConfigError", "RunResult",
           "__version__"]


class ConfigError(ValueError):
    """A configuration or usage error (the `hetvp` program's exit status 2).

    .file, .line, .col   where the first error is (line and col 0 when not located: a --set
                         override, a missing file)
    .message             its text (location included)
    .errors              every error found (up to 20), each a dict with file, line, col, message
    """

    def __init__(self, errors):
        self.errors = [dict(e) for e in errors] or [{"file": "", "line": 0, "col": 0, "message": "error"}]
        first = self.errors[0]
        self.file, self.line, self.col, self.message = first["file"], first["line"], first["col"], first["message"]
        super().__init__("\n".join(e["message"] for e in self.errors))


def _raise(errors):
    if errors:
        raise ConfigError(errors)


def version():
    """hetvp's version and git description, e.g. '0.2.0 (v0.2.0-12-gabcdef)'."""
    return _hetvp.version()


def _typed(cell):
    """A CSV cell as the number it is (int, then float), else the text."""
    if not isinstance(cell, str):
        return cell
    try:
        return int(cell, 0) if cell.lower().startswith("0x") else int(cell)
    except ValueError:
        pass
    try:
        return float(cell)
    except ValueError:
        return cell


class RunResult(dict):
    """The stats document ({'run': ..., 'components': ...}) plus 'csv', 'summary' and 'errors'."""

    @property
    def rows(self):
        """The result table: one dict per row, cells typed."""
        return self["csv"]

    @property
    def table(self):
        """The result table as a pandas.DataFrame when pandas is importable, else the rows."""
        try:
            import pandas
        except ImportError:
            return self["csv"]
        return pandas.DataFrame(self["csv"], columns=getattr(self, "columns", None) or None)


class _ConfigFile:
    """A configuration given as a str/Path (used as is) or a dict (written to a temporary file
    as JSON, which YAML reads as it is: values such as "1 us" or "64 MiB" stay strings)."""

    def __init__(self, config):
        self.tmp = None
        if isinstance(config, dict):
            fd, self.path = tempfile.mkstemp(prefix="hetvp-config-", suffix=".yaml")
            with os.fdopen(fd, "w") as f:
                json.dump(config, f, indent=1, default=str)
            self.tmp = self.path
        elif isinstance(config, (str, os.PathLike)):
            self.path = os.fspath(config)
        else:
            raise TypeError("config must be a path (str or pathlib.Path) or a dict, not %s" % type(config).__name__)

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        if self.tmp:
            os.unlink(self.tmp)


def _fix_errors(errors, path, config):
    # Errors in a dict configuration name "<dict>" rather than a temporary file that is gone.
    if isinstance(config, dict):
        for e in errors:
            if e["file"] == path:
                e["file"] = "<dict>"
            e["message"] = e["message"].replace(path, "<dict>")
    return errors


def _path_or_empty(p):
    return os.fspath(p) if p is not None else ""


def run(config, workload=None, overrides=None, seed=None, plugins=(), stats=None, csv=None, trace=None, quiet=True):
    """Builds, boots and runs CONFIG (a path or a dict); returns a RunResult.

    workload: the host program (else the config's); overrides: {dotted.path: value} like --set;
    seed: simulation.seed (None keeps the config's); plugins: libraries to load; stats, csv,
    trace: files to write as well; quiet=False prints the human summary.
    Raises ConfigError for a configuration error (nothing simulated).
    """
    with _ConfigFile(config) as path:
        r = _hetvp.run(path, workload=workload, overrides=overrides, seed=seed,
                       plugins=[os.fspath(p) for p in plugins], stats=_path_or_empty(stats), csv=_path_or_empty(csv),
                       trace=_path_or_empty(trace))
        _raise(_fix_errors(r["errors"], path, config))
    if not quiet:
        print(r["summary"], end="")
    result = RunResult(r["stats"])
    columns = list(r["columns"])
    result.columns = columns
    result["csv"] = [{c: _typed(v) for c, v in zip(columns, row)} for row in r["rows"]]
    result["summary"] = r["summary"]
    result["errors"] = r["stderr"]
    return result


def check(config, overrides=None, plugins=()):
    """Validates CONFIG and builds it without simulating; returns the number of instances.
    Raises ConfigError (every error of the file, up to 20, in .errors)."""
    with _ConfigFile(config) as path:
        r = _hetvp.check(path, overrides=overrides, plugins=[os.fspath(p) for p in plugins])
        _raise(_fix_errors(r["errors"], path, config))
    return r["instances"]


def list_types(plugins=()):
    """Every component type and host program with its parameters (kind, unit, default, range, choices, doc)."""
    r = _hetvp.list_types([os.fspath(p) for p in plugins])
    if isinstance(r, list):
        _raise(r)
    return r


def schema():
    """The JSON Schema of the configuration format (what `hetvp schema` prints)."""
    return _hetvp.schema()


def load_plugin(path):
    """Loads a plugin library (platform/plugin.h)."""
    _raise(_hetvp.load_plugin(os.fspath(path)))
