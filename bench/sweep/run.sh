#!/usr/bin/env bash
# Overhead of `hetvp sweep`'s local backend per point, beyond the `hetvp run` it starts:
# N points of the `boot` workload (seeds 1..N, so N distinct configurations), run
#   (a) as a plain shell loop of the same `hetvp run` commands, one at a time, and with xargs -P 2;
#   (b) by `hetvp sweep -j 1` and `hetvp sweep -j 2` (fresh output directory each).
# overhead per point = (sweep wall - baseline wall) * jobs / N, and, less sensitive to other load
# on the machine, (sweep wall * jobs - sum of the points' own wall times) / N. slot_occupancy_j2 =
# sum of the points' wall times / (2 x sweep wall): 1.0 when two points are in flight all the time.
# cpu_use_j2 = user + sys of the sweep and its children / (2 x wall): both cores busy when ~1 on an
# otherwise idle machine.
#   bench/sweep/run.sh [BUILD_DIR] [N]       (defaults: build, 200)
set -eu
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
BUILD=${1:-build}
N=${2:-200}
HETVP=$(cd "$BUILD" && pwd)/hetvp
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hetvp-bench-sweep.XXXXXX)
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }

printf '%s\n' "base: $SRC/configs/default.yaml" "workload: boot" "seeds: [$(seq -s ', ' 1 "$N")]" > "$T/sweep.yaml"
# The commands the sweep runs, from its point files (a dry run lists the points; a -j 1 warm-up
# run of 4 points warms the page cache and checks the program works).
"$HETVP" sweep "$T/sweep.yaml" --out "$T/dry" --dry-run > /dev/null
mkdir -p "$T/base"
for s in $(seq 1 "$N"); do
  echo "$HETVP run $SRC/configs/default.yaml --quiet --workload boot --set simulation.seed=$s --stats $T/base/$s.json --csv $T/base/$s.csv"
done > "$T/cmds"
head -n 4 "$T/cmds" | sh

t0=$(now)
sh "$T/cmds"
seq1=$(echo "$(now) - $t0" | bc)
t0=$(now)
tr '\n' '\0' < "$T/cmds" | xargs -0 -P 2 -I{} sh -c '{}'
par2=$(echo "$(now) - $t0" | bc)

/usr/bin/time -f "%e %U %S" -o "$T/t1" "$HETVP" sweep "$T/sweep.yaml" --out "$T/j1" -j 1 2> /dev/null
/usr/bin/time -f "%e %U %S" -o "$T/t2" "$HETVP" sweep "$T/sweep.yaml" --out "$T/j2" -j 2 2> /dev/null
read -r w1 _ _ < "$T/t1"
read -r w2 u2 s2 < "$T/t2"
# The sweep's own work before the first point: reading and validating N configurations.
/usr/bin/time -f "%e" -o "$T/tv" "$HETVP" sweep "$T/sweep.yaml" --out "$T/j2" --dry-run > /dev/null
read -r wv < "$T/tv"
cmp "$T/j1/results.csv" "$T/j2/results.csv"

# Sum of the points' own wall times (fork to exit, as the sweep records them in each status):
# what is left of the sweep's wall time x jobs is the sweep's own time and its idle slots.
busy() { cat "$1"/points/*/status | awk '/^wall_s:/ { s += $2 } END { printf "%.3f", s }'; }
b1=$(busy "$T/j1")
b2=$(busy "$T/j2")
echo "load average before: $LOAD0"
echo "points,baseline_j1_s,sweep_j1_s,overhead_vs_baseline_j1_ms,points_busy_j1_s,overhead_j1_ms,baseline_j2_s,sweep_j2_s,overhead_vs_baseline_j2_ms,points_busy_j2_s,overhead_j2_ms,slot_occupancy_j2,cpu_use_j2,validate_all_s"
echo "$N,$seq1,$w1,$(echo "scale=1; ($w1 - $seq1) * 1000 / $N" | bc),$b1,$(echo "scale=1; ($w1 - $b1) * 1000 / $N" | bc),$par2,$w2,$(echo "scale=1; ($w2 - $par2) * 2000 / $N" | bc),$b2,$(echo "scale=1; ($w2 * 2 - $b2) * 1000 / $N" | bc),$(echo "scale=3; $b2 / (2 * $w2)" | bc),$(echo "scale=2; ($u2 + $s2) / (2 * $w2)" | bc),$wv"
