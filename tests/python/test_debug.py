"""Debug categories (--debug-flags, X.log=debug, -vv; platform/debug.h), -v's run milestones, and
the stats' host-time fields: a category on prints its models' lines, off prints none."""
import json
import os
import re
import subprocess

import pytest

SRC = os.environ["HETVP_SOURCE_DIR"]
BIN = os.environ["HETVP_BIN"]
HAVE_RTL = os.environ.get("HETVP_HAVE_RTL", "1") == "1"
DEFAULT = os.path.join(SRC, "configs", "default.yaml")
SMALL = ["--set", "workload.args.max_size=4KiB", "--set", "workload.args.methods=dma,iorw"]
LINE = re.compile(r"^debug: (\S+): (\w+): .+ \[[0-9.]+ \w+\]$")


def run(*args, config=DEFAULT):
    return subprocess.run([BIN, "run", config, *args], capture_output=True, text=True)


def categories(p):
    """(module, category) of every debug line of the run's stderr."""
    out = []
    for line in p.stderr.splitlines():
        if line.startswith("debug: "):
            m = LINE.match(line)
            assert m, line
            out.append((m.group(1), m.group(2)))
    return out


def test_off_by_default_prints_nothing():
    p = run(*SMALL)
    assert p.returncode == 0, p.stderr
    assert categories(p) == [] and "debug:" not in p.stderr


def test_pcie_and_dma_flags():
    p = run(*SMALL, "--debug-flags", "PCIe,Dma")
    assert p.returncode == 0, p.stderr
    seen = categories(p)
    assert {c for _, c in seen} == {"PCIe", "Dma"}
    assert ("pcie0", "PCIe") in seen and ("rc", "PCIe") in seen
    assert any(m.startswith("gpu0.") and c == "Dma" for m, c in seen)
    text = p.stderr
    assert re.search(r"debug: pcie0: PCIe: (up|down) MWr addr 0x[0-9a-f]+, \d+ B payload", text)
    assert re.search(r"debug: rc: PCIe: DMA (read|write) 0x[0-9a-f]+ \(\d+ B\) by gpu0\.", text)
    assert re.search(r"debug: gpu0\.\w+: Dma: copy \d+ B from 0x[0-9a-f]+ to 0x[0-9a-f]+ starts", text)
    assert re.search(r"debug: gpu0\.\w+: Dma: copy \d+ B done after", text)


def test_names_are_case_insensitive_and_all_means_every_one():
    p = run(*SMALL, "--debug-flags", "cpu")
    assert {c for _, c in categories(p)} == {"Cpu"}
    assert "debug: cpu: Cpu: workload transfer starts" in p.stderr
    p = run("--workload", "boot", "--debug-flags", "all")
    assert {"Cpu", "PCIe", "Memory", "Mcu"} <= {c for _, c in categories(p)}


def test_instance_log_debug_turns_on_every_category_of_that_instance():
    p = run(*SMALL, "--set", "pcie0.log=debug")
    assert p.returncode == 0, p.stderr
    seen = categories(p)
    assert seen and {m for m, _ in seen} == {"pcie0"}


def test_unknown_flag_is_a_clear_error():
    p = run("--debug-flags", "PCIe,Fifoo")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("error: --debug-flags: unknown category 'Fifoo' (known: PCIe, Dma, Cpu,"), p.stderr
    assert len(p.stderr.splitlines()) == 1, p.stderr


def test_list_debug_flags():
    listed = subprocess.run([BIN, "list", "debug-flags"], capture_output=True, text=True)
    assert listed.returncode == 0 and listed.stderr == ""
    names = [l.split()[0] for l in listed.stdout.splitlines() if l.startswith("  ")]
    assert names == ["PCIe", "Dma", "Cpu", "Memory", "Cache", "Coherence", "Mcu", "Rtl", "Fifo", "Gr", "Mmu"]
    helped = subprocess.run([BIN, "run", "--debug-flags", "help"], capture_output=True, text=True)
    assert helped.returncode == 0 and helped.stdout == listed.stdout


def test_coherence_and_cache_flags():
    p = run("--debug-flags", "Coherence,Cache", config=os.path.join(SRC, "configs", "coherence.yaml"))
    assert p.returncode == 0, p.stderr
    seen = categories(p)
    assert ("directory", "Coherence") in seen and any(c == "Cache" for _, c in seen)
    assert re.search(r"debug: directory: Coherence: invalidation of the (CPU|GPU) caches done at", p.stderr)


@pytest.mark.skipif(not HAVE_RTL, reason="built without Verilator (HETVP_HAVE_RTL=0)")
def test_rtl_flag():
    p = run("--set", "workload.args.size=4KiB", "--debug-flags", "Rtl",
            config=os.path.join(SRC, "configs", "rtl_block_example.yaml"))
    assert p.returncode == 0, p.stderr
    assert {c for _, c in categories(p)} == {"Rtl"}
    assert re.search(r"debug: \S+: Rtl: axi4lite register 0x[0-9a-f]+ (<-|->) 0x[0-9a-f]{8}", p.stderr)
    assert re.search(r"debug: \S+: Rtl: AXI4 read burst of \d+ B at 0x[0-9a-f]+ took", p.stderr)


def test_verbosity_changes_what_is_shown():
    quiet = run(*SMALL)
    v = run(*SMALL, "-v")
    vv = run(*SMALL, "-vv")
    assert "info:" not in quiet.stderr
    assert re.search(r"^info: \S+default\.yaml: \d+ instances built; workload transfer on cpu, seed 1,", v.stderr, re.M)
    assert re.search(r"^info: simulation stopped at [0-9.]+ \w+ \(the workload finished\)$", v.stderr, re.M)
    assert categories(v) == []
    assert {"PCIe", "Dma", "Cpu", "Memory"} <= {c for _, c in categories(vv)}


def test_stats_run_section_has_host_time_and_rate(tmp_path):
    s = tmp_path / "s.json"
    p = run(*SMALL, "--quiet", "--stats", str(s))
    assert p.returncode == 0, p.stderr
    r = json.load(open(s))["run"]
    assert r["simulated_seconds"] == pytest.approx(r["simulated_ns"] * 1e-9)
    assert r["host_seconds"] > 0 and r["sim_rate"] == pytest.approx(r["simulated_seconds"] / r["host_seconds"])
    p = run(*SMALL)
    assert re.search(r"^simulated [0-9.]+ \w+ in [0-9.]+ s wall \([0-9.]+ simulated s per host s\)$", p.stdout, re.M)


GPU_BENCH = ["--workload", "gpu_bench", "--set", "workload.args.contexts=2", "--set", "workload.args.runs=1"]


def test_fifo_and_gr_flags():
    """Two contexts on GR: the FIFO's methods, semaphores, runlist and switches, and the HUB
    unit's CHSW → MMCTX → ACK; without the flags, none of it."""
    off = run(*GPU_BENCH)
    assert off.returncode == 0, off.stderr
    assert categories(off) == []
    p = run(*GPU_BENCH, "--debug-flags", "Fifo,Gr")
    assert p.returncode == 0, p.stderr
    seen = categories(p)
    assert {c for _, c in seen} == {"Fifo", "Gr"}
    assert all(m.startswith("gpu0.") for m, _ in seen)
    t = p.stderr
    assert re.search(r"debug: gpu0\.fifo: Fifo: doorbell: channel \d+ GP_PUT \d+", t)
    assert re.search(r"debug: gpu0\.fifo: Fifo: channel \d+: GP entry at VA 0x[0-9a-f]+ fetched: \d+ push-buffer", t)
    assert re.search(r"debug: gpu0\.fifo: Fifo: channel \d+: method 0x[0-9a-f]{4} = 0x[0-9a-f]{8} on subchannel \d "
                     r"\((fifo|compute|copy)\)", t)
    assert re.search(r"Fifo: channel \d+: LAUNCH \[", t)
    assert re.search(r"Fifo: runlist: channel \d+ gets the engines", t)
    assert re.search(r"Fifo: channel \d+: LAUNCH_DMA \d+ B 0x[0-9a-f]+ -> 0x[0-9a-f]+ on copy engine \d", t)
    # Both channels take GR at least once: a switch requested, raised at the HUB unit, acknowledged.
    switched = set(int(x) for x in re.findall(r"Fifo: GR switch to channel (\d+) acknowledged after", t))
    assert len(switched) >= 2, switched
    assert re.search(r"Fifo: GR switch requested: from channel \d+ to channel \d+", t)
    assert re.search(r"Gr: CHSW raised: switch to channel \d+ \(CHAN_NEXT 0x[0-9a-f]{8}\)", t)
    assert re.search(r"Gr: MMCTX start \((save|load)\)", t)
    assert re.search(r"Gr: MMCTX (save|load) entry 0x[0-9a-f]{8}: [1-9]\d* words at VRAM 0x[0-9a-f]+", t)
    assert re.search(r"Gr: CHSW ACK: channel \d+ after [0-9]+ ns \([1-9]\d* B moved, \d+ firmware cycles\)", t)
    # The order of one switch: requested (FIFO) -> CHSW raised (HUB) -> ACK (HUB) -> acknowledged (FIFO).
    lines = [l for l in t.splitlines() if l.startswith("debug: ")]
    req = next(i for i, l in enumerate(lines) if "GR switch requested" in l)
    raised = next(i for i, l in enumerate(lines) if "CHSW raised" in l and i > req)
    ack = next(i for i, l in enumerate(lines) if "CHSW ACK" in l and i > raised)
    done = next(i for i, l in enumerate(lines) if "acknowledged after" in l and i > ack)
    assert req < raised < ack < done


def test_mmu_flag():
    p = run(*GPU_BENCH, "--debug-flags", "Mmu")
    assert p.returncode == 0, p.stderr
    assert {c for _, c in categories(p)} == {"Mmu"}
    assert re.search(r"debug: gpu0\.mmu: Mmu: TLB miss at VA 0x[0-9a-f]+ by gpu0\.fifo \(channel \d+\): walked page "
                     r"directory 0x[0-9a-f]+ in \d+ \w+ -> (VRAM|host) 0x[0-9a-f]+", p.stderr)
