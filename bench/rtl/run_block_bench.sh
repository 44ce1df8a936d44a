#!/bin/sh
# hetvp — benchmark of the example RTL block rtl.crc32 behind the generic bridges
# (docs/benchmarks.md, "RTL blocks"). Usage: bench/rtl/run_block_bench.sh [BUILD_DIR] [REPS]
#   1. throughput: a 16 MiB job; block cycles (the run's "RTL clock ran N cycles" line) per
#      second of host CPU (user+sys) spent beyond the same run in tlm mode, and per wall second;
#   2. bridge cost per register access: 200000 AXI4-Lite reads, rtl minus tlm CPU time / 200000;
#   3. idle: host CPU of a run whose block then sits idle for 100 simulated seconds, minus the same
#      run without them, / 100 (the time command's resolution is 10 ms); the clock's cycle count
#      must be the same in both runs.
set -eu
B=${1:-build}
N=${2:-3}
C=$(dirname "$0")/../../configs/rtl_block_example.yaml
run() {  # prints "cpu_seconds wall_seconds cycles"
  out=$( { /usr/bin/time -f "TIME %U %S %e" "$B/hetvp" run "$C" "$@"; } 2>&1 )
  echo "$out" | awk '/^TIME/ {cpu=$2+$3; wall=$4} /RTL clock ran/ {for (i=1;i<=NF;i++) if ($i=="ran") cyc=$(i+1)}
                     END {printf "%.3f %.3f %s\n", cpu, wall, (cyc==""?0:cyc)}'
}
i=0
while [ $i -lt "$N" ]; do
  i=$((i + 1))
  set -- $(run --set workload.args.size=16MiB --set crc0.mode=rtl); rc=$1; rw=$2; cyc=$3
  set -- $(run --set workload.args.size=16MiB --set crc0.mode=tlm); tc=$1
  echo "run $i throughput: $cyc cycles, rtl cpu ${rc}s wall ${rw}s, tlm cpu ${tc}s:" \
    "$(echo "$cyc $rc $tc $rw" | awk '{printf "%.2f M cycles per CPU second beyond tlm, %.2f M cycles per wall second", $1/($2-$3)/1e6, $1/$4/1e6}')"
  set -- $(run --set workload.args.reads=200000 --set workload.args.size=8 --set crc0.mode=rtl); rc=$1
  set -- $(run --set workload.args.reads=200000 --set workload.args.size=8 --set crc0.mode=tlm); tc=$1
  echo "run $i bridge: $(echo "$rc $tc" | awk '{printf "%.2f us host CPU per register read (rtl %.2fs - tlm %.2fs over 200000)", ($1-$2)/200000*1e6, $1, $2}')"
  set -- $(run --set workload.args.idle=100s --set 'simulation.time_limit=200 s'); ic=$1; icyc=$3
  set -- $(run); bc=$1; bcyc=$3
  echo "run $i idle: $(echo "$ic $bc $icyc $bcyc" | awk '{printf "%.2f ms host CPU per simulated idle second ((%.2fs - %.2fs) / 100; cycles %d vs %d)", ($1-$2)*10, $1, $2, $3, $4}')"
done
