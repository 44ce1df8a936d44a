#!/usr/bin/env python3
"""The per-side probe chains (directory.probe_timing: per_side) against the thesis' 21 rows
(Misaki 2026 §4.1.3, docs/coherence/thesis.csv): prints docs/coherence.md's fit tables from the
sweep bench/coherence/per_side_sweep.yaml (its results.csv). Usage:
    bench/coherence/fit.py RESULTS_CSV
Per row: probes and ticks per_line -> range for hetvp and the thesis, the time reduction of
both and its difference in points, hetvp's per-line ticks as a multiple of the thesis', and
Delta = (T_per_line - T_range) / (P_per_line - P_range), the time a removed probe saves,
overall and per direction (to the GPU caches / to the CPU caches)."""
import csv, os, sys

here = os.path.dirname(os.path.abspath(__file__))
thesis = {(r["workload"], r["size"]): r for r in csv.DictReader(open(os.path.join(here, "../../docs/coherence/thesis.csv")))}
runs = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok":
        sys.exit("point failed: " + str(r))
    args = dict(kv.split(":") for kv in r["workload.args"].strip("{} ").replace(" ", "").split(","))
    v = args.get("n") or args.get("width")
    size = v if r["workload"] == "square" else v + "x" + v
    runs[(r["workload"], size, args["host_copies"] == "true", r["directory.mode"])] = r


def pct(a, b):
    return (b / a - 1) * 100


def delta(t0, t1, p0, p1):  # ns a removed probe saves
    return (t0 - t1) / (p0 - p1) / 1000 if p0 != p1 else None


def fmt_d(v):
    return "-" if v is None else f"{v:.1f}"


names = {"square": "square", "matrix_transpose": "MatrixTranspose", "shfl2d": "2dshfl"}
targets = {("square", "300000"): (-70, "±10"), ("matrix_transpose", "512x512"): (-57, "±10"),
           ("shfl2d", "50x50"): (None, "gain < 20 %")}
for copies in (True, False):
    print(f"\n#### per_side, host copies {'on (default)' if copies else 'off'}\n")
    print("| workload | size | thesis ticks per-line → range | hetvp ticks per-line → range | thesis / hetvp time "
          "change | points apart | per-line ticks hetvp ÷ thesis | Δ ns: thesis / hetvp (to GPU, to CPU) |")
    print("|---|---|---|---|---|---|---|---|")
    worst = 0
    for (w, size), t in thesis.items():
        a, b = runs.get((w, size, copies, "per_line")), runs.get((w, size, copies, "range"))
        if not a or not b:
            continue
        T0, T1 = int(t["ticks_default"]), int(t["ticks_range"])
        P0, P1 = int(t["probes_default"]), int(t["probes_range"])
        h0, h1 = int(a["directory.ticks"]), int(b["directory.ticks"])
        q0, q1 = int(a["directory.probes"]), int(b["directory.probes"])
        rt, rh = pct(T0, T1), pct(h0, h1)
        apart = rh - rt
        worst = max(worst, abs(apart))
        dg = delta(int(a["directory.to_gpu.ticks"]), int(b["directory.to_gpu.ticks"]),
                   int(a["directory.to_gpu.probes"]), int(b["directory.to_gpu.probes"]))
        dc = delta(int(a["directory.to_cpu.ticks"]), int(b["directory.to_cpu.ticks"]),
                   int(a["directory.to_cpu.probes"]), int(b["directory.to_cpu.probes"]))
        mark = " **" if (w, size) in targets else ""
        print(f"| {names[w]}{mark} | {size} | {T0:,} → {T1:,} | {h0:,} → {h1:,} | {rt:+.1f} % / {rh:+.1f} % | "
              f"{apart:+.1f} | {h0 / T0:.2f}× | {fmt_d(delta(T0, T1, P0, P1))} / {fmt_d(delta(h0, h1, q0, q1))} "
              f"({fmt_d(dg)}, {fmt_d(dc)}) |")
    print(f"\nlargest distance from the thesis' time change: {worst:.1f} points")

print("\n#### The three targets (default configuration: per_side, host copies on)\n")
print("| run | thesis | hetvp | target | holds |")
print("|---|---|---|---|---|")
for (w, size), (want, band) in targets.items():
    t = thesis[(w, size)]
    a, b = runs[(w, size, True, "per_line")], runs[(w, size, True, "range")]
    rt = pct(int(t["ticks_default"]), int(t["ticks_range"]))
    rh = pct(int(a["directory.ticks"]), int(b["directory.ticks"]))
    ok = abs(rh - want) <= 10 if want is not None else -20 < rh <= 0
    print(f"| {names[w]} {size} | {rt:+.1f} % | {rh:+.1f} % | {band if want is None else f'{want} % {band}'} | "
          f"{'yes' if ok else 'no'} |")
