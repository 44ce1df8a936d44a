"""The whole-platform trace (--trace): valid JSON (Python's json parser) of the trace-event schema
(check_schema), complete spans that nest on every track (check_nesting; overlaps are async pairs),
the tracks of the PCIe link (per direction, with an occupancy counter), the root complex, the host
CPU's API calls, the coherence directory (history, probes, engine, invalidation) and the caches'
range invalidations, the RTL bridges' tracks, per-instance selection, the routers' opt-in,
--trace-window and --trace-filter and their errors; a track left out (filter, `trace: false`) writes
nothing and leaves the kept tracks' events unchanged."""
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
    check_schema(doc)
    check_nesting(doc["traceEvents"])
    events = doc["traceEvents"]
    tracks = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    spans = collections.defaultdict(list)
    for e in events:
        if e["ph"] in ("X", "i", "b"):  # a span that overlapped others on its track is an async pair (b/e)
            spans[tracks[e["tid"]]].append(e)
    counters = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "C":
            counters[e["name"]].append((e["ts"], e["args"]["value"]))
    return spans, counters


# --- the file's schema --------------------------------------------------------------------
PHASES = {"X", "b", "e", "i", "C", "M"}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0


def check_schema(doc):
    """The Chrome trace-event JSON object format as hetvp writes it: every event's fields and
    types, each thread and process named (metadata) before its first event, async pairs matched."""
    assert set(doc) == {"traceEvents", "displayTimeUnit"} and doc["displayTimeUnit"] == "ns"
    threads, processes = set(), set()
    open_async = {}
    for e in doc["traceEvents"]:
        assert isinstance(e, dict) and isinstance(e.get("name"), str) and e["ph"] in PHASES, e
        assert isinstance(e["pid"], int) and e["pid"] >= 1, e
        if "args" in e:
            assert isinstance(e["args"], dict), e
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "thread_name") and isinstance(e["args"]["name"], str), e
            if e["name"] == "process_name":
                processes.add(e["pid"])
            else:
                assert e["pid"] in processes, e
                threads.add((e["pid"], e["tid"]))
            continue
        assert number(e["ts"]), e
        assert e["pid"] in processes, e
        if e["ph"] == "C":
            assert set(e["args"]) == {"value"} and isinstance(e["args"]["value"], (int, float)), e
            continue
        assert (e["pid"], e["tid"]) in threads, e
        if e["ph"] == "X":
            assert number(e["dur"]), e
        elif e["ph"] == "i":
            assert e["s"] == "t", e
        else:
            assert isinstance(e["cat"], str) and isinstance(e["id"], int), e
            key = (e["cat"], e["id"])
            if e["ph"] == "b":
                assert key not in open_async, e  # a lane holds one span at a time
                open_async[key] = e
            else:
                b = open_async.pop(key)
                assert b["name"] == e["name"] and e["ts"] >= b["ts"], (b, e)
    assert not open_async, list(open_async.values())[:3]


def ps(us):
    return round(us * 1e6)  # the file's microseconds, exact to the picosecond


def check_nesting(events):
    """On every track (pid, tid) complete spans ("X") nest: each one lies inside the one it starts
    in, or starts after it ends. Overlapping operations must be async pairs instead."""
    per_track = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            per_track[(e["pid"], e["tid"])].append((ps(e["ts"]), ps(e["ts"]) + ps(e["dur"]), e["name"]))
    for track, spans in per_track.items():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name in spans:
            while stack and stack[-1][1] <= start:
                stack.pop()
            assert not stack or end <= stack[-1][1], (track, stack[-1], (start, end, name))
            stack.append((start, end, name))


README = ["--set", "pcie0.lanes=8", "--set", "workload.args.max_size=1MiB"]


def test_readme_example_tracks_nest_and_overlaps_are_async(tmp_path):
    # The README's example, a smaller size range (the full one writes ~26 M events).
    spans, counters = trace(tmp_path, "default.yaml", "--set", "pcie0.lanes=8", "--set", "workload.args.max_size=64KiB")
    assert any(e["ph"] == "b" for e in spans["rc.dma"])  # the copy engine's pieces in flight at once
    assert any(e["ph"] == "X" for e in spans["rc.dma"])
    doc = json.loads((tmp_path / "trace.json").read_text())
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    assert {"cpu", "pcie0", "rc", "gpu0"} <= names


def test_readme_example_window_is_a_slice(tmp_path):
    # The README's example (~1 GB traced whole) over windows: a file holds only what overlaps its
    # window, so a window's size is the sum of its two halves' (the workload's activity varies over
    # time, so a longer window is not simply a bigger file).
    sizes = {}
    for window in ("4s:4.1s", "4.1s:4.2s", "4s:4.2s"):
        t = tmp_path / "w.json"
        subprocess.run([BIN, "run", os.path.join(SRC, "configs", "default.yaml"), *README, "--quiet", "--trace",
                        str(t), "--trace-window", window], check=True)
        doc = json.loads(t.read_text())
        check_schema(doc)
        check_nesting(doc["traceEvents"])
        lo, hi = (float(x[:-1]) * 1e6 for x in window.split(":"))
        timed = [e for e in doc["traceEvents"] if e["ph"] != "M"]
        assert len(timed) > 1000
        for e in timed:  # everything overlaps the window
            assert e["ph"] == "e" or (e["ts"] + e.get("dur", 0) >= lo and e["ts"] < hi), e
        sizes[window] = t.stat().st_size
    whole, halves = sizes["4s:4.2s"], sizes["4s:4.1s"] + sizes["4.1s:4.2s"]
    assert abs(whole - halves) < 0.05 * whole, sizes


def test_filter_keeps_matching_tracks(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER, "--trace-filter", "pcie0, *.dma", "--set",
                            "pcie0.trace_detail=tlps")
    assert spans and set(spans) <= {"pcie0.down", "pcie0.up", "rc.dma"}, sorted(spans)
    assert spans["rc.dma"] and spans["pcie0.up"]
    assert set(counters) == {"pcie0.down occupancy_bytes", "pcie0.up occupancy_bytes"}


@pytest.mark.parametrize("args, message", [
    (["--trace-window", "3ms:2ms"], "--trace-window 3ms:2ms: END must be after START"),
    (["--trace-window", "2ms"], "--trace-window 2ms: expected START:END, e.g. 2ms:3ms"),
    (["--trace-window", "2:3ms"], "--trace-window 2:3ms: time '2' needs a unit (ps, ns, us, ms, s)"),
])
def test_bad_window_is_a_clear_error(tmp_path, args, message):
    p = subprocess.run([BIN, "run", os.path.join(SRC, "configs", "default.yaml"), "--trace", str(tmp_path / "t.json"),
                        *args], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr == f"error: {message}\n" and p.stdout == "", p.stderr


def test_window_or_filter_without_trace_is_an_error():
    for opt in ("--trace-window", "--trace-filter"):
        p = subprocess.run([BIN, "run", os.path.join(SRC, "configs", "default.yaml"), opt, "1ms:2ms"],
                           capture_output=True, text=True)
        assert p.returncode == 2 and p.stderr == f"error: {opt} needs --trace FILE.json\n", p.stderr


TRANSFER = ["--set", "workload.args.max_size=16KiB", "--set", "workload.args.methods=dma,iorw"]


def test_transfer_shows_pcie_link_root_complex_and_cpu(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER, "--set", "pcie0.trace_detail=tlps")
    for track in ("pcie0.down", "pcie0.up", "rc.mmio", "rc.dma", "rc.config", "cpu"):
        assert spans[track], (track, sorted(spans))
    kinds = {e["name"] for e in spans["pcie0.down"]} | {e["name"] for e in spans["pcie0.up"]}
    assert {"MWr", "MRd", "CplD", "CfgWr", "CfgRd"} <= kinds, kinds
    mwr = next(e for e in spans["pcie0.up"] if e["name"] == "MWr" and e["args"]["payload"] == 128)
    assert mwr["args"]["wire_bytes"] == 128 + 12 + 8 or mwr["args"]["wire_bytes"] == 128 + 16 + 8
    assert {"addr", "count", "bytes", "busy_ns"} <= set(spans["rc.mmio"][0]["args"])  # runs of MMIO words
    assert {"addr", "size", "by"} <= set(spans["rc.dma"][0]["args"])
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


def test_tlp_runs_by_default(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER)
    runs = [e for e in spans["pcie0.down"] + spans["pcie0.up"] if e["ph"] == "X" and e["args"]["count"] > 1]
    assert runs and all(e["name"].endswith(" x%d" % e["args"]["count"]) for e in runs)
    cpld = [e for e in runs if e["name"].startswith("CplD")]
    assert cpld and all(e["args"]["busy_ns"] <= e["dur"] * 1000 + 1e-6 for e in cpld)
    assert not counters  # the occupancy counters come with trace_detail=tlps


@pytest.mark.skipif(not HAVE_RTL, reason="built without Verilator (HETVP_HAVE_RTL=0)")
def test_rtl_bridges_have_tracks(tmp_path):
    spans, _ = trace(tmp_path, "rtl_block_example.yaml", "--set", "workload.args.size=4KiB")
    regs = [t for t in spans if t.endswith(".regs")]
    mem = [t for t in spans if t.endswith(".mem")]
    assert regs and mem, sorted(spans)
    assert {"addr", "data", "presented_cycle", "resp"} <= set(spans[regs[0]][0]["args"])
    assert any(e["name"].startswith("read ") for e in spans[mem[0]])


def test_per_instance_selection_and_routers(tmp_path):
    spans, counters = trace(tmp_path, "default.yaml", *TRANSFER, "--set", "pcie0.trace=true", "--set",
                            "pcie0.trace_detail=tlps")
    assert spans and all(track.startswith("pcie0.") for track in spans), sorted(spans)
    assert all(name.startswith("pcie0.") for name in counters)
    spans, _ = trace(tmp_path, "default.yaml", *TRANSFER, "--set", "cpu.trace=false", "--set",
                     "simulation.trace_routers=true")
    assert "cpu" not in spans and spans["host_bus"] and spans["pcie0.down"]
    assert {"addr", "size"} <= set(spans["host_bus"][0]["args"])


def test_gpu_bench_fifo_and_gr_tracks(tmp_path):
    """Two contexts time-sliced on GR: a track per FIFO channel whose timeslices hold their
    launches, copies and GR switches as nested complete spans, the GR owner's switches, and the
    context-switch units' CHSW pulse -> ACK and MMCTX commands (trace() checks every track nests)."""
    spans, _ = trace(tmp_path, "default.yaml", "--workload", "gpu_bench", "--set", "workload.args.contexts=2", "--set",
                     "workload.args.runs=1")
    chans = sorted(t for t in spans if t.startswith("gpu0.fifo.ch"))
    assert len(chans) >= 2, sorted(spans)
    for ch in chans:
        xs = [e for e in spans[ch] if e["ph"] == "X"]
        slices = [e for e in xs if e["name"] == "timeslice"]
        assert slices and {"methods", "gp_entries", "blocked"} <= set(slices[0]["args"])
        inner = [e for e in xs if e["name"] in ("launch", "GR switch") or e["name"].startswith("copy ")]
        assert any(e["name"] == "launch" for e in inner), (ch, {e["name"] for e in xs})
        # Each launch, copy and switch lies inside one of its channel's timeslices (nested X events).
        for e in inner:
            assert any(ps(s["ts"]) <= ps(e["ts"]) and ps(e["ts"]) + ps(e["dur"]) <= ps(s["ts"]) + ps(s["dur"])
                       for s in slices), (ch, e)
    assert any(e["name"] == "GR switch" for ch in chans for e in spans[ch])
    owner = [e for e in spans["gpu0.fifo.gr"] if e["ph"] == "X"]
    assert len(owner) >= 2 and all(e["name"].startswith("GR ") and "chid" in e["args"] for e in owner)
    chsw = [t for t in spans if t.endswith(".chsw")]
    assert chsw and len(spans[chsw[0]]) == len(owner), (chsw, len(owner))
    assert all(e["ph"] == "X" and e["args"]["bytes"] > 0 for e in spans[chsw[0]])
    mmctx = [e for t in spans if t.startswith("gpu0.") for e in spans[t] if e["name"] in ("MMCTX save", "MMCTX load")]
    assert mmctx and any(e["args"]["words"] > 0 for e in mmctx)



GPU_BENCH = ["--workload", "gpu_bench", "--set", "workload.args.contexts=2", "--set", "workload.args.runs=1"]


def without_ids(spans):
    """Each track's spans without the numbers that depend on which tracks exist (pid, tid, async id)."""
    return {t: [{k: v for k, v in e.items() if k not in ("pid", "tid", "id")} for e in es] for t, es in spans.items()}


@pytest.mark.parametrize("config, base, leave_out, gone, kept", [
    # The coherence directory's tracks (directory, .history, .probes, .engine), left out by the
    # filter or by the instance's `trace: false`; the caches' range invalidations and the CPU kept.
    ("coherence.yaml", [], ["--trace-filter", "l1,l2,cpu,pcie0"], "directory", {"l1", "l2", "cpu", "pcie0.down"}),
    ("coherence.yaml", [], ["--set", "directory.trace=false"], "directory", {"l1", "l2", "cpu", "pcie0.down"}),
    # The copy engine's track left out; the FIFO channels, the GR owner and the ctxsw units kept.
    ("default.yaml", GPU_BENCH, ["--trace-filter", "cpu,gpu0.fifo,gpu0.gr_*"], "gpu0.copy0",
     {"cpu", "gpu0.fifo.ch0", "gpu0.fifo.gr", "gpu0.gr_hub", "gpu0.gr_hub.chsw"}),
])
def test_left_out_tracks_write_nothing_and_the_rest_is_unchanged(tmp_path, config, base, leave_out, gone, kept):
    """Models decide once per trace whether a track is kept (TraceTrack): a track that the filter or
    the instance's selection leaves out has no event (not even its name), and every kept track holds
    exactly the events of the full trace."""
    full, full_counters = trace(tmp_path, config, *base)
    gone_tracks = {t for t in full if t == gone or t.startswith(gone + ".")}
    assert full[gone] and kept <= set(full), sorted(full)
    part, part_counters = trace(tmp_path, config, *base, *leave_out)
    assert kept <= set(part) and not gone_tracks & set(part), sorted(part)
    if leave_out[0] == "--set":  # an instance left out: every other track stays
        assert set(part) == set(full) - gone_tracks, sorted(set(full) - set(part))
    assert without_ids(part) == without_ids({t: full[t] for t in part})
    assert part_counters == {n: full_counters[n] for n in part_counters}
