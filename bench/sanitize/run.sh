#!/usr/bin/env bash
# Configures, builds and runs the whole test suite under AddressSanitizer (+ LeakSanitizer) and
# UndefinedBehaviorSanitizer (-DHETVP_SANITIZE=ON), in its own build folder, and prints the times.
#
#   bench/sanitize/run.sh [BUILD_DIR]        default BUILD_DIR: build-asan beside the sources
#   JOBS=N  parallel jobs for the build and ctest (default 2)
#
# Exit status: that of ctest (0 when every test passed and no sanitizer reported anything).
# docs/reliability.md ("Sanitizers") has the figures measured with it.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$src/build-asan}"
jobs="${JOBS:-2}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$src")}"
# Leaks are errors (exit status 23 of the program that leaked); UBSan reports stop the program
# (it is compiled with -fno-sanitize-recover); stack traces for both.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

t0=$(date +%s)
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHETVP_SANITIZE=ON >/dev/null
t1=$(date +%s)
cmake --build "$build" -j"$jobs"
t2=$(date +%s)
status=0
ctest --test-dir "$build" --output-on-failure -j"$jobs" || status=$?
t3=$(date +%s)
echo "sanitize: configure $((t1 - t0)) s, build $((t2 - t1)) s, ctest $((t3 - t2)) s (jobs $jobs; load now: $(cut -d' ' -f1-3 /proc/loadavg))"
exit $status
