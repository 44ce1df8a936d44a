#!/usr/bin/env bash
# bench/fujii2013 in its quick mode (madd and loop at their group-(i) sizes, 3 runs, hetvp's
# firmware on configs/default.yaml), through the real `hetvp sweep`: the table's shape, every
# self-check passed, the per-run columns add up (host_*_ns sum to total_ns; the firmware's busy
# time is > 0 and below the run time), the first run is the later runs plus the golden context
# (mostly its BAR1 read-back), and the plots exist. Then the analysis of a point whose check failed
# exits 1 naming it; a second config (nouveau's firmware on Falcon) fills the other column, the
# overhead, its per-run busy share (the Falcon cores' cycle counters) and Gdev's phases; a config that
# ran some points but not all makes the analysis exit 1; one that cannot run gpu_bench is "pending:
# <its message>"; bad command lines exit 2 with a message.
#   tests/sweep/fujii2013_quick.sh HETVP
set -u
HETVP=${1:?usage: fujii2013_quick.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(dirname "$HETVP")
T=$(mktemp -d /tmp/hetvp-fujii2013.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
bash "$SRC/bench/fujii2013/run.sh" "$BUILD" "$T/o" --quick > "$T/out" 2> "$T/err" || fail "run.sh --quick: $(cat "$T/out" "$T/err")"
O=$T/o
# One sweep of two points, both passed.
[ "$(ls "$O/default/points" | wc -l)" = 2 ] || fail "expected 2 points: $(ls "$O/default/points")"
for st in "$O"/default/points/*/status; do grep -qx "state: ok" "$st" || fail "$st: $(cat "$st")"; done
# The table: group (i) with madd 64 and loop 100000, both checks ok, and the summary CSV's shape.
grep -q "^group (i): < 2 ms per run" "$O/table.txt" || fail "no group (i) in the table: $(cat "$O/table.txt")"
for p in "madd +64" "loop +100000"; do
  grep -Eq "^$p .*\| +ok$" "$O/table.txt" || fail "no '$p ... ok' row: $(cat "$O/table.txt")"
done
head -n 1 "$O/summary.csv" | grep -q "^group,program,size,config,state,runs,first_ns,min_ns,median_ns,max_ns,overhead_pct" ||
  fail "summary.csv header: $(head -n 1 "$O/summary.csv")"
python3 - "$O" <<'PY' || fail "values (above)"
import csv, sys
o = sys.argv[1]
rows = list(csv.DictReader(open(o + "/summary.csv")))
assert [(r["program"], r["size"], r["config"]) for r in rows] == [("madd", "64", "default"), ("loop", "100000", "default")], rows
for r in rows:
    assert r["state"] == "ok" and r["runs"] == "3" and r["checks"] == "ok", r
    first, lo, med, hi = (float(r[k]) for k in ("first_ns", "min_ns", "median_ns", "max_ns"))
    assert 0 < lo <= med <= hi < 2e6 and first > hi, r   # group (i); the first run pays the golden context
    hub, allm = float(r["hub_share_run_pct"]), float(r["all_share_run_pct"])
    assert 0 < hub < allm < 100, r                            # HUB busy some, GPCs add to it
    assert 0 < float(r["hub_share_stats_pct"]) < 100, r
# Per-run columns: the buckets add up to the run's total (each rounded to 1 ns).
import glob
for f in glob.glob(o + "/default/points/*/results.csv"):
    runs = list(csv.DictReader(open(f)))
    assert len(runs) == 3, f
    for x in runs:
        parts = sum(float(x[k]) for k in x if k.startswith("host_"))
        assert abs(parts - float(x["total_ns"])) <= 8, (f, x)
        assert 0 < float(x["fw_hub_ns"]) < float(x["total_ns"]), x
# First run - later = the golden context, mostly the image's read-back through BAR1.
for r in csv.DictReader(open(o + "/first_vs_later.csv")):
    d, g = float(r["diff_ns"]), float(r["golden_ns"])
    assert d > 0 and abs(d - g) < 0.05 * g, r
    assert float(r["diff_vram_ns"]) > 0.5 * d, r
    assert abs(sum(float(r["diff_%s_ns" % b]) for b in ("reg", "mcu", "mcu_wait", "vram", "wait", "cpu", "mem")) - d) <= 20, r
PY
grep -q "simulated-to-wall ratio" "$O/table.txt" || fail "no speed line"
# The plots (gnuplot is a dependency: .ci/install-deps).
python3 "$SRC/bench/fujii2013/analyze.py" "$O" > /dev/null 2> "$T/plot.err" || fail "analyze.py: $(cat "$T/plot.err")"
for f in fig6_group_i.png fig6_group_i.svg first_vs_later.png; do [ -s "$O/$f" ] || fail "no $f"; done
# A failed self-check in a point: the analysis says FAILED and exits 1.
cp -r "$O" "$T/bad"
f=$(ls "$T"/bad/default/points/*/results.csv | head -n 1)
sed -i '3s/,ok,/,FAILED,/' "$f"
python3 "$SRC/bench/fujii2013/analyze.py" "$T/bad" --no-plot > "$T/bad.out" 2>&1 && fail "a FAILED check was not caught"
grep -Eq "\| +FAILED$" "$T/bad.out" || fail "no FAILED row: $(cat "$T/bad.out")"
# Two configs that both run, hetvp's firmware on RV32 and nouveau's on Falcon: the second's column,
# the overhead = median / median - 1, both firmwares' busy time per run from their cores' counters,
# Gdev's phases of both.
bash "$SRC/bench/fujii2013/run.sh" "$BUILD" "$T/two" --quick --configs "default gf100_nouveau" > "$T/two.out" 2>&1 ||
  fail "two configs: $(cat "$T/two.out")"
python3 - "$T/two" <<'PY' || fail "two configs (above)"
import csv, sys
o = sys.argv[1]
rows = {(r["program"], r["config"]): r for r in csv.DictReader(open(o + "/summary.csv"))}
for p in ("madd", "loop"):
    a, b = rows[(p, "default")], rows[(p, "gf100_nouveau")]
    assert a["state"] == b["state"] == "ok" and b["checks"] == "ok", (a, b)
    want = (float(a["median_ns"]) / float(b["median_ns"]) - 1) * 100
    assert abs(float(a["overhead_pct"]) - want) < 1e-6 and float(b["median_ns"]) != float(a["median_ns"]), (a, b, want)
    assert b["overhead_pct"] == "" and a["vendor"] == b["vendor"] == "gf100_nouveau", (a, b)
    for r in (a, b):  # busy time per run, measured the same way on both cores
        hub, gpcs = float(r["hub_busy_ns"]), float(r["gpcs_busy_ns"])
        assert 0 < hub < float(r["median_ns"]) and gpcs > 0, r
        assert 0 < float(r["hub_share_run_pct"]) < float(r["all_share_run_pct"]) < 100, r
        assert 0 < float(r["htod_ns"]) + float(r["exec_ns"]) + float(r["dtoh_ns"]) < float(r["median_ns"]), r
ph = list(csv.DictReader(open(o + "/phases.csv")))
assert {(r["program"], r["config"]) for r in ph} == set(rows), ph
for r in ph:  # Gdev's phases add up to the run's total (each rounded to 1 ns)
    parts = sum(float(r[k]) for k in r if k.endswith("_ns") and k != "total_ns")
    assert abs(parts - float(r["total_ns"])) <= 10, r
PY
grep -Eq "^madd +64 +3 \| [0-9.]+ / [0-9.]+ / [0-9.]+ +\| [0-9.]+ / [0-9.]+ / [0-9.]+ +\| +[-+][0-9.]+ %" "$T/two/table.txt" ||
  fail "two configs' table: $(cat "$T/two/table.txt")"
grep -q "^Gdev's phases (ms, median of runs 2..N): HtoD / Exec / DtoH / Total" "$T/two/table.txt" || fail "no phases table"
# A config that ran some points but not all: the analysis exits 1.
cp -r "$T/two" "$T/part"
rm "$(ls -d "$T"/part/gf100_nouveau/points/* | head -n 1)/results.csv"
python3 "$SRC/bench/fujii2013/analyze.py" "$T/part" --no-plot > "$T/part.out" 2>&1 && fail "a partly run config was not caught"
# A config that cannot run gpu_bench: its column says pending with the run's message; the bench
# still passes (a config that ran no point is pending, not a failure).
bash "$SRC/bench/fujii2013/run.sh" "$BUILD" "$T/pend" --quick --configs "default videocore4" > "$T/pend.out" 2>&1 ||
  fail "a config that cannot run made the bench fail: $(cat "$T/pend.out")"
grep -q "^        videocore4: pending: cpu: workload 'gpu_bench': " "$T/pend/table.txt" ||
  fail "no pending line: $(cat "$T/pend/table.txt")"
grep -q "^i,madd,64,videocore4,failed,0,.*workload 'gpu_bench'" "$T/pend/summary.csv" || fail "summary: $(cat "$T/pend/summary.csv")"
# Bad command lines.
bash "$SRC/bench/fujii2013/run.sh" > "$T/u1" 2>&1; [ $? = 2 ] || fail "no arguments: not exit 2"
bash "$SRC/bench/fujii2013/run.sh" "$BUILD" "$T/x" --bogus > "$T/u2" 2>&1; [ $? = 2 ] || fail "--bogus: not exit 2"
grep -q "unknown option '--bogus'" "$T/u2" || fail "--bogus: $(cat "$T/u2")"
bash "$SRC/bench/fujii2013/run.sh" "$T" "$T/x" > "$T/u3" 2>&1; [ $? = 2 ] || fail "no hetvp in BUILD: not exit 2"
grep -q "is not an executable" "$T/u3" || fail "no hetvp: $(cat "$T/u3")"
bash "$SRC/bench/fujii2013/run.sh" "$BUILD" "$T/x" --quick --configs nosuch > "$T/u4" 2>&1; [ $? = 2 ] || fail "--configs nosuch: not exit 2"
grep -q "no configs/nosuch.yaml" "$T/u4" || fail "--configs nosuch: $(cat "$T/u4")"
echo "ok: $(grep -c . "$O/summary.csv") summary lines, $(cat "$O/wall.txt")"
