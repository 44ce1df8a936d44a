#!/usr/bin/env bash
# plot_transfer.sh CSV [OUTDIR [single|pairs|all]] — plots a `transfer` result table
# (hetvp run ... --csv CSV): one log-log picture per direction, time (us) against size, one line
# per method. `single` = one transfer per method (Fujii 2014 Fig. 11), `pairs` = two transfers,
# sequential or overlapped (Fig. 12). Writes OUTDIR/<kind>_HtoD.png and OUTDIR/<kind>_DtoH.png.
set -euo pipefail
csv=${1:?usage: plot_transfer.sh CSV [OUTDIR [single|pairs|all]]}
out=${2:-.}
kind=${3:-all}
mkdir -p "$out"
command -v gnuplot >/dev/null || { echo "plot_transfer.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
for dir in HtoD DtoH; do
  methods=$(awk -F, -v d="$dir" -v k="$kind" 'NR > 1 && $2 == d {
      pair = index($1, "+") > 0
      if ((k == "all" || (k == "pairs") == pair) && !seen[$1]++) printf "%s ", $1 }' "$csv")
  [ -n "$methods" ] || continue
  title=$([ "$dir" = HtoD ] && echo "Host to device" || echo "Device to host")
  plots=""
  for m in $methods; do
    plots+="'$csv' using (strcol(1) eq '$m' && strcol(2) eq '$dir' ? \$3 : 1/0):(\$4/1000) with linespoints title '$m', "
  done
  gnuplot <<GP
set datafile separator ","
set terminal pngcairo size 900,600 font "sans,11"
set output "$out/${kind}_$dir.png"
set title "$title: $kind (hetvp, $(basename "$csv"))" noenhanced
set logscale xy
set format x "%.0s%cB"
set xlabel "transfer size"
set ylabel "time including the API calls (us)"
set key top left
set grid
plot ${plots%, }
GP
  echo "$out/${kind}_$dir.png"
done
