#!/bin/sh
# Coherence benchmark: wall time and peak RSS of the coherence workloads per size and mode, and
# square N=300,000 with each invalidation engine. Also the thesis-size sweep (probes, ticks) used
# by docs/coherence.md. Usage:
#   bench/coherence/run.sh [BUILD_DIR] [OUT_DIR]      (defaults: build-coh, bench-coherence-out)
# Writes OUT_DIR/wall.csv, OUT_DIR/engines.csv and OUT_DIR/sweep.csv; prints them.
set -e
BUILD=${1:-build-coh}
OUT=${2:-bench-coherence-out}
HETVP=$BUILD/hetvp
CFG=configs/coherence.yaml
mkdir -p "$OUT"

# value of "key" in the directory's stats
stat() { python3 -c "import json,sys; d=json.load(open('$1'))['components']['directory']; print(d['$2'])"; }

run() {  # run NAME ARGS... -> sets WALL RSS (from /usr/bin/time) and leaves $OUT/last.json
  /usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$HETVP" run "$CFG" --quiet --stats "$OUT/last.json" "$@" > "$OUT/last.out" 2>&1 || {
    echo "run failed: $*" >&2; cat "$OUT/last.out" >&2; exit 1; }
  WALL=$(cut -d' ' -f1 "$OUT/time.txt"); RSS=$(cut -d' ' -f2 "$OUT/time.txt")
}

if [ -z "$SWEEP_ONLY" ]; then  # SWEEP_ONLY=1: only the thesis-size sweep (sweep.csv)
echo "workload,size,mode,probes,ticks,wall_s,max_rss_kib" > "$OUT/wall.csv"
for mode in per_line range; do
  for n in 20000 40000 100000 200000 300000 600000 1200000; do
    arena=$(( (n * 8 / 1048576 + 2) ))MiB
    run --workload square --set workload.args.n=$n --set workload.args.rt.arena=$arena --set directory.mode=$mode
    echo "square,$n,$mode,$(stat $OUT/last.json probes),$(stat $OUT/last.json ticks),$WALL,$RSS" >> "$OUT/wall.csv"
  done
  for w in 64 128 256 384 512 1024; do
    arena=$(( (w * w * 8 / 1048576 + 2) ))MiB
    run --workload matrix_transpose --set workload.args.width=$w --set workload.args.rt.arena=$arena --set directory.mode=$mode
    echo "matrix_transpose,${w}x${w},$mode,$(stat $OUT/last.json probes),$(stat $OUT/last.json ticks),$WALL,$RSS" >> "$OUT/wall.csv"
  done
done

echo "engine,mode,probes,ticks,engine_cycles,wall_s,max_rss_kib,engine_cycles_per_wall_s" > "$OUT/engines.csv"
for mode in range per_line; do
  for e in tlm rtl lockstep; do
    best=""
    for rep in 1 2 3; do  # best of 3
      run --workload square --set workload.args.n=300000 --set directory.engine=$e --set directory.mode=$mode
      if [ -z "$best" ] || [ "$(echo "$WALL < $best" | bc)" = 1 ]; then best=$WALL; fi
    done
    cyc=$(stat $OUT/last.json engine_cycles)
    echo "$e,$mode,$(stat $OUT/last.json probes),$(stat $OUT/last.json ticks),$cyc,$best,$RSS,$(echo "scale=0; $cyc / $best" | bc)" >> "$OUT/engines.csv"
  done
done

fi

# The thesis' sizes (Misaki 2026 §4.1.3), both modes: probes and ticks per program run, with the
# GPU controller's probe walk as configured (serial) and with the four TCPs checked in parallel,
# and each directory probe cost model (probe_timing: pipelined | serial_ack). The grid is
# configs/sweeps/coherence.yaml, run by `hetvp sweep` (both cores, resumable); its results.csv is
# rewritten in this script's sweep.csv columns (the same rows, in the same order).
rm -rf "$OUT/sweep"
"$HETVP" sweep configs/sweeps/coherence.yaml --out "$OUT/sweep" -j 2 > "$OUT/sweep.log" 2>&1 || {
  echo "coherence sweep failed (see $OUT/sweep.log)" >&2; exit 1; }
python3 - "$OUT/sweep/results.csv" > "$OUT/sweep.csv" <<'PY'
import csv, sys
print("workload,size,mode,walk,timing,probes,ticks,lines_invalidated,tag_accesses")
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok":
        sys.exit("point failed: " + str(r))
    v = r["workload.args"].strip("{} ").split(",")[0].split(":")[1].strip()
    size = v if r["workload"] == "square" else v + "x" + v
    print(",".join([r["workload"], size, r["directory.mode"], r["gpu0.compute.probe_walk"],
                    r["directory.probe_timing"], r["directory.probes"], r["directory.ticks"],
                    r["directory.lines_invalidated"], r["directory.tag_accesses"]]))
PY

# The default per-side probe chains (issue #29) against the thesis' 21 rows, with and without host
# copies: docs/coherence.md's "Per-side probe chains" tables.
rm -rf "$OUT/per_side"
"$HETVP" sweep bench/coherence/per_side_sweep.yaml --out "$OUT/per_side" -j 2 > "$OUT/per_side.log" 2>&1 || {
  echo "per-side sweep failed (see $OUT/per_side.log)" >&2; exit 1; }
python3 bench/coherence/fit.py "$OUT/per_side/results.csv" > "$OUT/per_side_fit.md"

if [ -z "$SWEEP_ONLY" ]; then cat "$OUT/wall.csv" "$OUT/engines.csv"; fi
cat "$OUT/per_side_fit.md"
cat "$OUT/sweep.csv"
