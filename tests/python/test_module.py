"""The Python package `hetvp` (python/hetvp/__init__.py over python/hetvp_module.cpp): run, check, list_types."""
import json
import os
import subprocess

import pytest

import hetvp

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]


def config(name):
    return os.path.join(SRC, "configs", name)


def test_run_returns_stats_and_run_record():
    r = hetvp.run(config("default.yaml"), workload="boot")
    run = r["run"]
    assert run["status"] == "pass", r["summary"]
    assert run["workload"] == "boot"
    assert run["seed"] == 1
    assert run["hetvp"] == hetvp.version()
    assert "gpu0" in r["components"] and "pcie0" in r["components"]
    assert "init-done" in r["summary"]


def test_csv_rows_are_dicts():
    r = hetvp.run(config("default.yaml"), workload="transfer",
                  overrides={"workload.args.max_size": "16 KiB", "workload.args.methods": "dma",
                             "workload.args.directions": "htod"}, seed=7)
    rows = r["csv"]
    assert len(rows) >= 2
    assert {"method", "direction", "size_bytes"} <= set(rows[0]), rows[0]
    assert {row["method"] for row in rows} == {"DMA"}
    assert r["run"]["seed"] == 7
    assert "workload.args.methods=dma" in r["run"]["overrides"]


def test_two_platforms_one_after_the_other_match_the_program(tmp_path):
    """Three platforms in one process (two topologies), each equal to a separate `hetvp run`."""
    first = hetvp.run(config("default.yaml"), workload="boot")
    other = hetvp.run(config("coherence.yaml"), workload="boot")
    again = hetvp.run(config("default.yaml"), workload="boot")
    assert other["run"]["status"] == "pass"
    assert "directory" in other["components"] and "directory" not in first["components"]
    assert first["components"] == again["components"]
    stats = tmp_path / "s.json"
    subprocess.run([BIN, "run", config("default.yaml"), "--workload", "boot", "--set", "simulation.seed=1",
                    "--stats", str(stats), "--quiet"], check=True)
    assert json.loads(stats.read_text())["components"] == first["components"]


def test_each_platform_has_its_own_coherence_checker():
    """The checker's shadow memory and counts belong to the run: a second platform starts empty
    (a process-wide checker counted the first run's loads again and carried its shadow memory)."""
    checked = {"workload.args.programs": "20", "cpu_cc.checker": "true", "gpu0.compute.controller.checker": "true"}
    first = hetvp.run(config("coherence.yaml"), workload="coh_random", overrides=checked)
    plain = hetvp.run(config("coherence.yaml"), workload="coh_random", overrides={"workload.args.programs": "20"})
    again = hetvp.run(config("coherence.yaml"), workload="coh_random", overrides=checked)
    assert first["run"]["status"] == "pass", first["summary"]
    assert first["components"]["directory"]["checker_loads"] > 0
    assert plain["components"]["directory"]["checker_loads"] == 0, "checker: false in this run"
    assert again["components"] == first["components"]


def test_simulated_failure_is_a_status_not_an_exception():
    r = hetvp.run(config("default.yaml"), workload="boot", overrides={"simulation.time_limit": "1 us"})
    assert r["run"]["status"] == "fail"
    assert "did not finish within simulation.time_limit" in r["run"]["failures"][0]


def test_check_error_carries_file_line_col(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = open(config("default.yaml")).read().replace("  lanes: 16", "  lanse: 16", 1)
    bad.write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("  lanse:"))
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.check(str(bad))
    assert (e.value.file, e.value.line, e.value.col) == (str(bad), line, 3)
    assert "unknown key 'lanse' (did you mean 'lanes'?)" in e.value.message
    assert isinstance(e.value, ValueError)


def test_check_errors_syntax_override_missing_file(tmp_path):
    bad = tmp_path / "syntax.yaml"
    bad.write_text("cpu:\n  type: host_cpu\n  clock: [1\n")
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.check(str(bad))
    assert e.value.file == str(bad) and e.value.line >= 3 and "YAML syntax error" in e.value.message
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.check(config("default.yaml"), overrides={"pcie0.lanes": 3})
    assert "(--set pcie0.lanes)" in e.value.message and e.value.line == 0
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.run(str(tmp_path / "nope.yaml"))
    assert "nope.yaml" in e.value.message
    assert hetvp.check(config("two_gpus.yaml")) == 8
    # A shipped config by name, as `hetvp run default` takes it (#42).
    assert hetvp.check("two_gpus") == 8


def test_list_types_is_the_schema():
    t = hetvp.list_types()
    lanes = next(p for p in t["components"]["pcie_link"]["params"] if p["name"] == "lanes")
    assert "16" in lanes["choices"] and lanes["default"] == "16" and lanes["doc"]
    latency = next(p for p in t["components"]["pcie_link"]["params"] if p["name"] == "latency")
    assert latency["unit"] == "s"
    assert "transfer" in t["programs"] and "boot" in t["programs"]
    assert [p["name"] for p in t["sections"]["simulation"]] == ["seed", "quantum", "time_limit", "memory_budget", "trace_routers"]


def test_bad_plugin_is_a_config_error():
    d = os.environ["HETVP_TEST_PLUGIN_DIR"]
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.load_plugin(os.path.join(d, "libhetvp_test_plugin_no_info.so"))
    assert "not a hetvp plugin" in e.value.message


def test_version_is_the_project_version():
    assert hetvp.__version__ == hetvp.version().split()[0]
    assert hetvp.__version__.count(".") == 2


def test_path_objects_and_the_configs_seed(tmp_path):
    """A pathlib.Path works; without seed= the config's seed is kept (it used to be forced to 1)."""
    from pathlib import Path
    cfg = tmp_path / "seed9.yaml"
    cfg.write_text(open(config("default.yaml")).read().replace("  seed: 1", "  seed: 9", 1))
    r = hetvp.run(Path(cfg), workload="boot")
    assert r["run"]["seed"] == 9 and r["run"]["status"] == "pass"
    assert hetvp.run(cfg, workload="boot", seed=3)["run"]["seed"] == 3
    assert hetvp.check(Path(config("two_gpus.yaml"))) == 8


def test_dict_config_runs_like_its_file(tmp_path):
    import yaml
    d = yaml.safe_load(open(config("default.yaml")))
    d["workload"] = {"name": "transfer", "cpu": "cpu",
                     "args": {"max_size": "8 KiB", "methods": "dma", "directions": "htod"}}
    d["simulation"]["seed"] = 4
    r = hetvp.run(d)
    assert r["run"]["status"] == "pass" and r["run"]["seed"] == 4
    f = tmp_path / "same.yaml"
    f.write_text(yaml.safe_dump(d))
    assert hetvp.run(str(f))["components"] == r["components"]
    with pytest.raises(TypeError):
        hetvp.run(42)


def test_results_are_typed():
    r = hetvp.run(config("default.yaml"), workload="transfer",
                  overrides={"workload.args.max_size": "16 KiB", "workload.args.methods": "dma",
                             "workload.args.directions": "htod"})
    row = r["csv"][0]
    assert isinstance(row["size_bytes"], int) and isinstance(row["method"], str)
    assert isinstance(r["components"]["pcie0"], dict)
    assert all(isinstance(v, (int, float)) for v in r["run"].values() if isinstance(v, (int, float)))
    assert r.rows is r["csv"]
    t = r.table
    try:
        import pandas  # noqa: F401
        assert list(t.columns) == list(row) and len(t) == len(r["csv"])
    except ImportError:
        assert t is r["csv"]


def test_every_error_of_a_dict_config_is_structured():
    import yaml
    d = yaml.safe_load(open(config("default.yaml")))
    d["pcie0"]["lanse"] = 16
    d["gpu0"]["gpcz"] = 4
    with pytest.raises(hetvp.ConfigError) as e:
        hetvp.check(d)
    assert len(e.value.errors) == 2, e.value.errors
    assert e.value.file == "<dict>" and e.value.line > 0 and e.value.col > 0
    assert "unknown key 'lanse'" in e.value.errors[0]["message"]
    assert "unknown key 'gpcz'" in e.value.errors[1]["message"]
    assert all(err["file"] == "<dict>" for err in e.value.errors)


def test_missing_extension_says_what_to_build(tmp_path):
    """A package whose extension is missing or for another Python: an ImportError that says which
    interpreter to build for (a Python 3.12 user used to get a bare ModuleNotFoundError)."""
    import shutil
    import sys
    pkg = tmp_path / "hetvp"
    pkg.mkdir()
    shutil.copy(hetvp.__file__, pkg / "__init__.py")
    (pkg / "_hetvp.cpython-399-x86_64-linux-gnu.so").write_bytes(b"")
    r = subprocess.run([sys.executable, "-c", "import hetvp"], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode != 0
    assert "hetvp: cannot load its extension for Python %d.%d" % sys.version_info[:2] in r.stderr, r.stderr
    assert "found: _hetvp.cpython-399-x86_64-linux-gnu.so" in r.stderr and "-DPython3_EXECUTABLE=" in r.stderr
