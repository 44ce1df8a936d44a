#!/usr/bin/env python3
"""Joins hetvp's sweep (bench/coherence/run.sh -> sweep.csv) with the thesis' tables
(docs/coherence/thesis.csv): prints the Markdown tables of docs/coherence.md and writes gnuplot
plots (SVG) into docs/coherence/. Usage: bench/coherence/plot.py SWEEP_CSV [OUT_DIR]"""
import csv, os, subprocess, sys

sweep_csv = sys.argv[1]
out = sys.argv[2] if len(sys.argv) > 2 else "docs/coherence"
here = os.path.dirname(os.path.abspath(__file__))
thesis = {(r["workload"], r["size"]): r for r in csv.DictReader(open(os.path.join(here, "../../docs/coherence/thesis.csv")))}
ours = {}
for r in csv.DictReader(open(sweep_csv)):
    if r.get("timing", "pipelined") == "pipelined":
        ours[(r["workload"], r["size"], r["mode"], r.get("walk", "serial"))] = r
    ours[(r["workload"], r["size"], r["mode"], r.get("walk", "serial"), r.get("timing", "pipelined"))] = r

def pct(a, b):  # change from a to b, signed ("−72 %", "+3 %")
    if not a:
        return "-"
    v = round((b / a - 1) * 100)
    return f"{'−' if v < 0 else '+' if v > 0 else '±'}{abs(v)} %"

names = {"square": "square (N)", "matrix_transpose": "MatrixTranspose (W×W)", "shfl2d": "2dshfl (W×W)"}
for w in ["square", "matrix_transpose", "shfl2d"]:
    print(f"\n### {names[w]}\n")
    print("| size | thesis probes default → range | hetvp probes per-line → range | thesis ticks default → range | "
          "hetvp ticks per-line → range | hetvp ticks, TCPs walked in parallel | "
          "serial_ack, serial walk | serial_ack, parallel walk |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for (tw, size), t in thesis.items():
        if tw != w:
            continue
        a, b = ours.get((w, size, "per_line", "serial")), ours.get((w, size, "range", "serial"))
        c, d = ours.get((w, size, "per_line", "parallel")), ours.get((w, size, "range", "parallel"))
        if not a or not b or not c or not d:
            continue
        pd, pr, td, tr = (int(t[k]) for k in ("probes_default", "probes_range", "ticks_default", "ticks_range"))
        hp0, hp1, ht0, ht1 = int(a["probes"]), int(b["probes"]), int(a["ticks"]), int(b["ticks"])
        pt0, pt1 = int(c["ticks"]), int(d["ticks"])
        sa = []
        for walk in ("serial", "parallel"):
            e, f_ = ours.get((w, size, "per_line", walk, "serial_ack")), ours.get((w, size, "range", walk, "serial_ack"))
            sa.append(f"{int(e['ticks']):,} → {int(f_['ticks']):,} ({pct(int(e['ticks']), int(f_['ticks']))})" if e and f_ else "-")
        print(f"| {size} | {pd:,} → {pr:,} ({pct(pd, pr)}) | {hp0:,} → {hp1:,} ({pct(hp0, hp1)}) | "
              f"{td:,} → {tr:,} ({pct(td, tr)}) | {ht0:,} → {ht1:,} ({pct(ht0, ht1)}) | "
              f"{pt0:,} → {pt1:,} ({pct(pt0, pt1)}) | {sa[0]} | {sa[1]} |")
        rows.append((t["x"], pd, pr, hp0, hp1, td, tr, ht0, ht1, pt0, pt1))
    dat = os.path.join(out, f"{w}.dat")
    with open(dat, "w") as f:
        f.write("# x thesis_probes_default thesis_probes_range hetvp_probes_per_line hetvp_probes_range "
                "thesis_ticks_default thesis_ticks_range hetvp_ticks_per_line hetvp_ticks_range "
                "hetvp_parallel_ticks_per_line hetvp_parallel_ticks_range\n")
        for r in rows:
            f.write(" ".join(str(v) for v in r) + "\n")
    for what, cols, ylabel in (("probes", (2, 3, 4, 5), "probes per run"), ("ticks", (6, 7, 8, 9, 10, 11), "invalidation ticks (ps)")):
        svg = os.path.join(out, f"{w}_{what}.svg")
        script = f"""
set terminal svg size 640,400 dynamic
set output '{svg}'
set title '{names[w]}: {what}, thesis (gem5) vs hetvp'
set logscale xy
set key left top
set xlabel '{"N" if w == "square" else "W"}'
set ylabel '{ylabel}'
plot '{dat}' using 1:{cols[0]} with linespoints title 'thesis default', \\
     '{dat}' using 1:{cols[1]} with linespoints title 'thesis range', \\
     '{dat}' using 1:{cols[2]} with linespoints title 'hetvp per-line', \\
     '{dat}' using 1:{cols[3]} with linespoints title 'hetvp range'""" + ("" if len(cols) == 4 else f""", \\
     '{dat}' using 1:{cols[4]} with linespoints dt 2 title 'hetvp per-line, parallel TCP walk', \\
     '{dat}' using 1:{cols[5]} with linespoints dt 2 title 'hetvp range, parallel TCP walk'""") + """
"""
        subprocess.run(["gnuplot"], input=script.encode(), check=True)

# The fit: which (probe_timing x probe_walk) reproduces the thesis' three time reductions at its
# largest sizes (square 300,000 and MatrixTranspose 512x512 within +-10 points, 2dshfl 50x50 under 20 %).
def red(a, b):
    return (b / a - 1) * 100
fit_sizes = (("square", "300000"), ("matrix_transpose", "512x512"), ("shfl2d", "50x50"))
print("\n### Fit: probe_timing x probe_walk against the thesis' three reductions\n")
print("| probe_timing | probe_walk | " + " | ".join(f"{names[w]} {sz}: probes / ticks" for w, sz in fit_sizes) + " | fits |")
print("|---|---|---|---|---|---|")
t_row = []
for w, sz in fit_sizes:
    t = thesis[(w, sz)]
    t_row.append(f"{red(int(t['probes_default']), int(t['probes_range'])):+.0f} % / {red(int(t['ticks_default']), int(t['ticks_range'])):+.0f} %")
print("| thesis (gem5) | - | " + " | ".join(t_row) + " | target: ±10 points, ±10 points, > −20 % |")
for timing in ("pipelined", "serial_ack"):
    for walk in ("serial", "parallel"):
        cells, ok = [], []
        for w, sz in fit_sizes:
            a, b = ours.get((w, sz, "per_line", walk, timing)), ours.get((w, sz, "range", walk, timing))
            if not a or not b:
                cells.append("-"); ok.append(False); continue
            t = thesis[(w, sz)]
            rt = red(int(a["ticks"]), int(b["ticks"]))
            cells.append(f"{red(int(a['probes']), int(b['probes'])):+.0f} % / {rt:+.1f} %")
            if w == "shfl2d":
                ok.append(rt > -20)
            else:
                ok.append(abs(rt - red(int(t["ticks_default"]), int(t["ticks_range"]))) <= 10)
        print(f"| {timing} | {walk} | " + " | ".join(cells) + f" | {sum(ok)}/3 {'**yes**' if all(ok) else 'no'} |")
