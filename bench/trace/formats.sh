#!/usr/bin/env bash
# Trace formats at scale (issue #42): the main job (`hetvp run configs/default.yaml`) untraced and
# traced as .json, .json.gz and .pftrace, then with --trace-filter pcie0 and with a 100 ms
# --trace-window: each traced case timed against the untraced run by bench/speed/paired.py (A and B
# in turn, the ratio taken pair by pair, median of N runs), then the trace file's size.
# Usage: bench/trace/formats.sh [OUT_DIR] (default /tmp/hetvp-trace-formats); N=3 by default.
# Run from the source tree after building build/hetvp.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/hetvp-trace-formats}
n=${N:-3}
warmup=${WARMUP:-1}
mkdir -p "$out"
base="./build/hetvp run configs/default.yaml -q"
for spec in "json|--trace $out/t.json" "json.gz|--trace $out/t.json.gz" "pftrace|--trace $out/t.pftrace" \
            "filter pcie0 (json)|--trace $out/f.json --trace-filter pcie0" \
            "filter pcie0 (pftrace)|--trace $out/f.pftrace --trace-filter pcie0" \
            "window 4s:4.1s (json)|--trace $out/w.json --trace-window 4s:4.1s"; do
  name=${spec%%|*}
  extra=${spec#*|}
  echo "== $name: $base $extra"
  # shellcheck disable=SC2086  # the command's words, split as paired.py splits --vs
  bench/speed/paired.py -n "$n" --warmup "$warmup" --vs "$base" -- $base $extra
  file=$(echo "$extra" | awk '{print $2}')
  echo "size: $(stat -c %s "$file") bytes"
  rm -f "$file"
done
