#!/usr/bin/env bash
# Points that crash, time out or fail are recorded with their reason and do not stop the others;
# a finished (even failed) point is not run again, unless --retry-failed.
#   tests/sweep/failures.sh HETVP
set -u
HETVP=${1:?usage: failures.sh HETVP}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
T=$(mktemp -d /tmp/hetvp-sweep-fail.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
export HETVP_REAL=$HETVP HETVP_SWEEP_EXE=$HERE/fake_hetvp.sh
printf '%s\n' "base: $SRC/configs/default.yaml" "workload: boot" "timeout: 5 s" "axes:" \
  "  simulation.time_limit: [600 s, 1 us]" "  pcie0.lanes: [1, 4, 8, 16]" > "$T/sweep.yaml"

timeout 60 "$HETVP" sweep "$T/sweep.yaml" --out "$T/o" -j 2 2> "$T/1.log"
rc=$?
[ $rc = 1 ] || {
  cat "$T/1.log"
  fail "a sweep with failed points exited $rc, not 1"
}
csv=$T/o/results.csv
expect_row() { grep -qx "$1" "$csv" || fail "no row '$1' in results.csv: $(cat "$csv")"; }
expect_row '600 s,1,crashed'
expect_row '600 s,4,timeout'
expect_row '600 s,8,ok'
expect_row '600 s,16,ok'
expect_row '1 us,1,crashed'
expect_row '1 us,4,timeout'
expect_row '1 us,8,failed'
expect_row '1 us,16,failed'
grep -q "reason: killed by signal 11 (Segmentation fault)" "$T"/o/points/*/status || fail "no crash reason"
grep -q "reason: killed after 5.[0-9] s (the sweep's timeout)" "$T"/o/points/*/status || fail "no timeout reason"
grep -q "reason: exit 1 (the simulated system failed): FAILED: the workload did not finish within simulation.time_limit" \
  "$T"/o/points/*/status || fail "no failure reason: $(cat "$T"/o/points/*/status)"
grep -q "FAILED: the workload did not finish" "$T"/o/points/*/stderr.tail || fail "no stderr tail"
grep -q "point 0 (simulation.time_limit=600 s pcie0.lanes=1) crashed: killed by signal 11" "$T/1.log" ||
  fail "the summary does not name the crashed point: $(cat "$T/1.log")"

for f in "$T"/o/points/*/status; do echo "$f $(stat -c %i "$f")"; done > "$T/before"
timeout 60 "$HETVP" sweep "$T/sweep.yaml" --out "$T/o" -j 2 2> "$T/2.log"
[ $? = 1 ] || fail "second run: $(cat "$T/2.log")"
while read -r f ino; do [ "$(stat -c %i "$f")" = "$ino" ] || fail "finished point $f was run again"; done < "$T/before"

timeout 60 "$HETVP" sweep "$T/sweep.yaml" --out "$T/o" -j 2 --retry-failed 2> "$T/3.log"
grep -q "2 already finished, running 6 " "$T/3.log" || fail "--retry-failed: $(cat "$T/3.log")"
echo "PASS: crashed, timed-out and failed points recorded with their reasons"
