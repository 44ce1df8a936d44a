#!/usr/bin/env python3
"""Fujii 2014's Figs. 9 and 10 rerun on hetvp (docs/transfers.md, "Fujii 2014, Figs. 9 and 10").

Fig. 9: each benchmark alone (madd, mmul, memcpy, loop: Gdev's test programs), RUNS runs, the
mean / min / max of every phase Gdev's programs print (Init .. Close, Total), per config (one
firmware each). Fig. 10: two madd applications at once (gpu_bench processes=2 together=true: both
launched together every round), RUNS rounds; a round's time is from the earlier start to the later
end of the two processes' runs of that round; mean / min / max per config.

The first run of every program (and the first round of Fig. 10) is left out: it generates the
golden GR context, which the papers' driver did once when it loaded (not per application).

    bench/fujii2014/fig9_fig10.py HETVP OUT_DIR RUNS CONFIG...

Writes OUT_DIR/<config>-<case>.csv (gpu_bench's CSV), OUT_DIR/fig9.csv, OUT_DIR/fig10.csv and
OUT_DIR/table.md (the tables docs/transfers.md holds). Exit status 1 if a run failed.
"""
import csv
import os
import subprocess
import sys

# The papers give no sizes (SPEC 12 B): these are assumptions, small enough for 100 runs.
FIG9 = [("madd", 256), ("mmul", 64), ("memcpy", 1 << 20), ("loop", 1000)]
FIG10_SIZE = 256  # madd, as Fig. 9's
PHASES = ["init", "memalloc", "datainit", "htod", "kernconf", "exec", "dtoh", "dataread", "close", "total"]
PAPER_FIG9 = "worst overhead 0.0787 ms (loop), about 0.4 % of the whole (Fujii 2014, Fig. 9 text)"
PAPER_FIG10 = "difference of the two firmwares' total times within error (Fujii 2014, Fig. 10 text)"


def run(hetvp, config, out_csv, sets):
    cmd = [hetvp, "run", config, "--workload", "gpu_bench", "--csv", out_csv, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write("failed: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
        return None
    with open(out_csv) as f:
        return list(csv.DictReader(f))


def stats(values):
    return (sum(values) / len(values), min(values), max(values)) if values else (float("nan"),) * 3


def ms(v):
    return "%.4f" % (v / 1e6)


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    hetvp, out, runs, configs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    names = [os.path.splitext(os.path.basename(c))[0] for c in configs]
    failed = False
    fig9 = {}  # (config, program) -> phase -> (mean, min, max)
    fig10 = {}  # config -> (mean, min, max) of a round, and the runs alone for comparison
    for config, name in zip(configs, names):
        for prog, size in FIG9:
            rows = run(hetvp, config, os.path.join(out, "%s-%s.csv" % (name, prog)),
                       ["workload.args.program=%s" % prog, "workload.args.size=%d" % size,
                        "workload.args.runs=%d" % (runs + 1)])
            if rows is None or any(r["check"] != "ok" for r in rows):
                failed = True
                continue
            later = rows[1:]
            fig9[(name, prog)] = {
                ph: stats([float(r[ph + "_ns"]) for r in later]) for ph in PHASES
            }
        rows = run(hetvp, config, os.path.join(out, "%s-fig10.csv" % name),
                   ["workload.args.program=madd", "workload.args.size=%d" % FIG10_SIZE,
                    "workload.args.processes=2", "workload.args.together=true",
                    "workload.args.runs=%d" % (runs + 1)])
        if rows is None or any(r["check"] != "ok" for r in rows):
            failed = True
            continue
        rounds = []
        for r in range(1, runs + 1):
            mine = [x for x in rows if int(x["run"]) == r]
            start = min(float(x["start_ns"]) for x in mine)
            end = max(float(x["start_ns"]) + float(x["total_ns"]) for x in mine)
            rounds.append(end - start)
        each = [float(x["total_ns"]) for x in rows if int(x["run"]) >= 1]
        fig10[name] = (stats(rounds), stats(each))

    with open(os.path.join(out, "fig9.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "program", "phase", "mean_ms", "min_ms", "max_ms"])
        for (name, prog), phases in fig9.items():
            for ph in PHASES:
                w.writerow([name, prog, ph] + [ms(v) for v in phases[ph]])
    with open(os.path.join(out, "fig10.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "round_mean_ms", "round_min_ms", "round_max_ms", "app_mean_ms", "app_min_ms",
                    "app_max_ms"])
        for name, (rnd, each) in fig10.items():
            w.writerow([name] + [ms(v) for v in rnd] + [ms(v) for v in each])

    lines = ["Fig. 9 (each benchmark alone, %d runs after the first, ms: mean (min-max))" % runs, ""]
    lines.append("| program | phase | " + " | ".join(names) + (" | difference |" if len(names) > 1 else ""))
    lines.append("|---|---|" + "---|" * len(names) + ("---|" if len(names) > 1 else ""))
    worst = None
    for prog, size in FIG9:
        for ph in PHASES:
            cells = []
            for name in names:
                v = fig9.get((name, prog))
                cells.append("%s (%s-%s)" % tuple(ms(x) for x in v[ph]) if v else "failed")
            diff = ""
            if len(names) > 1 and all((n, prog) in fig9 for n in names[:2]):
                a, b = fig9[(names[0], prog)][ph][0], fig9[(names[1], prog)][ph][0]
                tot = fig9[(names[0], prog)]["total"][0]
                diff = " %+.4f ms (%+.2f %% of %s's total) |" % ((b - a) / 1e6, 100 * (b - a) / tot, names[0])
                if ph == "total" and (worst is None or abs(100 * (b - a) / tot) > abs(worst[2])):
                    worst = (prog, b - a, 100 * (b - a) / tot)
            lines.append("| %s %d | %s | %s |%s" % (prog, size, ph, " | ".join(cells), diff))
    if worst:
        lines += ["", "Largest difference of the totals (in %% of the total): %s, %+.4f ms (%+.2f %%); paper: %s." %
                  (worst[0], worst[1] / 1e6, worst[2], PAPER_FIG9)]
    lines += ["", "Fig. 10 (two madd %d applications at once, %d rounds after the first, ms: mean (min-max))" %
              (FIG10_SIZE, runs), "", "| config | both applications (a round) | each application's run |",
              "|---|---|---|"]
    for name in names:
        if name in fig10:
            rnd, each = fig10[name]
            lines.append("| %s | %s (%s-%s) | %s (%s-%s) |" % ((name,) + tuple(ms(x) for x in rnd) +
                                                             tuple(ms(x) for x in each)))
        else:
            lines.append("| %s | failed | failed |" % name)
    if len(names) > 1 and names[0] in fig10 and names[1] in fig10:
        a, b = fig10[names[0]][0][0], fig10[names[1]][0][0]
        lines += ["", "Difference of the rounds' means: %+.4f ms (%+.2f %%); paper: %s." %
                  ((b - a) / 1e6, 100 * (b - a) / a, PAPER_FIG10)]
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
