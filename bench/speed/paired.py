#!/usr/bin/env python3
"""Times two whole commands in turn and gives their ratio pair by pair (docs/benchmarks.md).

    bench/speed/paired.py [-n RUNS] [--warmup W] --vs 'COMMAND_B' -- COMMAND_A [ARG ...]
    bench/speed/paired.py [-n RUNS] [--warmup W] -- COMMAND_A [ARG ...]      (A alone)

A and B run alternately (A B A B ...) after W warm-up pairs that are not counted, so a machine
whose speed drifts during the call moves both sides of each pair alike; the ratio A/B is taken per
pair. Per command it prints wall seconds (a monotonic clock around the child) and CPU seconds
(user + system of the finished child, from getrusage), each as min / median / max, then the
pairs' A/B ratios the same way: quote the median. B is one string split as a shell splits words;
neither command gets a shell, and their output is discarded. A command that fails stops the call
(exit 1) naming it and its exit status.
"""
import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc != 0:
        sys.exit(f"paired.py: `{shlex.join(cmd)}` exited with status {rc}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def spread(values, unit=""):
    return f"{min(values):.3f}{unit} / {statistics.median(values):.3f}{unit} / {max(values):.3f}{unit}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=5, help="counted runs of each command (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="uncounted runs of each first (default 1)")
    p.add_argument("--vs", default=None, help="command B, the baseline, as one string")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- command A and its arguments")
    a = p.parse_args()
    cmd_a = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd_a:
        p.error("no command: give it after --")
    if a.n < 1 or a.warmup < 0:
        p.error("-n must be at least 1 and --warmup at least 0")
    cmd_b = shlex.split(a.vs) if a.vs else None
    results = {"A": [], "B": []}
    for i in range(a.warmup + a.n):
        pair = {"A": run_once(cmd_a)}
        if cmd_b:
            pair["B"] = run_once(cmd_b)
        if i >= a.warmup:
            for k, v in pair.items():
                results[k].append(v)
    print(f"A: {shlex.join(cmd_a)}")
    if cmd_b:
        print(f"B: {shlex.join(cmd_b)}")
    print(f"{a.n} runs each after {a.warmup} warm-up; min / median / max")
    for k in ("A", "B"):
        if results[k]:
            print(f"  {k} wall {spread([w for w, _ in results[k]], ' s')}   cpu {spread([c for _, c in results[k]], ' s')}")
    if cmd_b:
        walls = [wa / wb for (wa, _), (wb, _) in zip(results["A"], results["B"])]
        cpus = [ca / cb for (_, ca), (_, cb) in zip(results["A"], results["B"])]
        print(f"  A/B wall {spread(walls)}   cpu {spread(cpus)}")


if __name__ == "__main__":
    main()
