#!/bin/sh
# hetvp — the coherence --stats of the range-invalidation engine (directory.engine rtl and
# lockstep, modes range and per_line) are the same byte for byte in two builds, apart from the
# run section's version line. Usage: bench/rtl/coherence_stats_same.sh BASE_TREE [NEW_TREE] [N]
# (each tree has a built build/hetvp; N = workload.args.n of `square`, default 20000).
# Used for issue #12's move of the engine onto the generic RTL parts (rtl/bridges/protocol.h).
set -eu
BASE=$1
NEW=${2:-.}
N=${3:-20000}
OUT=$(mktemp -d)
status=0
for e in rtl lockstep; do
  for m in range per_line; do
    for t in base new; do
      tree=$BASE
      [ $t = new ] && tree=$NEW
      (cd "$tree" && ./build/hetvp run configs/coherence.yaml --workload square --quiet \
        --set workload.args.n="$N" --set directory.engine=$e --set directory.mode=$m --stats "$OUT/$t.json") \
        >"$OUT/$t.out" 2>&1 || { echo "$t build: engine=$e mode=$m failed:"; tail -3 "$OUT/$t.out"; }
      grep -v '"hetvp": ' "$OUT/$t.json" >"$OUT/$t.$e.$m.json"
    done
    if cmp -s "$OUT/base.$e.$m.json" "$OUT/new.$e.$m.json"; then
      echo "engine=$e mode=$m: identical"
    else
      echo "engine=$e mode=$m: DIFFERENT"
      diff "$OUT/base.$e.$m.json" "$OUT/new.$e.$m.json" | head -20
      status=1
    fi
  done
done
rm -rf "$OUT"
exit $status
