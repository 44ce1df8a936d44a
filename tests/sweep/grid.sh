#!/usr/bin/env bash
# The grid: dimensions in file order (the last fastest), zip groups advancing together, seeds,
# map values, points that resolve to the same configuration run once; every example sweep file
# in configs/sweeps/ is valid (dry run: nothing runs, nothing is written).
#   tests/sweep/grid.sh HETVP
set -u
HETVP=${1:?usage: grid.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hetvp-sweep-grid.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
printf '%s\n' "base: $SRC/configs/coherence.yaml" "seeds: [7, 8]" "zip:" "  workload: [square, shfl2d]" \
  "  workload.args: [{n: 64}, {width: 8}]" "axes:" "  directory.mode: [per_line, range]" > "$T/g.yaml"
"$HETVP" sweep "$T/g.yaml" --out "$T/o" --dry-run > "$T/g.out" 2>&1 || fail "dry run: $(cat "$T/g.out")"
[ ! -e "$T/o" ] || fail "a dry run wrote $T/o"
head -n 1 "$T/g.out" | grep -q "8 points (8 distinct), 0 finished, 8 to run" || fail "$(cat "$T/g.out")"
sed -n 2,9p "$T/g.out" | awk '{ $2 = ""; print }' > "$T/order"
cat > "$T/want" <<'EOF'
0  pending seed=7 workload=square workload.args={n: 64} directory.mode=per_line
1  pending seed=7 workload=square workload.args={n: 64} directory.mode=range
2  pending seed=7 workload=shfl2d workload.args={width: 8} directory.mode=per_line
3  pending seed=7 workload=shfl2d workload.args={width: 8} directory.mode=range
4  pending seed=8 workload=square workload.args={n: 64} directory.mode=per_line
5  pending seed=8 workload=square workload.args={n: 64} directory.mode=range
6  pending seed=8 workload=shfl2d workload.args={width: 8} directory.mode=per_line
7  pending seed=8 workload=shfl2d workload.args={width: 8} directory.mode=range
EOF
diff "$T/want" "$T/order" || fail "grid order"
# A real run of the 8 points: results.csv rows in grid order; the map value is one quoted-free cell.
timeout 60 "$HETVP" sweep "$T/g.yaml" --out "$T/o" -j 2 2> "$T/run.log" || fail "run: $(cat "$T/run.log")"
cut -d, -f1-5 "$T/o/results.csv" | uniq > "$T/rows"
printf '%s\n' "seed,workload,workload.args,directory.mode,status" "7,square,{n: 64},per_line,ok" "7,square,{n: 64},range,ok" \
  "7,shfl2d,{width: 8},per_line,ok" "7,shfl2d,{width: 8},range,ok" "8,square,{n: 64},per_line,ok" \
  "8,square,{n: 64},range,ok" "8,shfl2d,{width: 8},per_line,ok" "8,shfl2d,{width: 8},range,ok" > "$T/want_rows"
diff "$T/want_rows" "$T/rows" || fail "results.csv rows"
grep -q '"workload": "shfl2d"' "$T"/o/points/*/stats.json || fail "no shfl2d point ran"
# The same configuration twice (lanes 16 is the base's value; the empty `set` changes nothing): one point.
printf '%s\n' "base: $SRC/configs/default.yaml" "workload: boot" "axes:" "  pcie0.lanes: [16, 8, 16]" > "$T/d.yaml"
"$HETVP" sweep "$T/d.yaml" --out "$T/d" --dry-run > "$T/d.out" 2>&1 || fail "dup dry run"
grep -q "3 points (2 distinct)" "$T/d.out" || fail "duplicates: $(cat "$T/d.out")"
[ "$(sed -n 2p "$T/d.out" | cut -d' ' -f4)" = "$(sed -n 4p "$T/d.out" | cut -d' ' -f4)" ] || fail "same config, different hash"
# Every example sweep file is valid.
for f in "$SRC"/configs/sweeps/*.yaml; do
  "$HETVP" sweep "$f" --out "$T/ex" --dry-run > "$T/ex.out" 2>&1 || fail "$f: $(cat "$T/ex.out")"
done
echo "PASS: grid order, zip, seeds, map values, duplicates, $(ls "$SRC"/configs/sweeps/*.yaml | wc -l) example files valid"
