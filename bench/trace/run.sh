#!/usr/bin/env bash
# Tracing at scale (issue #27): the README's example untraced, traced, and traced over windows of
# 1, 100 and 200 ms from 4 s, each under /usr/bin/time -v: wall time, peak RSS, trace size and events, and
# the ratios to the untraced run. Usage: bench/trace/run.sh [OUT_DIR] (default /tmp/hetvp-trace-bench).
# Run from the source tree after building build/hetvp. Perfetto's trace processor is not packaged
# by Debian or npm; tests/python/test_trace.py checks the files' schema instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/hetvp-trace-bench}
mkdir -p "$out"
args=(run configs/default.yaml --set pcie0.lanes=8 --set workload.args.max_size=1MiB --csv "$out/transfer.csv"
      --stats "$out/stats.json")
measure() {  # NAME EXTRA-ARGS...: prints "NAME wall_s rss_kb"
  local name=$1
  shift
  /usr/bin/time -v ./build/hetvp "${args[@]}" "$@" > "$out/$name.out" 2> "$out/$name.time"
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' \
    "$out/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$name.time")
  echo "$name $wall $rss"
}
read -r _ w0 r0 < <(measure untraced)
printf '%-22s %8s %10s %12s %10s %8s %8s\n' run wall_s rss_kb trace_bytes events wall_x rss_x
printf '%-22s %8.2f %10d %12s %10s %8s %8s\n' untraced "$w0" "$r0" - - 1.00 1.00
for spec in full:- w1ms:4s:4.001s w100ms:4s:4.1s w200ms:4s:4.2s; do
  name=${spec%%:*}
  window=${spec#*:}
  extra=(--trace "$out/$name.json")
  [ "$window" != - ] && extra+=(--trace-window "$window")
  read -r _ w r < <(measure "$name" "${extra[@]}")
  size=$(stat -c %s "$out/$name.json")
  events=$(sed -n 's/^trace: \([0-9]*\) events.*/\1/p' "$out/$name.out")
  printf '%-22s %8.2f %10d %12d %10s %8.2f %8.2f\n' "$name" "$w" "$r" "$size" "$events" \
    "$(echo "$w / $w0" | bc -l)" "$(echo "$r / $r0" | bc -l)"
  rm -f "$out/$name.json"
done
