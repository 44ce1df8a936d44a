"""The whole-platform trace (--trace): valid JSON (Python's json parser), the tracks of the PCIe
link (per direction, with an occupancy counter), the root complex, the host CPU's API calls, the
coherence directory (history, probes, engine, invalidation) and the caches' range invalidations,
per-instance selection and the routers' opt-in."""
import collections
import json
import os
import subprocess

import pytest

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]


def trace(tmp_path, config, *args):
    t = tmp_path / "trace.json"
    subprocess.run([BIN, "run", os.path.join(SRC, "configs", config), "--quiet", "--trace", str(t), *args],
                   check=True)
    doc = json.loads(t.read_text())  # a real parser: the file must be valid JSON
    events = doc["traceEvents"]
    tracks = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M"}
    spans = collections.defaultdict(list)
    for e in events:
        if e["ph"] in ("X", "i"):
            assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
            if e["ph"] == "X":
                assert e["dur"] >= 0
            spans[tracks[e["tid"]]].append(e)
    counters = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "C":
            counters[e["name"]].append((e["ts"], e["args"]["value"]))
    return spans, counters


TRANSFER = ["--set", "workload.args.max_size=16KiB", "--set", "workload.args.methods=dma,iorw"]


def test_transfer_shows_pcie_link_root_complex_and_cpu(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER)
    for track in ("pcie0.down", "pcie0.up", "rc.mmio", "rc.dma", "rc.config", "cpu"):
        assert spans[track], (track, sorted(spans))
    kinds = {e["name"] for e in spans["pcie0.down"]} | {e["name"] for e in spans["pcie0.up"]}
    assert {"MWr", "MRd", "CplD", "CfgWr", "CfgRd"} <= kinds, kinds
    mwr = next(e for e in spans["pcie0.up"] if e["name"] == "MWr" and e["args"]["payload"] == 128)
    assert mwr["args"]["wire_bytes"] == 128 + 12 + 8 or mwr["args"]["wire_bytes"] == 128 + 16 + 8
    assert {"addr", "size", "by"} <= set(spans["rc.mmio"][0]["args"])
    assert {"read", "write", "sleep"} <= {e["name"] for e in spans["cpu"]}
    assert {"addr", "size", "access"} <= set(next(e for e in spans["cpu"] if e["name"] == "write")["args"])
    # Occupancy of each direction: a counter track that rises and comes back to zero.
    for d in ("down", "up"):
        steps = counters[f"pcie0.{d} occupancy_bytes"]
        assert steps and max(v for _, v in steps) > 0 and steps[-1][1] == 0
        assert [t for t, _ in steps] == sorted(t for t, _ in steps)
    assert not any(track.startswith("host_bus") for track in spans)  # routers: off by default


def test_coherence_run_shows_directory_and_caches(tmp_path):
    spans, _ = trace(tmp_path, "coherence.yaml")
    inval = spans["directory"]
    assert inval and all({"history", "probes", "invalidated", "mode"} <= set(e["args"]) for e in inval)
    assert any(e["args"]["probes"] > 0 for e in inval)
    assert len(spans["directory.probes"]) == sum(e["args"]["probes"] for e in inval)
    assert {e["name"] for e in spans["directory.history"]} >= {"history request to the CPU",
                                                                "history from the CPU complete"}
    assert all(e["name"] == "translate (tlm)" for e in spans["directory.engine"])
    ranges = [e for track in ("l1", "l2") for e in spans[track] if e["name"] == "invalidate range"]
    assert ranges and {"first_line", "lines", "invalidated", "tag_accesses"} <= set(ranges[0]["args"])
    assert spans["pcie0.down"] and spans["cpu"]


# Set by tests/python/CMakeLists.txt from the build (Verilator found or not): the test does not
# find out by running the path it tests, so a broken RTL engine fails instead of skipping.
HAVE_RTL = os.environ.get("HETVP_HAVE_RTL", "1") == "1"


@pytest.mark.skipif(not HAVE_RTL, reason="built without Verilator (HETVP_HAVE_RTL=0)")
def test_rtl_engine_track(tmp_path):
    spans, _ = trace(tmp_path, "coherence.yaml", "--set", "directory.engine=lockstep")
    assert spans["directory.engine"] and all(e["name"] == "translate (lockstep)" for e in spans["directory.engine"])


def test_per_instance_selection_and_routers(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER, "--set", "pcie0.trace=true")
    assert spans and all(track.startswith("pcie0.") for track in spans), sorted(spans)
    assert all(name.startswith("pcie0.") for name in counters)
    spans, _ = trace(tmp_path, "default.yaml", *TRANSFER, "--set", "cpu.trace=false", "--set",
                     "simulation.trace_routers=true")
    assert "cpu" not in spans and spans["host_bus"] and spans["pcie0.down"]
    assert {"addr", "size"} <= set(spans["host_bus"][0]["args"])
