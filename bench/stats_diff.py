#!/usr/bin/env python3
"""Compare the --stats JSON of two hetvp builds, workload by workload and config by config.

    bench/stats_diff.py --base /tmp/base --new . [--configs default,coherence] [--workloads transfer,dma]
                        [--jobs 2] [--timeout 120] [--out DIR]

--base and --new are source trees with a built build/hetvp (each run uses its own tree's
configs/CONFIG.yaml and its own firmware). Every workload `hetvp list` names (the new build's;
`mmio` needs an address and is left out) runs on every config in the new tree's configs/ with
both builds: `hetvp run configs/C.yaml --workload W --stats FILE`. Pairs that hit --timeout in
both builds are reported and not compared. For each pair the script prints the exit status of
both, then every JSON path whose value differs (old -> new), every path only one side has, and
whether the rest is identical. Exit status: 0 when nothing differs, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys


def workloads(tree):
    out = subprocess.run([os.path.join(tree, "build", "hetvp"), "list"], capture_output=True, text=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("host programs"):
            on = True
        elif on and line.startswith("  "):
            names.append(line.split()[0])
        elif on and line and not line.startswith(" "):
            on = False
    return [n for n in names if n != "mmio"]


def run(tree, config, workload, out_dir, tag, timeout):
    stats = os.path.join(out_dir, f"{config}.{workload}.{tag}.json")
    if os.path.exists(stats):
        os.remove(stats)
    cmd = [os.path.join(tree, "build", "hetvp"), "run", os.path.join("configs", config + ".yaml"),
           "--workload", workload, "--stats", stats]
    try:
        p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    data = None
    if os.path.exists(stats):
        with open(stats) as f:
            data = json.load(f)
    return rc, data


def flatten(v, path, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(x, f"{path}.{k}" if path else k, out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flatten(x, f"{path}[{i}]", out)
    else:
        out[path] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="source tree of the old build (build/hetvp)")
    ap.add_argument("--new", default=".", help="source tree of the new build (default: .)")
    ap.add_argument("--configs", help="comma-separated config names (default: every configs/*.yaml)")
    ap.add_argument("--workloads", help="comma-separated workloads (default: every one `hetvp list` names but mmio)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--out", default="/tmp/stats_diff", help="folder for the JSON files")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    configs = a.configs.split(",") if a.configs else sorted(
        f[:-5] for f in os.listdir(os.path.join(a.new, "configs")) if f.endswith(".yaml"))
    wls = a.workloads.split(",") if a.workloads else workloads(a.new)
    pairs = [(c, w) for c in configs for w in wls]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        old = {p: ex.submit(run, a.base, p[0], p[1], a.out, "base", a.timeout) for p in pairs}
        new = {p: ex.submit(run, a.new, p[0], p[1], a.out, "new", a.timeout) for p in pairs}
    differ = 0
    for p in pairs:
        (rc0, d0), (rc1, d1) = old[p].result(), new[p].result()
        head = f"{p[0]} / {p[1]}: exit {rc0} -> {rc1}"
        if rc0 == "timeout" and rc1 == "timeout":
            print(f"{head}: timed out in both, not compared")
            continue
        if d0 is None or d1 is None:
            same = d0 is None and d1 is None and rc0 == rc1
            print(f"{head}: stats {'missing in both' if same else 'missing in one'}")
            differ += not same
            continue
        f0, f1 = flatten(d0, "", {}), flatten(d1, "", {})
        for f in (f0, f1):  # wall-clock measures, not results: differ between any two runs
            for k in ("run.host_seconds", "run.sim_rate"):
                f.pop(k, None)
        lines = []
        for k in sorted(set(f0) | set(f1)):
            if k not in f1:
                lines.append(f"  - {k} = {f0[k]!r} (only in base)")
            elif k not in f0:
                lines.append(f"  + {k} = {f1[k]!r} (only in new)")
            elif f0[k] != f1[k]:
                lines.append(f"  ~ {k}: {f0[k]!r} -> {f1[k]!r}")
        order_same = list(f0) == list(f1)
        if not lines and rc0 == rc1:
            print(f"{head}: identical ({len(f0)} values{'' if order_same else ', key order differs'})")
            continue
        differ += 1
        print(f"{head}: {len(lines)} of {len(set(f0) | set(f1))} values differ")
        print("\n".join(lines))
    print(f"{differ} of {len(pairs)} (config, workload) pairs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
