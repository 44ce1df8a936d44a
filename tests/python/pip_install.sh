#!/bin/bash
# `pip install` of the package, as the README and docs/library.md give it, in a fresh venv OUTSIDE
# the source tree, offline (--no-index, --no-build-isolation: Debian's setuptools, wheel and
# pybind11): `import hetvp` then finds the installed copy (its libraries, firmware and configs
# inside it), prints __version__, runs a configuration given as a dict and a shipped one.
# HETVP_CMAKE_BUILD_DIR makes setup.py install from this build instead of building again.
# usage: pip_install.sh BUILD SOURCE
set -eu
build=$1 src=$2
tmp=$(mktemp -d /tmp/hetvp-pip-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
/usr/bin/python3 -m venv --system-site-packages v
HETVP_CMAKE_BUILD_DIR=$build v/bin/pip install --no-build-isolation --no-index -q "$src" >"$tmp/pip.txt" 2>&1 ||
  { cat "$tmp/pip.txt"; exit 1; }
mkdir elsewhere && cd elsewhere
v=$(../v/bin/python -c "import hetvp; print(hetvp.__version__)")
want=$(sed -n 's/^project(hetvp VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ $v == "$want" ]] || { echo "FAIL: hetvp.__version__ is '$v', expected '$want'"; exit 1; }
../v/bin/python - "$tmp" <<'PY'
import os, sys
import hetvp
tmp = sys.argv[1]
assert hetvp.__file__.startswith(os.path.join(tmp, "v")), "imported from " + hetvp.__file__
import yaml
shipped = os.path.join(os.path.dirname(hetvp.__file__), "configs", "default.yaml")
config = yaml.safe_load(open(shipped))  # a configuration built in Python: a dict
config["simulation"]["seed"] = 3
config["workload"] = {"name": "transfer", "cpu": "cpu",
                      "args": {"max_size": "8 KiB", "methods": "dma", "directions": "htod"}}
r = hetvp.run(config)
assert r["run"]["status"] == "pass", r["summary"]
assert r["run"]["seed"] == 3
assert r["csv"] and isinstance(r["csv"][0]["size_bytes"], int), r["csv"][:1]
print("dict config:", r["run"]["status"], len(r["csv"]), "rows")
# A shipped configuration by name: found inside the installed package.
b = hetvp.run(shipped, workload="boot")
assert b["run"]["status"] == "pass", b["summary"]
try:
    hetvp.check({**config, "pcie0": {**config["pcie0"], "lanse": 8}})
    raise SystemExit("FAIL: no ConfigError")
except hetvp.ConfigError as e:
    assert e.file == "<dict>" and e.line > 0 and "unknown key 'lanse'" in e.message, (e.file, e.line, e.message)
print("pip-installed hetvp", hetvp.__version__, "ok")
PY
# A Python without the `wheel` package (a venv without Debian's site packages: pip and setuptools
# only) is told what is missing and how to get it, instead of setuptools' "invalid command
# 'bdist_wheel'" (issue #42 item 3). Nothing is built.
cd "$tmp"
/usr/bin/python3 -m venv bare
if bare/bin/python -c "import wheel" 2>/dev/null || bare/bin/python -c "import setuptools.command.bdist_wheel" 2>/dev/null; then
  echo "(this venv has bdist_wheel: the missing-wheel message is not exercised)"
else
  if bare/bin/pip install --no-build-isolation --no-index "$src" >"$tmp/bare.txt" 2>&1; then
    echo "FAIL: pip install without wheel succeeded"; exit 1
  fi
  grep -q "setup.py: the Python package 'wheel' is missing for $tmp/bare/bin/python" "$tmp/bare.txt" ||
    { cat "$tmp/bare.txt"; echo "FAIL: no message naming the missing wheel package"; exit 1; }
  ! grep -q "invalid command 'bdist_wheel'" "$tmp/bare.txt" || { echo "FAIL: setuptools' bare error is back"; exit 1; }
  echo "a Python without wheel: told what is missing"
fi
