"""Builds the wheel of `pip install .` (pyproject.toml): hetvp is configured, built and installed
with CMake into a staging folder, and its package folder gets

    hetvp/__init__.py              python/hetvp/__init__.py (the API)
    hetvp/_hetvp.*.so              the extension (python/hetvp_module.cpp)
    hetvp/libhetvp*.so.*           the simulator's libraries (the extension's run path has $ORIGIN)
    hetvp/configs/, firmware/      the shipped configurations and firmware images; the platform
                                   finds them beside its library (platform/paths.cpp)

Environment:
    HETVP_CMAKE_BUILD_DIR   an existing, built CMake build folder to install from (nothing is
                            built; the CI test uses the tree's own build) — else build/pip
    CMAKE_BUILD_PARALLEL_LEVEL   build jobs (default 2)
    HETVP_CMAKE_ARGS        extra arguments for the CMake configure step
"""
import glob
import importlib.machinery
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py


def require_bdist_wheel():
    """pip builds a wheel through setuptools' bdist_wheel command: setuptools >= 70.1 has it, older ones
    take it from the `wheel` package. Without either, setuptools only says "invalid command
    'bdist_wheel'"; say what is missing and how to get it instead."""
    try:
        import setuptools.command.bdist_wheel  # noqa: F401
        return
    except ImportError:
        pass
    try:
        import wheel  # noqa: F401
    except ImportError:
        sys.exit("setup.py: the Python package 'wheel' is missing for %s (setuptools %s has no bdist_wheel of "
                 "its own), and pip needs it to build hetvp's wheel. Install it into that Python "
                 "(Debian: apt-get install python3-wheel and a venv made with --system-site-packages; "
                 "otherwise: %s -m pip install wheel), or run pip without --no-build-isolation so that it "
                 "fetches setuptools and wheel itself." % (sys.executable, __import__("setuptools").__version__,
                                                           sys.executable))

ROOT = Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(hetvp VERSION ([0-9.]+)", text).group(1)


class BinaryDistribution(Distribution):
    """A platform wheel (it carries compiled libraries), not a pure-Python one."""

    def has_ext_modules(self):
        return True


def cmake(*args):
    print("setup.py: cmake " + " ".join(args), flush=True)
    subprocess.run(["cmake", *args], check=True)


class BuildWithCMake(build_py):
    def run(self):
        super().run()  # __init__.py
        given = os.environ.get("HETVP_CMAKE_BUILD_DIR")
        build = Path(given) if given else ROOT / "build" / "pip"
        if not given:
            if (ROOT / "build" / "CMakeCache.txt").exists() and not (build / "CMakeCache.txt").exists():
                print("setup.py: building hetvp from nothing in %s; to install from the existing build %s "
                      "instead, set HETVP_CMAKE_BUILD_DIR=%s (README.md)" % (build, ROOT / "build", ROOT / "build"),
                      file=sys.stderr, flush=True)
            if not (build / "CMakeCache.txt").exists():
                cmake("-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF",
                      "-DHETVP_BUILD_BENCH=OFF", "-DPython3_EXECUTABLE=" + sys.executable,
                      *shlex.split(os.environ.get("HETVP_CMAKE_ARGS", "")))
            cmake("--build", str(build), "-j", os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2"))
        stage = build / "pip-stage"
        shutil.rmtree(stage, ignore_errors=True)
        cmake("--install", str(build), "--prefix", str(stage))
        pkg = Path(self.build_lib) / "hetvp"
        pkg.mkdir(parents=True, exist_ok=True)
        ext = glob.glob(str(stage / "lib*" / "**" / "hetvp" / "_hetvp*.so"), recursive=True)
        if not ext:
            sys.exit("setup.py: the build has no Python extension (install pybind11-dev python3-dev and reconfigure)")
        # An existing build may be for another interpreter: refuse it here, not at `import hetvp`.
        if not any(ext[0].endswith(sfx) for sfx in importlib.machinery.EXTENSION_SUFFIXES):
            sys.exit("setup.py: %s was built for another Python than %s (%s); configure that build with "
                     "-DPython3_EXECUTABLE=%s" % (Path(ext[0]).name, sys.executable,
                                                  importlib.machinery.EXTENSION_SUFFIXES[0], sys.executable))
        shutil.copy2(ext[0], pkg)
        for lib in glob.glob(str(stage / "lib*" / "libhetvp*.so.*")):
            if re.search(r"\.so\.\d+\.\d+$", lib):  # the SONAME file (libhetvp.so.0.2), real content
                shutil.copy2(lib, pkg / Path(lib).name, follow_symlinks=True)
        for data in ("configs", "firmware"):
            src = stage / "share" / "hetvp" / data
            shutil.rmtree(pkg / data, ignore_errors=True)
            shutil.copytree(src, pkg / data)
        shutil.rmtree(stage, ignore_errors=True)


# setuptools' own folders go under build/ (ignored by git), beside the CMake build.
if {"bdist_wheel", "dist_info"} & set(sys.argv[1:]):  # what pip runs (metadata, then the wheel)
    require_bdist_wheel()
setup(version=project_version(), distclass=BinaryDistribution, cmdclass={"build_py": BuildWithCMake},
      options={"build": {"build_base": "build/pip-setuptools"}})
