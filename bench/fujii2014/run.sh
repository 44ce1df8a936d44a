#!/usr/bin/env bash
# Fujii 2014's Figs. 9 and 10 rerun on hetvp (issue #41; docs/transfers.md "Fujii 2014, Figs. 9
# and 10"): Fig. 9, Gdev's madd, mmul, memcpy and loop each alone, every phase's mean/min/max over
# RUNS runs; Fig. 10, two madd applications at once (two host processes), the time of both per
# round. One column per config, i.e. per firmware: hetvp's own on RV32 cores (configs/default.yaml),
# nouveau's on Falcon cores (configs/gf100_nouveau.yaml) and hetvp's own on the same Falcon cores
# (configs/gf100_own.yaml) by default; --configs chooses others.
#
#   bench/fujii2014/run.sh BUILD_DIR [OUT_DIR] [--runs N] [--configs "A.yaml B.yaml"]
#
# OUT_DIR (default /tmp/fujii2014) gets each run's CSV, fig9.csv, fig10.csv and table.md.
# Exit status: 0 every run passed its self-checks, 1 one failed, 2 usage.
set -euo pipefail
usage() { sed -n '9,9p' "$0" | sed 's/^# *//' >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$1; shift
OUT=/tmp/fujii2014
if [ $# -ge 1 ] && [ "${1#--}" = "$1" ]; then OUT=$1; shift; fi
RUNS=100
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CONFIGS="$SRC/configs/default.yaml $SRC/configs/gf100_nouveau.yaml $SRC/configs/gf100_own.yaml"
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=${2:?--runs N}; shift 2 ;;
    --configs) CONFIGS=${2:?--configs \"A.yaml B.yaml\"}; shift 2 ;;
    *) echo "run.sh: unknown option '$1'" >&2; usage ;;
  esac
done
HETVP=$(cd "$BUILD" && pwd)/hetvp
[ -x "$HETVP" ] || { echo "run.sh: $HETVP is not an executable (build first)" >&2; exit 2; }
# shellcheck disable=SC2086
exec python3 "$SRC/bench/fujii2014/fig9_fig10.py" "$HETVP" "$OUT" "$RUNS" $CONFIGS
