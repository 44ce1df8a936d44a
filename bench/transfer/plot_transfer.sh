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
  # x tics at powers of two in binary units (KiB, not kB: the sizes are powers of two).
  tics=$(awk -F, -v d="$dir" 'NR > 1 && $2 == d && $3 > 0 { if (!lo || $3 < lo) lo = $3; if ($3 > hi) hi = $3 }
      END { split("B KiB MiB GiB", u, " "); e = 0; while (2^e < lo) e++; n = 0; while (2^n < hi) n++
            step = (n - e > 12) ? 4 : (n - e > 6) ? 2 : 1; s = ""
            for (k = e; k <= n; k += step) { i = int(k / 10); s = s (s == "" ? "" : ", ") sprintf("\"%d %s\" %.0f", 2^(k - 10 * i), u[i + 1], 2^k) }
            print s }' "$csv")
  gnuplot <<GP
set datafile separator ","
set terminal pngcairo size 900,600 font "sans,11"
set output "$out/${kind}_$dir.png"
set title "$title, $kind transfers: time against size (hetvp, $(basename "$csv"))" noenhanced
set logscale x 2
set logscale y
set xtics ($tics)
set xlabel "transfer size (bytes, binary units)"
set ylabel "time including the API calls (µs)"
# The legend inside the frame; Okabe & Ito's colour-blind-safe palette (no yellow), distinct points.
set key inside top left box opaque Left reverse width 1
set grid
set linetype 1 linecolor rgb "#0072B2" linewidth 2 pointtype 4
set linetype 2 linecolor rgb "#D55E00" linewidth 2 pointtype 5
set linetype 3 linecolor rgb "#009E73" linewidth 2 pointtype 6
set linetype 4 linecolor rgb "#CC79A7" linewidth 2 pointtype 7
set linetype 5 linecolor rgb "#E69F00" linewidth 2 pointtype 8
set linetype 6 linecolor rgb "#56B4E9" linewidth 2 pointtype 9
set linetype 7 linecolor rgb "#000000" linewidth 2 pointtype 10
set linetype cycle 7
plot ${plots%, }
GP
  echo "$out/${kind}_$dir.png"
done
