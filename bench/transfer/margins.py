#!/usr/bin/env python3
"""Margins of the Fujii 2014 shapes that tests/integration/test_offload.cpp asserts, from a
transfer CSV (./build/hetvp run configs/default.yaml --csv t.csv). For each asserted comparison
it prints the winner's lead over the runner-up in percent of the runner-up's time; the smallest
margin of each shape is what decides whether the assertion is a result or a coin toss.
Usage: bench/transfer/margins.py t.csv [--markdown]"""
import csv
import sys
from collections import defaultdict

t = defaultdict(dict)  # (dir, size) -> method -> ns
for r in csv.DictReader(open(sys.argv[1])):
    t[(r["direction"], int(r["size_bytes"]))][r["method"]] = float(r["time_ns"])
md = "--markdown" in sys.argv


def lead(win, lose):  # how much faster `win` is than `lose`, in % of `lose`
    return (lose - win) / lose * 100


def fastest_margin(d, s, want, pairs=False):
    row = {m: v for m, v in t[(d, s)].items() if ("+" in m) == pairs}
    best = min(row, key=row.get)
    second = min((v for m, v in row.items() if m != want), default=None)
    if best != want:
        return best, lead(row[best], row[want]) * -1
    return want, lead(row[want], second)


shapes = []
def shape(name, margins):
    worst = min(margins, key=lambda x: x[1])
    shapes.append((name, worst))

KB = 1024
shape("H→D: IORW fastest 4 B – 64 KB", [(s, fastest_margin("HtoD", s, "IORW")[1]) for s in [4 << i for i in range(15)]])
shape("H→D: DMA fastest 256 KB – 4 MB", [(s, fastest_margin("HtoD", s, "DMA")[1]) for s in [256 * KB << i for i in range(5)]])
shape("D→H: HUB fastest 256 B – 4 KB", [(s, fastest_margin("DtoH", s, "HUB")[1]) for s in [256 << i for i in range(5)]])
shape("D→H: DMA fastest 16 KB – 4 MB", [(s, fastest_margin("DtoH", s, "DMA")[1]) for s in [16 * KB << i for i in range(9)]])
shape("D→H: 8 KB, DMA vs HUB (documented tie, not asserted)", [(8 * KB, fastest_margin("DtoH", 8 * KB, "DMA")[1])])
shape("HUB faster than GPC1 from 4 KB", [(f"{d} {s}", lead(t[(d, s)]["HUB"], t[(d, s)]["GPC1"]))
                                         for d in ("HtoD", "DtoH") for s in [4 * KB << i for i in range(11)]])
shape("GPC4 slower than GPC1 at 256 B", [(d, lead(t[(d, 256)]["GPC1"], t[(d, 256)]["GPC4"])) for d in ("HtoD", "DtoH")])
shape("GPC4 faster than GPC1 at 4 MB", [(d, lead(t[(d, 4096 * KB)]["GPC4"], t[(d, 4096 * KB)]["GPC1"])) for d in ("HtoD", "DtoH")])
ov = []
for s in [256 << i for i in range(7)]:
    row = {m: v for m, v in t[("DtoH", s)].items() if "+" in m and m.split("+")[0] in ("HUB", "GPC1", "GPC4")}
    best = min(row, key=row.get)
    ov.append((f"{s} {best}", lead(row[best], min(t[("DtoH", s)]["DMA+DMA"], t[("DtoH", s)]["IORW+IORW"]))))
wins = sorted([x for x in ov if x[1] > 0], key=lambda x: -x[1])
shapes.append(("D→H overlap beats sequential at ≥ 3 sizes in 256 B – 16 KB (3rd-best win)", wins[2] if len(wins) >= 3 else ("-", -1)))

if md:
    print("| asserted shape | smallest margin | where |")
    print("|---|---|---|")
    for name, (where, m) in shapes:
        print(f"| {name} | {m:.1f} % | {where} |")
else:
    for name, (where, m) in shapes:
        print(f"{m:7.1f} %  {name}  (at {where})")
