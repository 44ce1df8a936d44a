#!/usr/bin/env bash
# Configures, builds and runs the whole test suite under AddressSanitizer (+ LeakSanitizer) and
# UndefinedBehaviorSanitizer (-DHETVP_SANITIZE=ON), in its own build folder, and prints the times.
#
#   bench/sanitize/run.sh [BUILD_DIR]        default BUILD_DIR: build-asan beside the sources
#   bench/sanitize/run.sh --print-options    prints the sanitizer options it would run with, and stops
#   bench/sanitize/run.sh --scan-logs DIR    only searches DIR's ctest logs for reports (exit 0, 3 or 4)
#   JOBS=N  parallel jobs for the build and ctest (default 2)
#
# Exit status: 0 when every test passed and no sanitizer report appears anywhere in the ctest log;
# that of ctest when a test failed; 3 when every test passed but the log holds a sanitizer report
# (a test that let a child's report through without failing); 4 when every test passed but the logs
# could not be searched. docs/reliability.md ("Sanitizers").
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$src/build-asan}"
jobs="${JOBS:-2}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$src")}"
# Every sanitizer report ends the program with exit status 121, which no hetvp command returns
# (0 pass, 1 simulated failure, 2 usage error; `hetvp iss` maps a program's code to 3..119 or 120;
# README.md, "Exit status"): a test expecting any of those cannot mistake a leak or an ASan/UBSan
# report for the failure it expects. UBSan stops at its first report (-fno-sanitize-recover and
# halt_on_error); stack traces for all. The test helpers also fail on any "Sanitizer" /
# "runtime error:" in a child's output (tests/common/run_hetvp.h, tests/common/expect_exit.sh).
# Options already set by the caller are kept: ours are appended after them, except that the exit
# code is always ours (the last value of a key wins).
sanitizer_exit=121
add_options() {  # add_options VAR "ours": VAR="$VAR:ours" (or just ours when VAR is unset or empty)
  local cur="${!1:-}"
  export "$1=${cur:+$cur:}$2"
}
add_options ASAN_OPTIONS "detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:check_initialization_order=1:exitcode=$sanitizer_exit"
add_options LSAN_OPTIONS "exitcode=$sanitizer_exit"
add_options UBSAN_OPTIONS "print_stacktrace=1:halt_on_error=1:exitcode=$sanitizer_exit"
if [[ ${1:-} == --print-options ]]; then  # for tests/platform/sanitize_options.sh: the options, then stop
  printf 'ASAN_OPTIONS=%s\nLSAN_OPTIONS=%s\nUBSAN_OPTIONS=%s\n' "$ASAN_OPTIONS" "$LSAN_OPTIONS" "$UBSAN_OPTIONS"
  exit 0
fi

# A report a test printed but did not fail on still fails the run: the console log, and ctest's
# LastTest.log, which holds the whole output of every test (passed ones too). grep's status 1 is
# "no report"; 2 (a log missing or unreadable) fails the pass: nothing was searched.
# scan_reports BUILD_DIR CTEST_STATUS: prints the pass's exit status (messages go to stderr).
scan_reports() {
  local dir=$1 status=$2 reports="$1/sanitizer-reports.txt" grep_status=0
  # A report names its sanitizer ("ERROR: AddressSanitizer:", "SUMMARY: LeakSanitizer:") or is UBSan's
  # "runtime error:"; a bare "Sanitizer" would also match test names (SanitizerExit.*).
  grep -nE '[A-Za-z]Sanitizer|runtime error:' "$dir/ctest-sanitize.log" "$dir/Testing/Temporary/LastTest.log" >"$reports" ||
    grep_status=$?
  if [ "$grep_status" -eq 0 ]; then
    echo "sanitize: sanitizer report(s) in the ctest logs ($reports):" >&2
    head -20 "$reports" >&2
    [ "$status" -ne 0 ] || status=3
  elif [ "$grep_status" -ne 1 ]; then
    echo "sanitize: could not search the ctest logs for sanitizer reports (grep status $grep_status)" >&2
    [ "$status" -ne 0 ] || status=4
  fi
  echo "$status"
}
if [[ ${1:-} == --scan-logs ]]; then  # --scan-logs BUILD_DIR: only the scan of a finished pass's logs
  exit "$(scan_reports "$2" 0)"
fi

t0=$(date +%s)
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHETVP_SANITIZE=ON >/dev/null
t1=$(date +%s)
cmake --build "$build" -j"$jobs"
t2=$(date +%s)
status=0
log="$build/ctest-sanitize.log"
ctest --test-dir "$build" --output-on-failure -j"$jobs" --output-log "$log" || status=$?
t3=$(date +%s)
echo "sanitize: configure $((t1 - t0)) s, build $((t2 - t1)) s, ctest $((t3 - t2)) s (jobs $jobs; load now: $(cut -d' ' -f1-3 /proc/loadavg))"
exit "$(scan_reports "$build" "$status")"
