#!/usr/bin/env bash
# Configures, builds and runs the whole test suite under AddressSanitizer (+ LeakSanitizer) and
# UndefinedBehaviorSanitizer (-DHETVP_SANITIZE=ON), in its own build folder, and prints the times.
#
#   bench/sanitize/run.sh [BUILD_DIR]        default BUILD_DIR: build-asan beside the sources
#   JOBS=N  parallel jobs for the build and ctest (default 2)
#
# Exit status: 0 when every test passed and no sanitizer report appears anywhere in the ctest log;
# that of ctest when a test failed; 3 when every test passed but the log holds a sanitizer report
# (a test that let a child's report through without failing). docs/reliability.md ("Sanitizers").
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$src/build-asan}"
jobs="${JOBS:-2}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$src")}"
# Every sanitizer report ends the program with exit status 23, which is none of hetvp's own
# (0 pass, 1 simulated failure, 2 usage error): a test expecting status 1 or 2 cannot mistake a
# leak or an ASan/UBSan report for the failure it expects. UBSan stops at its first report
# (-fno-sanitize-recover and halt_on_error); stack traces for all. The test helpers also fail on
# any "Sanitizer" / "runtime error:" in a child's stderr (tests/common/run_hetvp.h).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:exitcode=23:strict_string_checks=1:check_initialization_order=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-exitcode=23}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=23}"

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
# A report a test printed but did not fail on still fails the run: the console log, and ctest's
# LastTest.log, which holds the whole output of every test (passed ones too).
if grep -nE 'Sanitizer|runtime error:' "$log" "$build/Testing/Temporary/LastTest.log" >"$build/sanitizer-reports.txt"; then
  echo "sanitize: sanitizer report(s) in the ctest logs ($build/sanitizer-reports.txt):" >&2
  head -20 "$build/sanitizer-reports.txt" >&2
  [ "$status" -ne 0 ] || status=3
fi
exit $status
