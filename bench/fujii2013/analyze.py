#!/usr/bin/env python3
"""Tables and plots of bench/fujii2013/run.sh's sweeps (issues #24, #39, #41; docs/fujii2013.md).

    analyze.py OUT_DIR [--no-plot]

Reads OUT_DIR/<config>/points/*/ (point.yaml, status, results.csv, stats.json) for every config
in OUT_DIR/wall.txt and OUT_DIR/<config>-boot.json. Prints and writes OUT_DIR/table.txt; writes
summary.csv (one row per program, size and config), tables.md (the tables of docs/fujii2013.md in
Markdown), phases.csv (Gdev's phases, median of runs
2..N, per program, size and config), first_vs_later.csv, and with gnuplot fig6_group_i.{png,svg},
fig7_group_ii.{png,svg} (Fujii 2013 Figs. 6/7: median run time per program, every firmware side by
side, min..max as error bars) and first_vs_later.{png,svg}.

The vendor's column is configs/gf100_nouveau.yaml when it is among the configs, else the second
config; every other config is compared with it. Definitions (runs 2..N are "later"; run 1 pays the
golden context; a point whose runs run.sh split over several processes is merged, each process's
run 1 being a first run):
  overhead %      = (median later run of a config / same, the vendor's config - 1) x 100
  busy share      = firmware busy time / run time, median over the later runs, from gpu_bench's
                    fw_hub_ns and fw_gpcs_ns columns: every core's cycle counter (the window's
                    DBG_CYCLES, the same on RV32 and Falcon) read over BAR0 around each run.
                    "HUB" = the HUB alone, "all" = HUB + every GPC core. A cross-check over the whole
                    point from the stats (every core's `cycles` / its clock, minus the same config's
                    `boot` run, / the sum of all runs' totals) goes to summary.csv.
  phases          = Gdev's per-phase times (init_ns ... close_ns, gpu_bench's columns), median of
                    the later runs; htod, exec, dtoh and total in the table, all in phases.csv.
  first vs later  = run 1 minus the median later run, split by Gdev's phases and by gpu_bench's
                    host_*_ns columns (where the host's time went: HostTime buckets,
                    sw/gdev/host_time.h), with the firmware's extra busy time.
Exit status: 0 every config ran every point with every self-check ok, or ran none (pending: a config
that cannot run gpu_bench yet), and at least one config ran; 1 otherwise.
"""
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

BUCKETS = ["reg", "mcu", "mcu_wait", "vram", "wait", "cpu", "mem"]
BUCKET_WHAT = {
    "reg": "BAR0 registers (FIFO doorbells, GR register defaults)",
    "mcu": "microcontroller windows (firmware commands)",
    "mcu_wait": "waiting for the firmware's answer",
    "vram": "BAR1: instance blocks, context buffers, golden image read-back",
    "wait": "waiting for fences (GPU work)",
    "cpu": "API calls' CPU time",
    "mem": "pinned host memory (push buffers, GPFIFO)",
}
LABEL = {"default": "hetvp C firmware (RV32)", "gf100_nouveau": "nouveau firmware (Falcon)",
         "gf100_own": "hetvp C firmware (Falcon)"}
SHORT = {"default": "own/RV32", "gf100_nouveau": "nouveau/Falcon", "gf100_own": "own/Falcon"}
PHASES = ["init", "memalloc", "datainit", "htod", "kernconf", "exec", "dtoh", "dataread", "close"]
SHOWN_PHASES = ["htod", "exec", "dtoh"]  # Gdev's HtoD, Exec, DtoH (with Total): the table's columns
VENDOR = "gf100_nouveau"


def unit_value(s):
    """'1.4 GHz' -> 1.4e9; '350 MHz' -> 3.5e8."""
    m = re.match(r"\s*([0-9.eE+-]+)\s*([kMG]?)Hz", str(s))
    if not m:
        return None
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]


def fw_busy_ns(stats):
    """Every microcontroller's executed cycles / its clock, summed: (hub ns, gpcs ns)."""
    try:
        mcus = stats["components"]["gpu0"]["microcontrollers"]
        res = stats["run"]["resolved"]["gpu0"]["microcontrollers"]
    except KeyError:
        return None, None
    hub = gpcs = 0.0
    for name, v in mcus.items():
        if not isinstance(v, dict) or "cycles" not in v:
            continue
        hz = v.get("clock_hz") or unit_value(res.get("hub" if name == "hub" else "gpc", {}).get("clock", ""))
        if not hz:
            return None, None
        if name == "hub":
            hub += v["cycles"] / hz * 1e9
        else:
            gpcs += v["cycles"] / hz * 1e9
    return hub, gpcs


def flatten(d, prefix=""):
    out = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(flatten(v, prefix + str(k) + "."))
    elif isinstance(d, list):
        out[prefix[:-1]] = ",".join(str(x) for x in d)
    else:
        out[prefix[:-1]] = str(d)
    return out


def read_point(d):
    p = {"dir": d, "rows": [], "stats": None}
    with open(os.path.join(d, "point.yaml")) as f:
        for line in f:
            m = re.match(r"\s*- workload\.args\.(program|size)=(\S+)", line)
            if m:
                p[m.group(1)] = m.group(2)
    st = {}
    if os.path.exists(os.path.join(d, "status")):
        with open(os.path.join(d, "status")) as f:
            for line in f:
                k, _, v = line.partition(":")
                st[k.strip()] = v.strip()
    p["state"] = st.get("state", "pending")
    p["reason"] = st.get("reason", "not run")
    p["wall_s"] = float(st.get("wall_s", "0") or 0)
    rc = os.path.join(d, "results.csv")
    if os.path.exists(rc):
        with open(rc) as f:
            p["rows"] = list(csv.DictReader(f))
    sj = os.path.join(d, "stats.json")
    if os.path.exists(sj):
        try:
            with open(sj) as f:
                p["stats"] = json.load(f)
        except ValueError:
            pass
    return p


def message(p):
    r = p["reason"]
    i = r.find("FAILED: ")
    return r[i + len("FAILED: "):] if i >= 0 else r


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def summarize(parts, boot):
    """One program and size: the points that ran it (one, or one per simulation.seed when run.sh
    split its runs over processes; each process's run 0 pays the golden context)."""
    p0 = parts[0]
    s = {"program": p0["program"], "size": p0["size"], "processes": len(parts),
         "state": "ok" if all(p["state"] == "ok" for p in parts) else next(
             p["state"] for p in parts if p["state"] != "ok"),
         "runs": sum(len(p["rows"]) for p in parts)}
    bad = [p for p in parts if p["state"] != "ok" or not p["rows"]]
    if bad:
        s["message"] = message(bad[0])
        return s
    firsts = [p["rows"][0] for p in parts]
    laters = [r for p in parts for r in (p["rows"][1:] or p["rows"])]
    first_tot = [float(r["total_ns"]) for r in firsts]
    later = [float(r["total_ns"]) for r in laters]
    all_tot = first_tot + later if any(len(p["rows"]) > 1 for p in parts) else first_tot
    s.update(first=statistics.median(first_tot), min=min(later), median=statistics.median(later), max=max(later),
             checks_ok=all(r["check"] == "ok" for p in parts for r in p["rows"]))
    hub = [num(r, "fw_hub_ns") for r in laters]
    gpcs = [num(r, "fw_gpcs_ns") for r in laters]
    if all(v is not None for v in hub + gpcs):
        s["hub_share_run"] = statistics.median([h / t for h, t in zip(hub, later)])
        s["all_share_run"] = statistics.median([(h + g) / t for h, g, t in zip(hub, gpcs, later)])
        s["hub_busy_later"] = statistics.median(hub)
        s["gpcs_busy_later"] = statistics.median(gpcs)
        s["hub_busy_first"] = num(firsts[0], "fw_hub_ns")
        s["gpcs_busy_first"] = num(firsts[0], "fw_gpcs_ns")
    if all(("%s_ns" % ph) in firsts[0] for ph in PHASES):
        s["phases"] = {ph: statistics.median([num(r, ph + "_ns") for r in laters]) for ph in PHASES}
        s["phases_first"] = {ph: num(firsts[0], ph + "_ns") for ph in PHASES}
    busy = [fw_busy_ns(p["stats"]) if p["stats"] else (None, None) for p in parts]
    if all(h is not None for h, _ in busy) and boot[0] is not None:
        s["hub_share_stats"] = sum(h - boot[0] for h, _ in busy) / sum(all_tot)
        s["all_share_stats"] = sum(h + g - boot[0] - boot[1] for h, g in busy) / sum(all_tot)
    # First run minus the median later run, by bucket (the median of each bucket over the later runs).
    if all(("host_%s_ns" % b) in firsts[0] for b in BUCKETS):
        s["diff"] = {b: num(firsts[0], "host_%s_ns" % b) - statistics.median(
            [num(r, "host_%s_ns" % b) for r in laters]) for b in BUCKETS}
    prog = (p0["stats"] or {}).get("components", {}).get("cpu", {}).get("program", {})
    s["golden_ns"] = prog.get("golden_ns")
    s["golden_init_writes"] = prog.get("gr_golden_init_writes")  # the chip's GR init lists (nouveau's firmware)
    s["sim_ns"] = sum((p["stats"] or {}).get("run", {}).get("simulated_ns", 0) for p in parts)
    return s


def ms(v):
    return "%.3f" % (v / 1e6)


def pct(v):
    return "%+.2f %%" % v if v is not None else "-"


def overhead(a, b):
    """(median of a / median of b - 1) x 100, or None."""
    return (a["median"] / b["median"] - 1) * 100 if "median" in a and "median" in b else None


def read_configs(out):
    configs, wall = [], {}
    with open(os.path.join(out, "wall.txt")) as f:
        for line in f:
            c, w, _ = line.split()
            configs.append(c)
            wall[c] = float(w)
    return configs, wall


def main():
    out = sys.argv[1]
    plot = "--no-plot" not in sys.argv[2:]
    configs, wall = read_configs(out)
    order = open(os.path.join(out, "points.txt")).read().split()
    order = [tuple(x.split(":")) for x in order]
    data = {}
    for c in configs:
        boot = (None, None)
        bj = os.path.join(out, c + "-boot.json")
        if os.path.exists(bj):
            try:
                boot = fw_busy_ns(json.load(open(bj)))
            except ValueError:
                pass
        pdir = os.path.join(out, c, "points")
        by = {}
        for d in sorted(os.listdir(pdir)) if os.path.isdir(pdir) else []:
            p = read_point(os.path.join(pdir, d))
            by.setdefault((p.get("program"), p.get("size")), []).append(p)
        for (prog, size), parts in by.items():
            data[(c, prog, size)] = summarize(parts, boot)
    # The vendor's firmware, and the configs compared with it.
    vendor = VENDOR if VENDOR in configs else (configs[1] if len(configs) > 1 else None)
    others = [c for c in configs if c != vendor]
    ran = {c: [data.get((c, p, z), {}) for p, z in order] for c in configs}
    # The groups from the first config that ran every point (the paper's: < 2 ms, > 7 ms).
    ref = next((c for c in configs if all("median" in s for s in ran[c])), configs[0])
    lines = []
    say = lines.append
    groups = {"i": [], "ii": [], "between": []}
    for prog, size in order:
        s = data.get((ref, prog, size))
        g = "between"
        if s and "median" in s:
            g = "i" if s["median"] < 2e6 else "ii" if s["median"] > 7e6 else "between"
        groups[g].append((prog, size))
    say("Fujii 2013 in hetvp: total time per run (ms; runs 2..N: min / median / max); overhead = median / "
        "median of %s - 1" % (LABEL.get(vendor, vendor) if vendor else "-"))
    say("columns: " + "; ".join("%s = %s (configs/%s.yaml)" % (SHORT.get(c, c), LABEL.get(c, c), c) for c in configs))
    summary = []
    w = 27
    for g in ("i", "ii", "between"):
        if not groups[g]:
            continue
        say("")
        say({"i": "group (i): < 2 ms per run", "ii": "group (ii): > 7 ms per run",
             "between": "between 2 and 7 ms (in neither of the paper's groups)"}[g])
        say("%-7s %9s %4s | %s | %s | %9s" % (
            "program", "size", "runs", " | ".join("%-*s" % (w, SHORT.get(c, c)[:w]) for c in configs),
            " ".join("%10s" % ("ovh " + SHORT.get(c, c).split("/")[-1])[:10] for c in others if vendor), "checks"))
        for prog, size in groups[g]:
            cells, ck = [], "ok"
            for c in configs:
                s = data.get((c, prog, size), {})
                if "median" in s:
                    cells.append("%s / %s / %s" % (ms(s["min"]), ms(s["median"]), ms(s["max"])))
                    if not s.get("checks_ok"):
                        ck = "FAILED"
                else:
                    cells.append("pending")
            v = data.get((vendor, prog, size), {}) if vendor else {}
            ovs = [overhead(data.get((c, prog, size), {}), v) for c in others] if vendor else []
            runs = max(data.get((c, prog, size), {}).get("runs", 0) for c in configs)
            say("%-7s %9s %4s | %s | %s | %9s" % (prog, size, runs, " | ".join("%-*s" % (w, x) for x in cells),
                                                 " ".join("%10s" % pct(o) for o in ovs), ck))
            for c in configs:
                s = data.get((c, prog, size), {})
                if "median" not in s:
                    say("        %s: pending: %s" % (c, s.get("message", "not run")))
            for c in configs:
                s = data.get((c, prog, size), {})
                row = {
                    "group": g, "program": prog, "size": size, "config": c, "state": s.get("state", "pending"),
                    "runs": s.get("runs", 0), "first_ns": s.get("first", ""), "min_ns": s.get("min", ""),
                    "median_ns": s.get("median", ""), "max_ns": s.get("max", ""),
                    "overhead_pct": overhead(s, v) if vendor and c != vendor and overhead(s, v) is not None else "",
                    "vendor": vendor or "",
                    "hub_share_run_pct": s["hub_share_run"] * 100 if "hub_share_run" in s else "",
                    "all_share_run_pct": s["all_share_run"] * 100 if "all_share_run" in s else "",
                    "hub_busy_ns": s.get("hub_busy_later", ""), "gpcs_busy_ns": s.get("gpcs_busy_later", ""),
                    "hub_share_stats_pct": s["hub_share_stats"] * 100 if "hub_share_stats" in s else "",
                    "all_share_stats_pct": s["all_share_stats"] * 100 if "all_share_stats" in s else "",
                    "checks": ("ok" if s.get("checks_ok") else "FAILED") if "median" in s else "",
                    "message": s.get("message", "")}
                for ph in SHOWN_PHASES:
                    row[ph + "_ns"] = s["phases"][ph] if "phases" in s else ""
                summary.append(row)
    # The firmware's busy share, every core's counter read around each run (median of runs 2..N).
    say("")
    say("firmware busy time per later run (us, median) and its share of the run: HUB / HUB + GPCs")
    say("%-7s %9s | %s" % ("program", "size", " | ".join("%-31s" % SHORT.get(c, c) for c in configs)))
    for prog, size in order:
        cells = []
        for c in configs:
            s = data.get((c, prog, size), {})
            cells.append("%6.2f / %6.2f  %5.2f %% / %5.2f %%" % (
                s["hub_busy_later"] / 1e3, (s["hub_busy_later"] + s["gpcs_busy_later"]) / 1e3,
                s["hub_share_run"] * 100, s["all_share_run"] * 100) if "hub_share_run" in s else "-")
        say("%-7s %9s | %s" % (prog, size, " | ".join("%-31s" % x for x in cells)))
    # Gdev's phases, as its test programs print them, beside the whole run.
    say("")
    say("Gdev's phases (ms, median of runs 2..N): HtoD / Exec / DtoH / Total")
    say("%-7s %9s | %s" % ("program", "size", " | ".join("%-31s" % SHORT.get(c, c) for c in configs)))
    phase_rows = []
    for prog, size in order:
        cells = []
        for c in configs:
            s = data.get((c, prog, size), {})
            if "phases" in s:
                cells.append(" / ".join("%.3f" % (s["phases"][ph] / 1e6) for ph in SHOWN_PHASES) + " / %.3f" % (
                    s["median"] / 1e6))
                r = {"program": prog, "size": size, "config": c}
                r.update({ph + "_ns": s["phases"][ph] for ph in PHASES})
                r["total_ns"] = s["median"]
                phase_rows.append(r)
            else:
                cells.append("-")
        say("%-7s %9s | %s" % (prog, size, " | ".join("%-31s" % x for x in cells)))
    if vendor:
        for c in others:
            d = []
            for prog, size in order:
                a, b = data.get((c, prog, size), {}), data.get((vendor, prog, size), {})
                if "phases" in a and "phases" in b:
                    d.append((prog, size, {ph: a["phases"][ph] - b["phases"][ph] for ph in PHASES},
                              a["median"] - b["median"]))
            if d:
                say("  %s - %s per phase (us, largest |difference| over the points): %s; total %s" % (
                    SHORT.get(c, c), SHORT.get(vendor, vendor),
                    ", ".join("%s %+.2f" % (ph, max((x[2][ph] for x in d), key=abs) / 1e3) for ph in PHASES),
                    "%+.2f" % (max((x[3] for x in d), key=abs) / 1e3)))
    say("")
    say("firmware share over the whole point (stats: cores' cycles / clock minus the boot run, / sum of run times):")
    for c in configs:
        vals = [(k[1], k[2], s) for k, s in data.items() if k[0] == c and "hub_share_stats" in s]
        if vals:
            say("  %-14s HUB max %.4f %%, HUB + GPCs max %.4f %% (of %d points)" % (
                c, max(v[2]["hub_share_stats"] for v in vals) * 100,
                max(v[2]["all_share_stats"] for v in vals) * 100, len(vals)))
        else:
            say("  %-14s no point ran" % c)
    fvl = first_vs_later(say, configs, order, data)
    for c in configs:
        wr = [s.get("golden_init_writes") for k, s in data.items() if k[0] == c and s.get("golden_init_writes")]
        if wr:
            say("  %s: the golden generation's GR init-list BAR0 accesses (gr_golden_init_writes): %d" % (c, int(wr[0])))
    say("  buckets: " + "; ".join("%s = %s" % (b, BUCKET_WHAT[b]) for b in BUCKETS))
    if vendor:
        for c in others:
            config_differences(say, out, c, vendor)
    sim = sum(s.get("sim_ns", 0) or 0 for s in data.values())
    tw = sum(wall.values())
    say("")
    say("wall: %s; total %.1f s; simulated %.3f s; simulated-to-wall ratio %.4f" % (
        ", ".join("%s %.1f s" % (c, wall[c]) for c in configs), tw, sim / 1e9, sim / 1e9 / tw if tw else 0))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    open(os.path.join(out, "table.txt"), "w").write(text)
    for name, rows in (("summary.csv", summary), ("phases.csv", phase_rows), ("first_vs_later.csv", fvl)):
        if rows:
            with open(os.path.join(out, name), "w", newline="") as f:
                wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
                wr.writeheader()
                wr.writerows(rows)
    open(os.path.join(out, "tables.md"), "w").write(markdown(configs, vendor, order, groups, data))
    if plot:
        make_plots(out, configs, data, groups, fvl)
    # Every config ran every point with every check ok, or ran none (pending); one config ran.
    full = [c for c in configs if all("median" in s for s in ran[c])]
    ok = bool(full) and all(all(s.get("checks_ok") for s in ran[c]) for c in full) and \
        all(c in full or not any("median" in s for s in ran[c]) for c in configs)
    return 0 if ok else 1


def markdown(configs, vendor, order, groups, data):
    """The tables of docs/fujii2013.md, in Markdown (OUT/tables.md): whole run, busy time, phases, first vs later."""
    others = [c for c in configs if c != vendor]
    hdr = [LABEL.get(c, c) for c in configs]
    md = []
    for g, title in (("i", "Group (i): < 2 ms per run (Fig. 6)"), ("ii", "Group (ii): > 7 ms per run (Fig. 7)"),
                     ("between", "Between 2 and 7 ms")):
        if not groups[g]:
            continue
        md += ["#### " + title, "", "| program | size | runs | " + " | ".join(hdr) + " | " + " | ".join(
            "overhead, %s" % LABEL.get(c, c) for c in others) + " |", "|---" * (3 + len(configs) + len(others)) + "|"]
        for prog, size in groups[g]:
            cells = []
            for c in configs:
                s = data.get((c, prog, size), {})
                cells.append("%s / %s / %s" % (ms(s["min"]), ms(s["median"]), ms(s["max"])) if "median" in s else "pending")
            v = data.get((vendor, prog, size), {})
            ovs = [overhead(data.get((c, prog, size), {}), v) for c in others]
            ovs = [pct(o).replace("-", "−") if o is not None else "pending" for o in ovs]
            runs = max(data.get((c, prog, size), {}).get("runs", 0) for c in configs)
            md.append("| %s | %s | %d | %s | %s |" % (prog, size, runs, " | ".join(cells), " | ".join(ovs)))
        md.append("")
    md += ["#### Firmware busy time per run (µs, median of runs 2..N) and its share of the run, HUB / HUB + GPCs",
           "", "| program | size | " + " | ".join(hdr) + " |", "|---" * (2 + len(configs)) + "|"]
    for prog, size in order:
        cells = []
        for c in configs:
            s = data.get((c, prog, size), {})
            cells.append("%.2f / %.2f µs: %.3f %% / %.3f %%" % (
                s["hub_busy_later"] / 1e3, (s["hub_busy_later"] + s["gpcs_busy_later"]) / 1e3,
                s["hub_share_run"] * 100, s["all_share_run"] * 100) if "hub_share_run" in s else "pending")
        md.append("| %s | %s | %s |" % (prog, size, " | ".join(cells)))
    md += ["", "#### Gdev's phases (ms, median of runs 2..N): HtoD / Exec / DtoH / Total", "",
           "| program | size | " + " | ".join(hdr) + " |", "|---" * (2 + len(configs)) + "|"]
    for prog, size in order:
        cells = []
        for c in configs:
            s = data.get((c, prog, size), {})
            cells.append(" / ".join("%.3f" % (s["phases"][ph] / 1e6) for ph in SHOWN_PHASES) + " / %.3f" % (
                s["median"] / 1e6) if "phases" in s else "pending")
        md.append("| %s | %s | %s |" % (prog, size, " | ".join(cells)))
    md += ["", "#### First run against later runs (µs): run 1 / median of runs 2..N; run 1's extra by phase "
           "(Init, the rest) and by host bucket (BAR0 registers, BAR1)", "",
           "| config | program | size | run 1 / later | extra | Init | other phases | BAR0 regs | BAR1 | golden | firmware busy extra |",
           "|---" * 11 + "|"]
    for c in configs:
        for prog, size in order:
            s = data.get((c, prog, size), {})
            if "diff" not in s or "phases" not in s:
                continue
            d = {ph: s["phases_first"][ph] - s["phases"][ph] for ph in PHASES}
            fw = (s["hub_busy_first"] + s["gpcs_busy_first"] - s["hub_busy_later"] - s["gpcs_busy_later"]) \
                if s.get("hub_busy_first") is not None else None
            md.append("| %s | %s | %s | %.1f / %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s |" % (
                c, prog, size, s["first"] / 1e3, s["median"] / 1e3, (s["first"] - s["median"]) / 1e3, d["init"] / 1e3,
                sum(v for k, v in d.items() if k != "init") / 1e3, s["diff"]["reg"] / 1e3, s["diff"]["vram"] / 1e3,
                (s["golden_ns"] or 0) / 1e3, "%.2f" % (fw / 1e3) if fw is not None else "-"))
    return "\n".join(md) + "\n"


def first_vs_later(say, configs, order, data):
    """Run 1 minus the median later run, by phase and by host bucket; the rows of first_vs_later.csv."""
    say("")
    say("first run against later runs (run 1 - median of runs 2..N, us), by Gdev's phase and by where the "
        "host's time went:")
    say("%-14s %-7s %9s | %9s %9s %9s | %s | %s | %9s %9s" % (
        "config", "program", "size", "first", "later", "diff", " ".join("%8s" % p[:8] for p in PHASES),
        " ".join("%9s" % b for b in BUCKETS), "golden", "fw busy"))
    fvl = []
    for c in configs:
        for prog, size in order:
            s = data.get((c, prog, size), {})
            if "diff" not in s:
                continue
            fw = None
            if s.get("hub_busy_first") is not None:
                fw = s["hub_busy_first"] + s["gpcs_busy_first"] - s["hub_busy_later"] - s["gpcs_busy_later"]
            dph = {ph: s["phases_first"][ph] - s["phases"][ph] for ph in PHASES} if "phases" in s else None
            say("%-14s %-7s %9s | %9.1f %9.1f %9.1f | %s | %s | %9.1f %9s" % (
                c, prog, size, s["first"] / 1e3, s["median"] / 1e3, (s["first"] - s["median"]) / 1e3,
                " ".join("%8.1f" % (dph[ph] / 1e3) for ph in PHASES) if dph else " ".join("%8s" % "-" for _ in PHASES),
                " ".join("%9.1f" % (s["diff"][b] / 1e3) for b in BUCKETS), (s["golden_ns"] or 0) / 1e3,
                "%.2f" % (fw / 1e3) if fw is not None else "-"))
            row = {"config": c, "program": prog, "size": size, "first_ns": s["first"], "later_median_ns": s["median"],
                   "diff_ns": s["first"] - s["median"], "golden_ns": s["golden_ns"],
                   "hub_fw_diff_ns": (s["hub_busy_first"] - s["hub_busy_later"]) if fw is not None else "",
                   "fw_diff_ns": fw if fw is not None else ""}
            row.update({"diff_%s_ns" % b: s["diff"][b] for b in BUCKETS})
            row.update({"diff_phase_%s_ns" % ph: (dph[ph] if dph else "") for ph in PHASES})
            fvl.append(row)
    return fvl


def config_differences(say, out, a, b):
    """The comparison is the firmware's only if the platforms are the same: every resolved
    configuration value (boot runs) that differs between two configs, microcontrollers apart."""
    flat = []
    for c in (a, b):
        try:
            flat.append(flatten(json.load(open(os.path.join(out, c + "-boot.json")))["run"]["resolved"]))
        except (OSError, ValueError, KeyError):
            flat.append(None)
    if None in flat:
        return
    keys = sorted(k for k in set(flat[0]) | set(flat[1]) if flat[0].get(k) != flat[1].get(k)
                  and not k.startswith("workload."))
    say("")
    say("%s vs %s: resolved configuration values that differ (boot runs; microcontrollers are the point):" % (a, b))
    for k in keys:
        say("  %-44s %-24s %s%s" % (k, flat[0].get(k, "-"), flat[1].get(k, "-"),
                                   "" if k.startswith("gpu0.microcontrollers.") else "   <- not the firmware"))
    if not keys:
        say("  none")


def make_plots(out, configs, data, groups, fvl):
    if not shutil.which("gnuplot"):
        print("analyze.py: gnuplot is not installed: no plots (apt-get install gnuplot-nox)", file=sys.stderr)
        return
    style = """set terminal %s size 900,560 font "sans,11"
set output "%s"
set style data histograms
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key inside top left box opaque noenhanced
set linetype 1 linecolor rgb "#0072B2"
set linetype 2 linecolor rgb "#D55E00"
set linetype 3 linecolor rgb "#009E73"
set linetype 4 linecolor rgb "#CC79A7"
set linetype 5 linecolor rgb "#E69F00"
set linetype 6 linecolor rgb "#56B4E9"
set linetype 7 linecolor rgb "#000000"
"""
    for g, fig, title in (("i", "fig6_group_i", "Fig. 6, group (i): runs < 2 ms"),
                          ("ii", "fig7_group_ii", "Fig. 7, group (ii): runs > 7 ms")):
        if not groups[g]:
            continue
        dat = os.path.join(out, fig + ".dat")
        with open(dat, "w") as f:
            f.write("# program median min max per config (%s); ms; NaN = did not run\n" % " ".join(configs))
            for prog, size in groups[g]:
                cells = []
                for c in configs:
                    s = data.get((c, prog, size), {})
                    cells += ["%.6f %.6f %.6f" % (s["median"] / 1e6, s["min"] / 1e6, s["max"] / 1e6)
                              if "median" in s else "NaN NaN NaN"]
                f.write('"%s %s" %s\n' % (prog, size, " ".join(cells)))
        # A config none of whose points ran gets no bars (gnuplot refuses an all-NaN column), a note.
        pending = [c for c in configs if not any("median" in data.get((c, p, z), {}) for p, z in groups[g])]
        notes = "".join("\\n%s: pending (did not run, see table.txt)" % LABEL.get(c, c) for c in pending)
        for term, ext in (("pngcairo", "png"), ("svg", "svg")):
            plots = []
            for i, c in enumerate(configs):
                if c in pending:
                    continue
                plots.append("'%s' using %d:%d:%d:xtic(1) title \"%s\" linetype %d" % (
                    dat, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i, LABEL.get(c, c), i + 1))
            if not plots:
                break
            gp = style % (term, os.path.join(out, fig + "." + ext)) + \
                'set title "Fujii 2013 %s in hetvp: median run time, min..max bars (runs 2..N)%s" noenhanced\n' % (
                    title, notes) + \
                'set ylabel "total time per run (ms)"\nset yrange [0:*]\nset xtics rotate by -20\n' + \
                "plot " + ", ".join(plots) + "\n"
            subprocess.run(["gnuplot"], input=gp, text=True, check=True)
        print(os.path.join(out, fig + ".png"))
    # First run against the median later run, stacked by where the host's time went.
    rows = [r for r in fvl if r["config"] == configs[0]]
    if rows:
        dat = os.path.join(out, "first_vs_later.dat")
        with open(dat, "w") as f:
            f.write("# label " + " ".join(BUCKETS) + " (us)\n")
            for r in rows:
                s = data[(r["config"], r["program"], r["size"])]
                f.write('"%s %s\\nrun 1 - later" %s\n' % (r["program"], r["size"], " ".join(
                    "%.3f" % max(r["diff_%s_ns" % b] / 1e3, 0) for b in BUCKETS)))
        for term, ext in (("pngcairo", "png"), ("svg", "svg")):
            plots = ["'%s' using %d%s title \"%s\"" % (dat, 2 + i, ":xtic(1)" if i == 0 else "", BUCKET_WHAT[b])
                     for i, b in enumerate(BUCKETS)]
            gp = style.replace("errorbars gap 2 lw 1.5", "rowstacked") % (term, os.path.join(out, "first_vs_later." + ext)) + \
                'set title "First run minus the median later run (%s), by where the host\'s time went" noenhanced\n' \
                % LABEL.get(configs[0], configs[0]) + \
                'set ylabel "extra time of run 1 (us)"\nset key outside bottom center horizontal maxrows 4\n' + \
                'set terminal %s size 1000,640 font "sans,10"\nset output "%s"\n' % (term, os.path.join(out, "first_vs_later." + ext)) + \
                'set xtics rotate by -30 font ",8"\n' + "plot " + ", ".join(plots) + "\n"
            subprocess.run(["gnuplot"], input=gp, text=True, check=True)
        print(os.path.join(out, "first_vs_later.png"))


if __name__ == "__main__":
    sys.exit(main())
