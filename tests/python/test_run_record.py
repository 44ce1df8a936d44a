"""`hetvp run`'s run record (--stats `run` section, --dump-config) and its log levels."""
import glob
import hashlib
import json
import os
import subprocess

import pytest
import yaml

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]
PLUGINS = os.environ["HETVP_TEST_PLUGIN_DIR"]
CONFIGS = sorted(glob.glob(os.path.join(SRC, "configs", "*.yaml")))
# Keeps the round trip short where a config's own workload is a long sweep (the override is part
# of what the dumped configuration holds).
SHORTER = {"transfer": ["--set", "workload.args.max_size=64KiB"]}


def hetvp(*args, check=True):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    # A sanitizer report (-DHETVP_SANITIZE=ON build) fails the test whatever status it expects.
    assert "Sanitizer" not in p.stderr and "runtime error:" not in p.stderr, p.stderr
    if check and p.returncode != 0:
        raise AssertionError(f"hetvp {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def components_text(path):
    """The stats file's "components" section, byte for byte."""
    text = open(path).read()
    return text[text.index('"components"'):]


@pytest.mark.parametrize("path", CONFIGS, ids=os.path.basename)
def test_dump_config_round_trips_to_identical_stats(tmp_path, path):
    workload = yaml.safe_load(open(path)).get("workload", {}).get("name", "boot")
    a, b, dump = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "resolved.yaml"
    hetvp("run", path, "--quiet", "--stats", str(a), "--dump-config", str(dump), *SHORTER.get(workload, []))
    hetvp("run", str(dump), "--quiet", "--stats", str(b))
    assert components_text(a) == components_text(b)
    ra, rb = json.load(open(a))["run"], json.load(open(b))["run"]
    assert ra["resolved"] == rb["resolved"]
    assert rb["overrides"] == [] and rb["config"] == str(dump)
    # The run record: the file's digest, the seed, the version.
    assert ra["config_sha256"] == hashlib.sha256(open(path, "rb").read()).hexdigest()
    assert rb["config_sha256"] == hashlib.sha256(open(dump, "rb").read()).hexdigest()
    assert ra["seed"] == rb["seed"] == ra["resolved"]["simulation"]["seed"]
    assert ra["hetvp"].startswith(hetvp("--version").stdout.split()[1])


def test_resolved_tree_has_every_default(tmp_path):
    s = tmp_path / "s.json"
    hetvp("run", os.path.join(SRC, "configs", "default.yaml"), "--workload", "boot", "--quiet", "--stats", str(s),
          "--set", "pcie0.lanes=8")
    run = json.load(open(s))["run"]
    r = run["resolved"]
    assert r["pcie0"]["lanes"] == 8  # the --set
    assert r["pcie0"]["max_payload"] == 128  # given in the file
    assert r["simulation"]["quantum"] == "1 us"
    assert r["workload"]["name"] == "boot" and "args" in r["workload"]
    assert run["overrides"] == ["pcie0.lanes=8"]
    listed = hetvp("list", "pcie_link").stdout.splitlines()
    with_default = [l.split()[0] for l in listed if l.startswith("  ") and not l.startswith("   ") and " default " in l]
    assert "lanes" in with_default and "latency" in with_default
    for key in with_default:  # every parameter of the type, defaults filled in
        assert key in r["pcie0"], key


def test_dump_config_write_error(tmp_path):
    p = hetvp("check", os.path.join(SRC, "configs", "default.yaml"), "--dump-config", str(tmp_path / "no/such/dir.yaml"),
              check=False)
    assert p.returncode == 2 and "--dump-config: cannot write" in p.stderr


# --- logs --------------------------------------------------------------------------------
def log_run(*extra, warnings=3, check=True):
    return hetvp("run", os.path.join(SRC, "configs", "default.yaml"), "--plugin",
                 os.path.join(PLUGINS, "libhetvp_test_plugin_log_program.so"), "--workload", "log_burst",
                 "--set", f"workload.args.warnings={warnings}", *extra, check=check)


def lines(p, kind):
    """The log_burst program's own lines (not the Cpu debug category's, which -vv also turns on)."""
    return [l for l in p.stderr.splitlines() if l.startswith(kind + ": cpu: ") and not l.startswith("debug: cpu: Cpu: ")]


def test_log_levels():
    p = log_run()
    assert (len(lines(p, "warning")), len(lines(p, "info")), len(lines(p, "debug"))) == (3, 0, 0)
    p = log_run("-v")
    assert (len(lines(p, "warning")), len(lines(p, "info")), len(lines(p, "debug"))) == (3, 2, 0)
    p = log_run("-vv")
    assert (len(lines(p, "warning")), len(lines(p, "info")), len(lines(p, "debug"))) == (3, 2, 1)
    assert "debug: cpu: Cpu: workload log_burst starts" in p.stderr  # -vv: every debug category too
    assert log_run("--log-level", "debug").stderr == p.stderr
    p = log_run("--log-level", "error")
    assert p.stderr == ""
    p = log_run("-q")
    assert p.stderr == "" and p.stdout == ""


def test_per_instance_log_level():
    p = log_run("--set", "cpu.log=debug")
    assert (len(lines(p, "warning")), len(lines(p, "info")), len(lines(p, "debug"))) == (3, 2, 1)
    p = log_run("--log-level", "debug", "--set", "cpu.log=error")
    assert not [l for l in p.stderr.splitlines() if ": cpu: " in l], p.stderr  # the run's own info lines remain
    p = log_run("--set", "cpu.log=loud", check=False)
    assert p.returncode == 2 and "cpu.log: 'loud' is not one of: error, warning, info, debug" in p.stderr
    p = log_run("--log-level", "loud", check=False)
    assert p.returncode == 2 and "--log-level loud: expected error, warning, info or debug" in p.stderr


def test_warning_cut_off_says_how_many_were_dropped(tmp_path):
    s = tmp_path / "s.json"
    p = log_run("--stats", str(s), warnings=75)
    assert len(lines(p, "warning")) == 50
    assert "warning: 25 more warnings not shown (only the first 50 are printed; 75 in all)" in p.stderr
    assert json.load(open(s))["run"]["warnings"] == 75


def test_model_warning_follows_its_instance_level():
    args = ["run", os.path.join(SRC, "configs", "default.yaml"), "--workload", "mmio", "--set",
            "workload.args.address=0x60000000"]
    p = hetvp(*args, check=False)
    assert "warning: host_bus: access to unmapped address 0x60000000" in p.stderr
    p = hetvp(*args, "--set", "host_bus.log=error", check=False)
    assert "unmapped address" not in p.stderr.split("FAILED")[0]
