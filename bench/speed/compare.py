#!/usr/bin/env python3
"""Speed of two hetvp builds on the issue-#31 jobs, in one invocation (docs/benchmarks.md, "Speed").

    bench/speed/compare.py OLD/build/hetvp NEW/build/hetvp [--repeat 3] [--jobs main,gpc1,...]
                           [--switches LIB] [--out DIR]

Each build runs with its own source tree's configs/ (the folder above its build folder), so a
binary finds its own firmware and configurations; --configs DIR runs both on DIR's (to compare
two builds of nearly the same tree without the configurations' own changes in the stats). The jobs run alternately old/new, --repeat
times each; per job the script prints the best wall time and the best CPU time (user + system of
the child, from getrusage: wall times on a shared machine mostly measure the other load) of each
build and their ratios old/new (> 1: the new build is faster). Then it compares the two builds'
--stats files of the last round: identical apart from `run.hetvp` (the build identity) and the wall-clock
`run.host_seconds` / `run.sim_rate`, or
the list of every value that differs.

With --switches (default: NEW's build/bench/mcu/libhetvp_count_switches.so when it exists) it
also runs, under that LD_PRELOAD hook, an uncached-read job (IORW device-to-host: one uncached
load per 4 bytes) and the GPC1-only transfer, and prints SystemC coroutine switches per
uncached read (per cpu.uncached_loads) and per microcontroller xfer (per the sum of every
`xfers` counter), for both builds.

nouveau16 on an old configuration: 7e628e6's gf100_nouveau.yaml has no pgraph block, which the
later boot (GF100's real mmio list and context lists) needs; when the new build rejects the job for
that reason, the new build runs it with --set gpu0.blocks=microcontrollers,pgraph (the comparable
job, docs/benchmarks.md) and the table's row says so. Jobs of less than 0.1 s (the boot, 12-20 ms,
mostly process start-up) are run --repeat-short times (default 30): a best of 3 of such a job
is mostly the machine's noise.

Exit status: 0 when every run passed and every stats file matched, 1 otherwise.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

# name -> (config, extra arguments). The commands are the ones docs/benchmarks.md and
# docs/transfers.md give for these measurements.
JOBS = {
    "main": ("default.yaml", []),
    "gpc1": ("default.yaml", ["--set", "workload.args.methods=gpc1"]),
    "small": ("default.yaml", ["--set", "workload.args.max_size=64KiB"]),
    # 16 MB of arrays: the 8 MiB default arena fails. host_copies=false: the workload's default
    # changed after 7e628e6 (three times the probes with true), so both builds do the same work.
    "square": ("coherence.yaml", ["--workload", "square", "--set", "workload.args.n=4000000",
                                  "--set", "workload.args.rt.arena=64MiB", "--set", "workload.args.host_copies=false"]),
    "nouveau16": ("gf100_nouveau.yaml", ["--workload", "boot", "--set", "gpu0.gpcs=16"]),
    "qpu_sgemm": ("videocore4.yaml", ["--workload", "qpu_sgemm"]),
}
# A job whose old configuration the new build rejects for a reason the later tree gave it: the
# extra arguments that make the new build run the comparable job, and the message that says so.
# nouveau16: since the boot writes GF100's real mmio list and uploads the real context lists
# (after 7e628e6), it needs the pgraph block, which 7e628e6's gf100_nouveau.yaml does not list;
# 7e628e6's blocks (the microcontrollers) plus pgraph is the same boot with the real lists
# (docs/benchmarks.md, "The merged tree of 2026-11-27 (second session)").
NEW_FALLBACK = {
    "nouveau16": (["--set", "gpu0.blocks=microcontrollers,pgraph"], "need the pgraph block"),
}
SWITCH_JOBS = {
    "uncached reads (IORW DtoH)": ("default.yaml", ["--set", "workload.args.methods=iorw",
                                                    "--set", "workload.args.directions=dtoh"], "reads"),
    "xfers (GPC1-only transfer)": ("default.yaml", ["--set", "workload.args.methods=gpc1"], "xfers"),
}


CONFIGS = None  # --configs: one configs/ folder for both builds


def tree_of(binary):
    return os.path.dirname(os.path.dirname(os.path.abspath(binary)))


def run(binary, config, extra, stats, env=None):
    cmd = [binary, "run", os.path.join(CONFIGS or os.path.join(tree_of(binary), "configs"), config)] + extra + ["-q", "--stats", stats]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, wall, cpu


def flatten(prefix, v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(prefix + "." + k if prefix else k, x, out)
    else:
        out[prefix] = v
    return out


def stats_diff(a, b):
    fa = flatten("", json.load(open(a)), {})
    fb = flatten("", json.load(open(b)), {})
    moved = []
    for k in sorted(set(fa) | set(fb)):
        if k in ("run.hetvp", "run.host_seconds", "run.sim_rate"):  # the build; wall-clock measures
            continue
        if fa.get(k, "<absent>") != fb.get(k, "<absent>"):
            moved.append("%s: %s -> %s" % (k, fa.get(k, "<absent>"), fb.get(k, "<absent>")))
    return moved


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--repeat-short", type=int, default=30,
                    help="rounds of a job whose best CPU time after --repeat rounds is under 0.1 s")
    ap.add_argument("--jobs", default=",".join(JOBS))
    ap.add_argument("--switches", default=None)
    ap.add_argument("--no-switches", action="store_true")
    ap.add_argument("--configs", default=None,
                    help="one configs/ folder for both builds (default: each build's own tree's)")
    ap.add_argument("--out", default=None, help="folder for the stats files (default: a temporary one)")
    args = ap.parse_args()
    global CONFIGS
    CONFIGS = args.configs
    for b in (args.old, args.new):
        if not os.access(b, os.X_OK):
            sys.exit("%s: not an executable hetvp" % b)
    out = args.out or tempfile.mkdtemp(prefix="hetvp-speed-")
    os.makedirs(out, exist_ok=True)
    ok = True
    print("old: %s\nnew: %s\nstats files: %s\n" % (args.old, args.new, out))
    print("| job | old wall s | new wall s | wall ratio | old CPU s | new CPU s | CPU ratio | stats |")
    print("|---|---|---|---|---|---|---|---|")
    diffs = {}
    for name in args.jobs.split(","):
        if name not in JOBS:
            sys.exit("unknown job %s (known: %s)" % (name, ", ".join(JOBS)))
        config, extra = JOBS[name]
        extras = {"old": extra, "new": extra}
        if name in NEW_FALLBACK:
            # One trial run of the new build on the old job: if it fails for the known reason, the
            # new build runs the comparable job instead (and the table says so).
            more, reason = NEW_FALLBACK[name]
            p, _, _ = run(args.new, config, extra, os.path.join(out, "%s.probe.json" % name))
            if p.returncode != 0 and reason in p.stderr:
                extras["new"] = extra + more
                print("(%s: the new build rejects the old configuration (%s); it runs with %s)" %
                      (name, reason, " ".join(more)))
        best = {"old": [1e30, 1e30], "new": [1e30, 1e30]}
        files = {}
        rounds = 0
        while rounds < args.repeat or (rounds < args.repeat_short and max(best["old"][1], best["new"][1]) < 0.1):
            rounds += 1
            for side, binary in (("old", args.old), ("new", args.new)):
                files[side] = os.path.join(out, "%s.%s.json" % (name, side))
                p, wall, cpu = run(binary, config, extras[side], files[side])
                if p.returncode != 0:
                    ok = False
                    print("%s %s failed (exit %d): %s" % (side, name, p.returncode, p.stderr.strip()[-400:]),
                          file=sys.stderr)
                best[side][0] = min(best[side][0], wall)
                best[side][1] = min(best[side][1], cpu)
        moved = stats_diff(files["old"], files["new"])
        diffs[name] = moved
        ok = ok and not moved
        label = name + (" (new: %s)" % " ".join(extras["new"][len(extra):]) if extras["new"] != extra else "")
        print("| %s | %.3f | %.3f | %.2f | %.4f | %.4f | %.2f | %s |" % (
            label, best["old"][0], best["new"][0], best["old"][0] / best["new"][0], best["old"][1], best["new"][1],
            best["old"][1] / max(best["new"][1], 1e-9), "identical" if not moved else "%d moved" % len(moved)))
        sys.stdout.flush()
    for name, moved in diffs.items():
        if moved:
            print("\n%s: stats that moved (old -> new):" % name)
            for m in moved:
                print("  " + m)

    lib = args.switches or os.path.join(tree_of(args.new), "build", "bench", "mcu", "libhetvp_count_switches.so")
    if args.no_switches or not os.path.exists(lib):
        return 0 if ok else 1
    print("\nSystemC coroutine switches (LD_PRELOAD=%s)\n" % lib)
    print("| job | old switches | new switches | old per unit | new per unit |")
    print("|---|---|---|---|---|")
    for label, (config, extra, unit) in SWITCH_JOBS.items():
        row = []
        for side, binary in (("old", args.old), ("new", args.new)):
            f = os.path.join(out, "switches.%s.%s.json" % (unit, side))
            env = dict(os.environ, LD_PRELOAD=lib)
            p, _, _ = run(binary, config, extra, f, env)
            m = re.search(r"count_switches: (\d+)", p.stderr)
            if p.returncode != 0 or not m:
                ok = False
                row.append((0, 0))
                continue
            flat = flatten("", json.load(open(f)), {})
            if unit == "reads":
                n = flat.get("components.cpu.uncached_loads", 0)
            else:
                n = sum(v for k, v in flat.items() if k.endswith(".xfers") and isinstance(v, (int, float)))
            row.append((int(m.group(1)), n))
        (so, no), (sn, nn) = row
        print("| %s | %d | %d | %.2f per %d | %.2f per %d |" % (label, so, sn, so / max(no, 1), no, sn / max(nn, 1),
                                                                nn))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
