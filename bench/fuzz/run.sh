#!/usr/bin/env bash
# Configures the clang fuzz build (build-fuzz: -DHETVP_FUZZ=ON, ASan + UBSan) and runs every
# libFuzzer harness of tests/fuzz for N executions, one at a time, niced, over a copy of its seed
# corpus; prints executions, execs/s, corpus size and the result of each. docs/fuzzing.md.
#
#   bench/fuzz/run.sh [N] [harness...]     N defaults to 1000000; harnesses default to all
#   FUZZ_MAX_TIME=600 bench/fuzz/run.sh    also stop each harness after that many seconds
#
# Findings (crash-*, timeout-*, oom-*, leak-*) go to build-fuzz/fuzz/artifacts/; the exit status
# is 1 when any harness found something.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-1000000}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(elf rv32 gdb debug_script yaml mmio ptx)
build=$here/build-fuzz
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DHETVP_FUZZ=ON -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 2
fi
targets=()
for h in "${harnesses[@]}"; do targets+=(--target "fuzz_$h"); done
nice -n 10 cmake --build "$build" -j2 "${targets[@]}" >/dev/null || { echo "build failed" >&2; exit 2; }
mkdir -p "$build/fuzz/artifacts" "$build/fuzz/logs"
status=0
printf '%-14s %10s %9s %8s %10s  %s\n' harness execs secs exec/s corpus result
for h in "${harnesses[@]}"; do
  work=$build/fuzz/work_$h
  rm -rf "$work" && mkdir -p "$work"
  dict=()
  [ -f "$here/tests/fuzz/$h.dict" ] && dict=(-dict="$here/tests/fuzz/$h.dict")
  extra=()
  [ -n "${FUZZ_MAX_TIME:-}" ] && extra=(-max_total_time="$FUZZ_MAX_TIME")
  # LeakSanitizer stays on except for the SystemC harnesses (SystemC's objects live to exit).
  leaks=1
  case $h in yaml|mmio) leaks=0 ;; esac
  log=$build/fuzz/logs/$h.log
  t0=$(date +%s.%N)
  ASAN_OPTIONS=detect_leaks=$leaks HETVP_SOURCE_DIR=$here nice -n 10 "$build/fuzz/fuzz_$h" -runs="$runs" -seed=1 -timeout=20 \
    -rss_limit_mb=3072 -print_final_stats=1 "${dict[@]}" "${extra[@]}" -artifact_prefix="$build/fuzz/artifacts/$h-" \
    "$work" "$here/tests/fuzz/corpus/$h" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  execs=${execs:-?}
  secs=$(echo "$t1 - $t0" | bc)
  rate=$( [ "$execs" != "?" ] && echo "scale=0; $execs / $secs" | bc || echo "?")
  corpus=$(ls "$work" | wc -l)
  result=ok
  if [ $rc -ne 0 ]; then result="FOUND (rc $rc, see $log)"; status=1; fi
  printf '%-14s %10s %9.0f %8s %10s  %s\n' "$h" "$execs" "$secs" "$rate" "$corpus" "$result"
done
exit $status
