#!/usr/bin/env bash
# plot_transfer.sh CSV [OUTDIR] — plots a `transfer` result table (hetvp run ... --csv CSV):
# one log-log picture per direction, time (us) against size, one line per method, like
# Fig. 11/12 of Fujii 2014. Writes OUTDIR/transfer_HtoD.png and OUTDIR/transfer_DtoH.png.
set -euo pipefail
csv=${1:?usage: plot_transfer.sh CSV [OUTDIR]}
out=${2:-.}
mkdir -p "$out"
command -v gnuplot >/dev/null || { echo "plot_transfer.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
for dir in HtoD DtoH; do
  methods=$(awk -F, -v d="$dir" 'NR > 1 && $2 == d { if (!seen[$1]++) printf "%s ", $1 }' "$csv")
  [ -n "$methods" ] || continue
  title=$([ "$dir" = HtoD ] && echo "Host to device" || echo "Device to host")
  plots=""
  for m in $methods; do
    plots+="'$csv' using (strcol(1) eq '$m' && strcol(2) eq '$dir' ? \$3 : 1/0):(\$4/1000) with linespoints title '$m', "
  done
  gnuplot <<GP
set datafile separator ","
set terminal pngcairo size 900,600 font "sans,11"
set output "$out/transfer_$dir.png"
set title "$title (hetvp, $(basename "$csv"))"
set logscale xy
set format x "%.0s%cB"
set xlabel "transfer size"
set ylabel "time including the API call (us)"
set key top left
set grid
plot ${plots%, }
GP
  echo "$out/transfer_$dir.png"
done
