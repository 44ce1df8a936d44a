#!/usr/bin/env bash
# Fujii 2013's own-vs-vendor firmware experiment (issues #24, #39, #41; docs/fujii2013.md): Gdev's
# microbenchmarks madd, mmul, fmadd, memcpy, loop, idle at two sizes each — one whose run takes
# < 2 ms (the paper's group i) and one > 7 ms (group ii) — RUNS runs each, on identical hardware:
# hetvp's C firmware on GF100's Falcon cores (configs/gf100_own.yaml) against nouveau's firmware on
# the same cores (configs/gf100_nouveau.yaml), and hetvp's C firmware on RV32 cores
# (configs/default.yaml) as a third column; each config one `hetvp sweep -j JOBS`. Then
# bench/fujii2013/analyze.py prints and plots Figs. 6/7 (time per program, every firmware,
# min/median/max), the overhead in %, the firmware's busy share of a run (every core's cycle
# counter read around each run, the same way on RV32 and Falcon), Gdev's per-phase times and the
# first run against the later ones, broken down.
#
#   bench/fujii2013/run.sh BUILD_DIR [OUT_DIR] [--runs N] [--jobs J] [--quick] [--configs "A B"]
#
# OUT_DIR (default /tmp/fujii2013) gets sweeps/<config>.yaml, <config>/ (the sweep's points and
# results.csv), <config>-boot.json (a `boot` run: the firmware's boot-time cycles, subtracted from
# the runs' totals), and analyze.py's table.txt, summary.csv, phases.csv, first_vs_later.csv,
# *.png, *.svg.
# Configs: without --configs, 100 runs measure gf100_own, gf100_nouveau and default. --runs N with
# N < 100 and no --configs is the speed job (docs/benchmarks.md: `--runs 5`): default and
# gf100_nouveau, the two configs every earlier tree's bench ran, so its wall time compares like for
# like across trees. --quick: madd and loop at their group-i sizes, 3 runs, configs/default.yaml
# only (the ctest).
# A config that cannot run the workload is not an error of the bench: its points fail, and the
# table says "pending: <the run's message>". Exit status (analyze.py's): 0 the table was made (every
# config ran every point with every self-check passed, or ran none: pending), 1 a self-check failed
# or a config ran some points but not all, 2 usage.
set -euo pipefail
usage() { sed -n '13,14p' "$0" | sed 's/^# *//' >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$1; shift
OUT=/tmp/fujii2013
if [ $# -ge 1 ] && [ "${1#--}" = "$1" ]; then OUT=$1; shift; fi
RUNS=100 JOBS=2 QUICK=0 CONFIGS="gf100_own gf100_nouveau default" CONFIGS_SET=0
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=${2:?--runs N}; shift 2
      case $RUNS in '' | *[!0-9]* | 0) echo "run.sh: --runs takes a positive number, not '$RUNS'" >&2; exit 2 ;; esac ;;
    --jobs|-j) JOBS=${2:?--jobs J}; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --configs) CONFIGS=${2:?--configs \"A B\"}; CONFIGS_SET=1; shift 2 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage ;;
  esac
done
HETVP=$(cd "$BUILD" && pwd)/hetvp
[ -x "$HETVP" ] || { echo "run.sh: $HETVP is not an executable (build first)" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)

# program:size[:processes]. Group i (< 2 ms per run) and group ii (> 7 ms), sizes chosen by
# measuring each program's run time in hetvp on configs/default.yaml (docs/fujii2013.md, "Sizes").
# Every point runs RUNS times: each gpu_bench run frees its VRAM (cuMemFree, cuModuleUnload,
# cuCtxDestroy: issue #41), so 100 runs of madd 1024 or memcpy 20 MiB fit (until then they were
# capped at 20 and 6 runs). The third field splits a point's runs over that many processes
# (simulation.seed 1, 2, ...: the same configuration otherwise; gpu_bench is deterministic, the seed
# only makes the points distinct), so that the jobs share the longest points; each process pays its
# own first run. The longest points first.
GROUP_II="mmul:248:2 madd:1024 fmadd:1024 memcpy:20971520 loop:10000000 idle:10000000"
GROUP_I="madd:64 fmadd:64 mmul:32 memcpy:1048576 loop:100000 idle:100000"
POINTS="$GROUP_II $GROUP_I"
if [ "$QUICK" = 1 ]; then
  POINTS="madd:64 loop:100000"
  [ "$RUNS" = 100 ] && RUNS=3
  [ "$CONFIGS_SET" = 1 ] || CONFIGS=default
elif [ "$RUNS" -lt 100 ] && [ "$CONFIGS_SET" = 0 ]; then
  CONFIGS="default gf100_nouveau"  # the speed job (header)
fi
progs="" sizes="" runs="" seeds=""
for p in $POINTS; do
  IFS=: read -r prog size parts <<< "$p"
  r=$RUNS
  parts=${parts:-1}
  [ "$r" -ge "$((2 * parts))" ] || parts=1
  for k in $(seq 1 "$parts"); do
    progs+="$prog, " sizes+="$size, " runs+="$(( r / parts + (k <= r % parts ? 1 : 0) )), " seeds+="$k, "
  done
done

mkdir -p "$OUT/sweeps"
tr ' ' '\n' <<< "$POINTS" | cut -d: -f1,2 > "$OUT/points.txt"
rm -f "$OUT/wall.txt.new"
t_all=$(date +%s.%N)
for cfg in $CONFIGS; do
  [ -f "$SRC/configs/$cfg.yaml" ] || { echo "run.sh: no configs/$cfg.yaml" >&2; exit 2; }
  cat > "$OUT/sweeps/$cfg.yaml" <<YAML
# Written by bench/fujii2013/run.sh: Fujii 2013's microbenchmarks under configs/$cfg.yaml.
base: $SRC/configs/$cfg.yaml
workload: gpu_bench
zip:
  workload.args.program: [${progs%, }]
  workload.args.size: [${sizes%, }]
  workload.args.runs: [${runs%, }]
  simulation.seed: [${seeds%, }]
outputs: [stats, csv]
timeout: 3600 s   # per point: 100 runs of loop 10^7 passed 600 s on a loaded 2-core machine
YAML
  # The firmware's cycles at boot, with nothing else run (subtracted from each point's total).
  "$HETVP" run "$SRC/configs/$cfg.yaml" --workload boot --quiet --no-progress --stats "$OUT/$cfg-boot.json" \
    > "$OUT/$cfg-boot.log" 2>&1 || true
  t0=$(date +%s.%N)
  rc=0
  "$HETVP" sweep "$OUT/sweeps/$cfg.yaml" --out "$OUT/$cfg" -j "$JOBS" 2> "$OUT/$cfg-sweep.log" || rc=$?
  t1=$(date +%s.%N)
  [ "$rc" -le 1 ] || { echo "run.sh: hetvp sweep of $cfg failed (exit $rc):" >&2; tail -5 "$OUT/$cfg-sweep.log" >&2; exit 1; }
  echo "$cfg $(echo "$t1 - $t0" | bc) $rc" >> "$OUT/wall.txt.new"
  echo "configs/$cfg.yaml: sweep exit $rc, $(echo "$t1 - $t0" | bc) s wall" >&2
done
mv "$OUT/wall.txt.new" "$OUT/wall.txt"
echo "all configs: $(echo "$(date +%s.%N) - $t_all" | bc) s wall" >&2
opts=()
[ "$QUICK" = 1 ] && opts=(--no-plot)
python3 "$SRC/bench/fujii2013/analyze.py" "$OUT" "${opts[@]}"
