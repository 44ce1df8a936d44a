#!/usr/bin/env bash
# A 24-point sweep (boot workload, PCIe lanes x generation x seed) run without a break, and run
# again after an interruption (SIGINT part-way, -j 1): the second run starts only the points the
# first did not finish, leaves the finished ones untouched, and its results.csv and every point's
# stats are byte-identical to the uninterrupted run's. Then `sweep plot` draws results.csv.
#   tests/sweep/resume.sh HETVP
set -u
HETVP=${1:?usage: resume.sh HETVP}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hetvp-sweep-resume.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

printf '%s\n' "base: $SRC/configs/default.yaml" "workload: boot" "axes:" "  pcie0.lanes: [1, 4, 8, 16]" \
  "  pcie0.generation: [1, 2, 3]" "seeds: [1, 2]" \
  "columns: [pcie0.down.wire_bytes, pcie0.bytes_per_second, gpu0.microcontrollers.hub.cycles]" > "$T/sweep.yaml"

timeout 120 "$HETVP" sweep "$T/sweep.yaml" --out "$T/a" -j 2 2> "$T/a.log" || {
  cat "$T/a.log"
  fail "uninterrupted sweep"
}
[ "$(tail -n +2 "$T/a/results.csv" | wc -l)" = 24 ] || fail "results.csv has not 24 rows: $(cat "$T/a/results.csv")"
[ "$(grep -c ',ok,' "$T/a/results.csv")" = 24 ] || fail "not every point ok: $(cat "$T/a/results.csv")"
[ "$(ls "$T/a/points" | wc -l)" = 24 ] || fail "not 24 point directories"
head -n 1 "$T/a/results.csv" | grep -qx 'pcie0.lanes,pcie0.generation,seed,status,pcie0.down.wire_bytes,pcie0.bytes_per_second,gpu0.microcontrollers.hub.cycles' ||
  fail "header: $(head -n 1 "$T/a/results.csv")"
grep -q '^16,3,2,ok,[0-9]*,[0-9.e+]*,[0-9]*$' "$T/a/results.csv" || fail "no filled row for 16,3,2: $(cat "$T/a/results.csv")"

# Interrupted run: SIGINT once at least 5 points are finished.
"$HETVP" sweep "$T/sweep.yaml" --out "$T/b" -j 1 2> "$T/b1.log" &
pid=$!
for _ in $(seq 600); do
  n=$(ls "$T"/b/points/*/status 2> /dev/null | wc -l)
  [ "$n" -ge 5 ] && break
  kill -0 $pid 2> /dev/null || break
  sleep 0.05
done
kill -INT $pid 2> /dev/null
wait $pid
rc=$?
[ $rc = 130 ] || {
  cat "$T/b1.log"
  fail "the interrupted sweep exited $rc, not 130"
}
done1=$(ls "$T"/b/points/*/status | wc -l)
[ "$done1" -ge 5 ] && [ "$done1" -lt 24 ] || fail "$done1 points finished before the interruption (want 5..23)"
grep -q ',pending,' "$T/b/results.csv" || fail "the partial results.csv shows no pending point"
# Inode and content of each finished status: a point run again gets a new status file.
for f in "$T"/b/points/*/status; do echo "$f $(stat -c %i "$f") $(md5sum < "$f" | cut -d' ' -f1)"; done > "$T/before"

timeout 120 "$HETVP" sweep "$T/sweep.yaml" --out "$T/b" -j 2 2> "$T/b2.log" || {
  cat "$T/b2.log"
  fail "resumed sweep"
}
grep -q "$done1 already finished, running $((24 - done1)) " "$T/b2.log" || {
  cat "$T/b2.log"
  fail "the resumed sweep did not run only the $((24 - done1)) missing points"
}
while read -r f ino sum; do
  [ "$(stat -c %i "$f")" = "$ino" ] && [ "$(md5sum < "$f" | cut -d' ' -f1)" = "$sum" ] ||
    fail "finished point $f was run again"
done < "$T/before"
cmp "$T/a/results.csv" "$T/b/results.csv" || fail "results.csv of the resumed sweep differs"
for d in "$T"/a/points/*/; do
  h=$(basename "$d")
  # Byte for byte but the two wall-clock fields of the run section (host_seconds, sim_rate).
  cmp <(grep -v '"host_seconds"\|"sim_rate"' "$d/stats.json") \
      <(grep -v '"host_seconds"\|"sim_rate"' "$T/b/points/$h/stats.json") || fail "point $h: stats differ"
done

# A third run has nothing to do and leaves results.csv as it was.
timeout 60 "$HETVP" sweep "$T/sweep.yaml" --out "$T/b" 2> "$T/b3.log" || fail "third run"
grep -q "24/24 points finished" "$T/b3.log" || fail "third run: $(cat "$T/b3.log")"
cmp "$T/a/results.csv" "$T/b/results.csv" || fail "results.csv changed on a run with nothing to do"

# Plot; a column that is not there is an error naming the columns.
timeout 60 "$HETVP" sweep plot "$T/a" --x pcie0.lanes --y pcie0.bytes_per_second --series pcie0.generation \
  --where seed=1 > "$T/plot.log" 2>&1 || {
  cat "$T/plot.log"
  fail "plot"
}
[ -s "$T/a/plot.png" ] || fail "no plot.png"
[ "$(head -c 4 "$T/a/plot.png" | tail -c 3)" = PNG ] || fail "plot.png is not a PNG"
grep -q "index 2 with linespoints title 'pcie0.generation=3'" "$T/a/plot.gp" || fail "plot.gp: $(cat "$T/a/plot.gp")"
if "$HETVP" sweep plot "$T/a" --x pcie0.lane --y status > "$T/plot2.log" 2>&1; then fail "plot of a missing column passed"; fi
grep -q "no column 'pcie0.lane' (did you mean 'pcie0.lanes'?)" "$T/plot2.log" || fail "plot error: $(cat "$T/plot2.log")"
echo "PASS: 24 points; interrupted after $done1, resumed with $((24 - done1)); results.csv identical"
